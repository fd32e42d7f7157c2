"""A contract run's durable state: its phase, each stage's outcome, budgets and fingerprints.

One run per contract id, in ``.argus/contracts/ID/state.json`` (written atomically). Phases:

    idle -> running -> verifying -> completed            (completed and aborted are terminal)
                   \\-> blocked  -> running | verifying  (a budget ran out; resume after fixing)
                   \\-> paused   -> running | verifying  (a person paused it; Stop allows exit)

The state keeps the digest of the contract it started with: a contract edited mid-run is
refused, not silently obeyed. Each passed stage extends a cumulative fingerprint (SHA-256 over
the previous fingerprint, the stage id and the digest of its evidence), so the closure summary
names exactly what was passed, in order.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from argus.contract.model import Contract
from argus.errors import InputError
from argus.io import atomic_write_json, read_json

STATE_VERSION = 1
CONTRACTS_DIR = Path(".argus") / "contracts"
PHASES = ("idle", "running", "verifying", "completed", "blocked", "paused", "aborted")
ACTIVE = frozenset({"running", "verifying"})
TERMINAL = frozenset({"completed", "aborted"})


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass
class StageState:
    status: str = "pending"  # pending | passed | failed | blocked
    attempts: int = 0  # mechanical runs, or judgment dispatches
    last: dict[str, Any] = field(default_factory=dict)  # the latest evidence
    evidence_sha256: str | None = None  # of the evidence that passed it

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "attempts": self.attempts,
            "last": self.last,
            "evidence_sha256": self.evidence_sha256,
        }


@dataclass
class RunState:
    contract_id: str
    contract_path: str
    contract_sha256: str
    executor_model: str
    phase: str
    resume_phase: str | None
    stages: dict[str, StageState]
    total_attempts: int = 0
    judgment_dispatches: int = 0
    fingerprint: str = ""
    reason: str = ""
    history: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "version": STATE_VERSION,
            "contract_id": self.contract_id,
            "contract_path": self.contract_path,
            "contract_sha256": self.contract_sha256,
            "executor_model": self.executor_model,
            "phase": self.phase,
            "resume_phase": self.resume_phase,
            "reason": self.reason,
            "stages": {k: v.to_json() for k, v in self.stages.items()},
            "total_attempts": self.total_attempts,
            "judgment_dispatches": self.judgment_dispatches,
            "fingerprint": self.fingerprint,
            "history": self.history,
        }

    def move(self, phase: str, reason: str = "") -> None:
        self.history.append({"at": now(), "from": self.phase, "to": phase, "reason": reason})
        self.phase = phase
        self.reason = reason

    def missing(self, contract: Contract) -> list[str]:
        """Required stages not passed yet."""
        stages = contract.stages
        return [s.id for s in stages if s.required and self.stages[s.id].status != "passed"]

    def extend_fingerprint(self, stage_id: str, evidence_sha256: str) -> None:
        link = f"{self.fingerprint}\n{stage_id}\n{evidence_sha256}".encode()
        self.fingerprint = hashlib.sha256(link).hexdigest()


def state_dir(root: Path, contract_id: str) -> Path:
    return root / CONTRACTS_DIR / contract_id


def new_state(contract: Contract, executor_model: str) -> RunState:
    return RunState(
        contract_id=contract.id,
        contract_path=str(contract.path),
        contract_sha256=contract.digest,
        executor_model=executor_model,
        phase="idle",
        resume_phase=None,
        stages={s.id: StageState() for s in contract.stages},
        fingerprint=hashlib.sha256(contract.digest.encode()).hexdigest(),
    )


def save_state(root: Path, state: RunState) -> Path:
    path = state_dir(root, state.contract_id) / "state.json"
    atomic_write_json(path, state.to_json())
    return path


def load_state(root: Path, contract_id: str) -> RunState:
    path = state_dir(root, contract_id) / "state.json"
    if not path.is_file():
        started = ", ".join(sorted(p.parent.name for p in started_runs(root))) or "none"
        raise InputError(
            f"no contract run '{contract_id}' here (started: {started}); "
            "start one with: argus contract start FILE"
        )
    raw = read_json(path, what="contract state")
    try:
        if raw.get("version") != STATE_VERSION or raw["phase"] not in PHASES:
            raise KeyError("version")
        stages = {
            k: StageState(v["status"], int(v["attempts"]), dict(v["last"]), v["evidence_sha256"])
            for k, v in raw["stages"].items()
        }
        return RunState(
            contract_id=raw["contract_id"],
            contract_path=raw["contract_path"],
            contract_sha256=raw["contract_sha256"],
            executor_model=raw["executor_model"],
            phase=raw["phase"],
            resume_phase=raw["resume_phase"],
            stages=stages,
            total_attempts=int(raw["total_attempts"]),
            judgment_dispatches=int(raw["judgment_dispatches"]),
            fingerprint=raw["fingerprint"],
            reason=raw.get("reason", ""),
            history=list(raw["history"]),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise InputError(f"{path}: not a contract state Argus wrote ({exc}); start again") from exc


def started_runs(root: Path) -> list[Path]:
    base = root / CONTRACTS_DIR
    return sorted(base.glob("*/state.json")) if base.is_dir() else []


def evidence_digest(evidence: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(evidence, sort_keys=True).encode()).hexdigest()
