"""Executor stages: prompt-driven work the executor does, completed against an exact packet.

``stage_input`` writes the stage's input packet (the run, the stage, its attempt, the contract
digest, the cumulative fingerprint and the exact prompt with its SHA-256) once per attempt and
returns it with its digest, the ``input_fingerprint``. ``stage_complete`` is pass-only: it takes
that fingerprint back, a lower-case SHA-256 of what the executor produced and one or more
evidence references, and records the pass; it accepts no status, no command result and no
identity from the caller, and refuses a fingerprint of another packet, a stage of another type
or a second completion.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from argus.contract.run import StageOutcome, _locked, _pass, _ready, open_run
from argus.contract.state import save_state, state_dir
from argus.errors import InputError
from argus.io import atomic_write_text

PACKET_KIND = "argus.contract.stage-input/v1"
SHA256 = re.compile(r"[0-9a-f]{64}")
MAX_REFS = 50


def _packet(root: Path, contract_id: str, stage_id: str) -> dict[str, Any]:
    contract, state = open_run(root, contract_id)
    stage = contract.stage(stage_id)
    if stage.type != "executor":
        raise InputError(f"stage '{stage_id}' is a {stage.type} stage, not an executor stage")
    _ready(contract, state, stage)
    mine = state.stages[stage.id]
    recorded = mine.last.get("input_fingerprint")
    if recorded and mine.status == "pending" and mine.last.get("packet"):
        path = Path(str(mine.last["packet"]))
        try:
            kept = path.read_bytes()
        except OSError:
            kept = b""
        if hashlib.sha256(kept).hexdigest() == recorded:  # else: edited, so a new attempt
            return {**json.loads(kept), "input_fingerprint": recorded}
    mine.attempts += 1
    packet = {
        "kind": PACKET_KIND,
        "identity": {
            "run_id": state.run_id,
            "contract_id": contract.id,
            "stage_id": stage.id,
            "attempt": mine.attempts,
            "contract_sha256": contract.digest,
            "cumulative_fingerprint": state.fingerprint,
        },
        "stage": {"name": stage.name, "pass_criteria": stage.pass_criteria},
        "prompt": {"text": stage.prompt, "sha256": stage.prompt_sha256},
    }
    text = json.dumps(packet, sort_keys=True, indent=2) + "\n"
    path = state_dir(root, contract.id) / "inputs" / f"{stage.id}-{mine.attempts}.json"
    atomic_write_text(path, text)
    fingerprint = hashlib.sha256(text.encode()).hexdigest()
    mine.last = {"input_fingerprint": fingerprint, "packet": str(path)}
    save_state(root, state)
    return {**packet, "input_fingerprint": fingerprint}


def stage_input(root: Path, contract_id: str, stage_id: str) -> dict[str, Any]:
    """The stage's input packet (the same one until it completes) with its fingerprint."""
    return _locked(root, contract_id, lambda: _packet(root, contract_id, stage_id))


def stage_complete(
    root: Path,
    contract_id: str,
    stage_id: str,
    input_fingerprint: str,
    output_digest: str,
    evidence_refs: list[str],
) -> StageOutcome:
    def work() -> StageOutcome:
        contract, state = open_run(root, contract_id)
        stage = contract.stage(stage_id)
        if stage.type != "executor":
            raise InputError(f"stage '{stage_id}' is a {stage.type} stage; only executor stages")
        _ready(contract, state, stage)
        mine = state.stages[stage.id]
        if not mine.last.get("input_fingerprint"):
            raise InputError(f"stage '{stage_id}': ask for its input first (stage-input)")
        if input_fingerprint != mine.last["input_fingerprint"]:
            raise InputError(f"stage '{stage_id}': that is not the fingerprint of its input")
        if not SHA256.fullmatch(output_digest):
            raise InputError("--output-digest: a lower-case SHA-256 (64 hex digits)")
        refs = [r.strip() for r in evidence_refs if r.strip()]
        if not refs or len(refs) > MAX_REFS or any(len(r) > 500 or "\0" in r for r in refs):
            raise InputError(f"--evidence: 1 to {MAX_REFS} references, each under 500 characters")
        mine.last = {
            **mine.last,
            "output_digest": output_digest,
            "evidence_refs": refs,
            "prompt_sha256": stage.prompt_sha256,
        }
        _pass(contract, state, mine, root)
        save_state(root, state)
        return StageOutcome(stage.id, "passed", f"completed against input {input_fingerprint}")

    return _locked(root, contract_id, work)
