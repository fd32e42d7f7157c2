"""Driving a contract run: phases, mechanical stages Argus runs, judgment stages a grader decides.

Nobody reports a stage's outcome to Argus. A mechanical stage passes when Argus ran its command
in the repository root and it exited 0; a judgment stage passes when an independent grader
(a model other than the executor's, or an agent command other than the implementer's) said GO
with evidence. A grader that does not answer, or answers without evidence, is a blocker, never
a GO. Stages run only after the stages they require passed; budgets bound the attempts.
"""

from __future__ import annotations

import hashlib
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from argus.contract.grader import ask_grader
from argus.contract.model import Contract, Stage, check_independence, load_contract
from argus.contract.state import (
    ACTIVE,
    TERMINAL,
    RunState,
    StageState,
    evidence_digest,
    load_state,
    new_state,
    now,
    save_state,
    state_dir,
)
from argus.errors import ArgusError, InputError
from argus.io import atomic_write_text
from argus.judge.content import clip

MAX_OUTPUT_BYTES = 1024 * 1024
TAIL_LINES = 40
SUMMARY = "summary.md"


class NotReady(ArgusError):
    """A determinate "not yet": required stages have not passed (exit 1, not bad input)."""

    exit_code = 1


@dataclass(frozen=True)
class StageOutcome:
    stage: str
    status: str  # passed | failed | pending (no verdict) | blocked
    detail: str


def start(root: Path, contract_path: Path, executor_model: str, executor_command: str) -> RunState:
    contract = load_contract(contract_path)
    check_independence(contract, executor_model, executor_command)
    existing = state_dir(root, contract.id) / "state.json"
    if existing.is_file():
        current = load_state(root, contract.id)
        if current.phase not in TERMINAL:
            raise InputError(
                f"contract '{contract.id}' is already {current.phase} ({existing}); finish or "
                f"abort it first: argus contract abort {contract.id} --reason …"
            )
    state = new_state(contract, executor_model)
    state.move("running", "started")
    save_state(root, state)
    return state


def open_run(root: Path, contract_id: str) -> tuple[Contract, RunState]:
    state = load_state(root, contract_id)
    contract = load_contract(Path(state.contract_path))
    if contract.digest != state.contract_sha256:
        raise InputError(
            f"{state.contract_path}: changed since the run started; a contract is fixed for its "
            f"run (abort it and start again to use the new one)"
        )
    return contract, state


def advance(root: Path, contract_id: str, phase: str) -> RunState:
    _, state = open_run(root, contract_id)
    allowed = {"verifying": {"running"}, "running": {"verifying"}}
    if phase not in allowed or state.phase not in allowed[phase]:
        raise InputError(f"contract '{contract_id}' is {state.phase}; cannot advance to {phase}")
    state.move(phase)
    save_state(root, state)
    return state


def pause(root: Path, contract_id: str, reason: str) -> RunState:
    _, state = open_run(root, contract_id)
    if state.phase not in ACTIVE:
        raise InputError(f"contract '{contract_id}' is {state.phase}; only an active run pauses")
    state.resume_phase = state.phase
    state.move("paused", reason)
    save_state(root, state)
    return state


def resume(root: Path, contract_id: str) -> RunState:
    _, state = open_run(root, contract_id)
    if state.phase not in ("paused", "blocked"):
        raise InputError(f"contract '{contract_id}' is {state.phase}; nothing to resume")
    state.move(state.resume_phase or "running", "resumed")
    state.resume_phase = None
    save_state(root, state)
    return state


def abort(root: Path, contract_id: str, reason: str) -> RunState:
    state = load_state(root, contract_id)
    if state.phase in TERMINAL:
        raise InputError(f"contract '{contract_id}' is already {state.phase}")
    state.move("aborted", reason)
    save_state(root, state)
    return state


def _ready(contract: Contract, state: RunState, stage: Stage) -> None:
    if state.phase != "verifying":
        advance = f" (argus contract advance {contract.id} verifying)"
        hint = advance if state.phase == "running" else ""
        raise InputError(
            f"contract '{contract.id}' is {state.phase}; stages are graded only while "
            f"verifying{hint}"
        )
    if state.stages[stage.id].status == "passed":
        raise InputError(f"stage '{stage.id}' already passed; a stage passes once per run")
    waiting = [r for r in stage.requires if state.stages[r].status != "passed"]
    if waiting:
        raise InputError(f"stage '{stage.id}' requires {', '.join(waiting)} to pass first")


def _block(state: RunState, stage_state: StageState, why: str) -> None:
    stage_state.status = "blocked"
    state.resume_phase = state.phase
    state.move("blocked", why)


def grade(root: Path, contract_id: str, stage_id: str) -> StageOutcome:
    """Run a mechanical stage's command; its exit code decides."""
    contract, state = open_run(root, contract_id)
    stage = contract.stage(stage_id)
    if stage.type != "mechanical":
        raise InputError(f"stage '{stage_id}' is a judgment stage: argus contract judge")
    _ready(contract, state, stage)
    mine = state.stages[stage.id]
    budget = contract.budget
    if mine.attempts >= budget.max_attempts_per_stage or (
        state.total_attempts >= budget.max_total_attempts
    ):
        _block(state, mine, f"attempt budget spent on '{stage.id}'")
        save_state(root, state)
        return StageOutcome(stage.id, "blocked", state.reason)
    assert stage.command is not None
    evidence = _run_command(stage.command, root, contract.timeout)
    mine.attempts += 1
    state.total_attempts += 1
    mine.last = evidence
    if evidence["exit_code"] == 0:
        mine.status = "passed"
        mine.evidence_sha256 = evidence_digest(evidence)
        state.extend_fingerprint(stage.id, mine.evidence_sha256)
        outcome = StageOutcome(stage.id, "passed", f"exit 0 in {evidence['seconds']}s")
    else:
        mine.status = "failed"
        outcome = StageOutcome(stage.id, "failed", f"exit {evidence['exit_code']}")
        if mine.attempts >= budget.max_attempts_per_stage or (
            state.total_attempts >= budget.max_total_attempts
        ):
            _block(state, mine, f"'{stage.id}' failed with its attempt budget spent")
            outcome = StageOutcome(stage.id, "blocked", state.reason)
    save_state(root, state)
    return outcome


def _run_command(command: str, root: Path, timeout: float) -> dict[str, object]:
    started = time.monotonic()
    try:
        done = subprocess.run(
            command,
            shell=True,
            cwd=root,
            capture_output=True,
            timeout=timeout,
            check=False,
            start_new_session=True,
        )
        code: int | None = done.returncode
        output = (done.stdout + done.stderr)[-MAX_OUTPUT_BYTES:]
        note = ""
    except subprocess.TimeoutExpired as exc:
        code = None
        output = ((exc.stdout or b"") + (exc.stderr or b""))[-MAX_OUTPUT_BYTES:]
        note = f"timed out after {timeout:g}s"
    text = output.decode("utf-8", "replace")
    tail = "\n".join(clip(line, 300) for line in text.splitlines()[-TAIL_LINES:])
    return {
        "command": command,
        "exit_code": code if code is not None else -1,
        "note": note,
        "seconds": round(time.monotonic() - started, 2),
        "output_tail": tail,
        "output_sha256": hashlib.sha256(output).hexdigest(),
        "finished_at": now(),
    }


def judge(root: Path, contract_id: str, stage_id: str) -> StageOutcome:
    """Dispatch a judgment stage's grader once; only its GO with evidence passes the stage."""
    contract, state = open_run(root, contract_id)
    stage = contract.stage(stage_id)
    if stage.type != "judgment" or stage.grader is None:
        raise InputError(f"stage '{stage_id}' is mechanical: argus contract grade")
    _ready(contract, state, stage)
    mine = state.stages[stage.id]
    if mine.attempts >= stage.grader.rounds or (
        state.judgment_dispatches >= contract.budget.max_judgment_dispatches
    ):
        _block(state, mine, f"grading rounds spent on '{stage.id}'")
        save_state(root, state)
        return StageOutcome(stage.id, "blocked", state.reason)
    mine.attempts += 1
    state.judgment_dispatches += 1
    save_state(root, state)  # the dispatch counts even if the grader never comes back
    verdict = ask_grader(root, contract, state, stage)
    mine.last = verdict.to_json()
    if verdict.go:
        mine.status = "passed"
        mine.evidence_sha256 = evidence_digest(mine.last)
        state.extend_fingerprint(stage.id, mine.evidence_sha256)
        outcome = StageOutcome(stage.id, "passed", verdict.evidence)
    elif verdict.verdict == "NO-GO":
        mine.status = "failed"
        outcome = StageOutcome(stage.id, "failed", verdict.evidence)
    else:
        mine.status = "pending"
        outcome = StageOutcome(stage.id, "pending", f"no verdict: {verdict.error}")
    save_state(root, state)
    return outcome


def complete(root: Path, contract_id: str) -> Path:
    """Close the run once every required stage passed; the closure summary's path."""
    contract, state = open_run(root, contract_id)
    if state.phase != "verifying":
        raise InputError(f"contract '{contract_id}' is {state.phase}; it completes from verifying")
    missing = state.missing(contract)
    if missing:
        raise NotReady(
            f"contract '{contract_id}' cannot complete: {', '.join(missing)} not passed yet"
        )
    state.move("completed", "every required stage passed")
    lines = [
        f"# {contract.name}",
        "",
        f"- contract: {contract.id} (sha256 {contract.digest})",
        f"- fingerprint: {state.fingerprint}",
        f"- completed: {now()}",
        "",
        "| stage | type | status | attempts | evidence sha256 |",
        "| --- | --- | --- | --- | --- |",
    ]
    for stage in contract.stages:
        s = state.stages[stage.id]
        lines.append(
            f"| {stage.id} | {stage.type} | {s.status} | {s.attempts} | {s.evidence_sha256 or ''} |"
        )
    path = state_dir(root, contract.id) / SUMMARY
    atomic_write_text(path, "\n".join(lines) + "\n")
    save_state(root, state)
    return path
