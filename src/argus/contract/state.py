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
import re
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from argus.contract import _ledger as ledger
from argus.contract.model import Contract
from argus.contract.registry import remember
from argus.errors import InputError
from argus.io import atomic_write_json, read_json
from argus.store.lock import run_state_lock

STATE_VERSION = 2
CONTRACTS_DIR = Path(".argus") / "contracts"
PHASES = ("idle", "running", "verifying", "completed", "blocked", "paused", "aborted")
ACTIVE = frozenset({"running", "verifying"})
ID_PATTERN = re.compile(r"[a-z0-9][a-z0-9._-]{0,63}")
TERMINAL = frozenset({"completed", "aborted"})


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass
class StageState:
    status: str = "pending"  # pending | passed | failed | blocked
    attempts: int = 0  # mechanical runs, or judgment dispatches
    last: dict[str, Any] = field(default_factory=dict)  # the latest evidence
    evidence_sha256: str | None = None  # of the evidence that passed it
    worktree: str | None = None  # the working tree it passed on (None: not a git repository)

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "attempts": self.attempts,
            "last": self.last,
            "evidence_sha256": self.evidence_sha256,
            "worktree": self.worktree,
        }


@dataclass
class RunState:
    run_id: str
    contract_id: str
    contract_path: str
    contract_sha256: str
    executor_model: str
    phase: str
    resume_phase: str | None
    stages: dict[str, StageState]
    total_attempts: int = 0
    judgment_dispatches: int = 0
    mechanical_failures: int = 0
    fingerprint: str = ""
    reason: str = ""
    history: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "version": STATE_VERSION,
            "run_id": self.run_id,
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
            "mechanical_failures": self.mechanical_failures,
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

    def refresh_fingerprint(self, contract: Contract) -> None:
        """The chain over the contract's digest and, in contract order, each passed stage's
        id, evidence digest and working tree."""
        value = hashlib.sha256(contract.digest.encode()).hexdigest()
        for stage in contract.stages:
            record = self.stages[stage.id]
            if record.status == "passed":
                link = f"{value}\n{stage.id}\n{record.evidence_sha256}\n{record.worktree}"
                value = hashlib.sha256(link.encode()).hexdigest()
        self.fingerprint = value

    def stale(self, current: str | None) -> list[str]:
        """Passed stages whose working tree is not ``current`` any more."""
        if current is None:
            return []
        return [
            k for k, v in self.stages.items()
            if v.status == "passed" and v.worktree is not None and v.worktree != current
        ]  # fmt: skip

    def matches(self, contract: Contract) -> bool:
        return set(self.stages) == {s.id for s in contract.stages}


def state_dir(root: Path, contract_id: str) -> Path:
    if not ID_PATTERN.fullmatch(contract_id):
        raise InputError(
            f"{contract_id!r} is not a contract id (lower-case letters, digits, '.', '_', '-')"
        )
    return root / CONTRACTS_DIR / contract_id


@contextmanager
def run_lock(root: Path, contract_id: str) -> Iterator[None]:
    """One command at a time on a run: each reads, changes and writes the state whole."""
    directory = state_dir(root, contract_id)
    directory.mkdir(parents=True, exist_ok=True)
    # The loop's lock (argus.store.lock): by the folder's identity and a key outside the
    # repository, so a state folder swapped for a copy while a command holds it stops that
    # command's next write, and a second command still waits for the first.
    with run_state_lock(directory, blocking=True):
        yield


def new_state(contract: Contract, executor_model: str) -> RunState:
    state = RunState(
        run_id=secrets.token_hex(8),
        contract_id=contract.id,
        contract_path=str(contract.path),
        contract_sha256=contract.digest,
        executor_model=executor_model,
        phase="idle",
        resume_phase=None,
        stages={s.id: StageState() for s in contract.stages},
    )
    state.refresh_fingerprint(contract)
    return state


def save_state(root: Path, state: RunState, *, repair: bool = False) -> Path:
    """Record what changed in the run's ledger (one SQLite transaction), then write state.json
    (its view).

    ``repair`` (a person's abort): the ledger is not walked first; the whole state is appended
    after whatever the store holds (argus.contract._ledger.record).
    """
    directory = state_dir(root, state.contract_id)
    directory.mkdir(parents=True, exist_ok=True)
    ledger.record(root, state, repair=repair)
    path = directory / "state.json"
    atomic_write_json(path, state.to_json())
    remember(root, state.contract_id, state.run_id, state.phase)
    return path


def load_state(root: Path, contract_id: str) -> RunState:
    directory = state_dir(root, contract_id)
    path = directory / "state.json"
    if not path.is_file():
        started = ", ".join(sorted(p.parent.name for p in started_runs(root))) or "none"
        raise InputError(
            f"no contract run '{contract_id}' here (started: {started}); "
            "start one with: argus contract start FILE"
        )
    ledger.import_file(root, directory, contract_id)  # a ledger an earlier Argus kept as a file
    return read_state(path, contract_id)


def read_state(path: Path, contract_id: str) -> RunState:
    """The run state in ``path`` (a run's state.json, open or archived)."""
    raw = read_json(path, what="contract state")
    try:
        # Version 1 (before the ledger) still reads, so a closed run can be archived and an
        # open one aborted; without a ledger, nothing else accepts it.
        if raw.get("version") not in (1, STATE_VERSION) or raw["phase"] not in PHASES:
            raise KeyError("version")
        if raw["contract_id"] != contract_id:
            raise ValueError(f"it names run {raw['contract_id']!r}")
        for key in ("contract_path", "contract_sha256", "executor_model", "fingerprint"):
            if not isinstance(raw[key], str) or "\0" in raw[key]:
                raise TypeError(f"'{key}' is not a string")
        stages = {
            k: StageState(
                v["status"], int(v["attempts"]), dict(v["last"]), v["evidence_sha256"],
                v.get("worktree"),
            )
            for k, v in raw["stages"].items()
        }  # fmt: skip
        return RunState(
            run_id=str(raw["run_id"]) if raw["version"] == STATE_VERSION else "v1",
            contract_id=raw["contract_id"],
            contract_path=raw["contract_path"],
            contract_sha256=raw["contract_sha256"],
            executor_model=raw["executor_model"],
            phase=raw["phase"],
            resume_phase=raw["resume_phase"],
            stages=stages,
            total_attempts=int(raw["total_attempts"]),
            judgment_dispatches=int(raw["judgment_dispatches"]),
            mechanical_failures=int(raw.get("mechanical_failures", 0)),
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
