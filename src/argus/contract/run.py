"""Driving a contract run: phases, mechanical stages Argus runs, judgment stages a grader decides.

Nobody reports a stage's outcome to Argus. A mechanical stage passes when Argus ran its command
in the repository root and it exited 0; a judgment stage passes when an independent grader
(a model other than the executor's, or an agent command other than the implementer's) said GO
with evidence. A grader that does not answer, or answers without evidence, is a blocker, never
a GO. Stages run only after the stages they require passed; budgets bound the attempts, and a
reviewer stage whose grading rounds (3 by default) end without a GO blocks the run. A pass
belongs to the working tree it was earned on: once the tree changes, the pass is stale and the
stage must be graded again. One command at a time works on a run (a lock).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from argus.confine import detect, run_confined, workspace
from argus.confine.program import NOT_FOUND_EXIT, shell_not_found
from argus.contract import _ledger as ledger
from argus.contract._completion import NotReady as NotReady  # raised by complete
from argus.contract._completion import close, drop_stale
from argus.contract._grader import ask_grader
from argus.contract._worktree import worktree_digest
from argus.contract.history import archive_run
from argus.contract.model import (
    Contract,
    Stage,
    check_grader,
    check_independence,
    load_contract,
)
from argus.contract.pins import require_pinned
from argus.contract.state import (
    ACTIVE,
    TERMINAL,
    RunState,
    StageState,
    evidence_digest,
    load_state,
    new_state,
    now,
    run_lock,
    save_state,
    state_dir,
)
from argus.contract.summary import require_summary, write_summary
from argus.errors import InputError
from argus.evidence.content import clip
from argus.proc import read_tail

TAIL_LINES = 40
T = TypeVar("T")


@dataclass(frozen=True)
class StageOutcome:
    stage: str
    status: str  # passed | failed | pending (no verdict) | blocked
    detail: str


def _locked(root: Path, contract_id: str, work: Callable[[], T]) -> T:
    with run_lock(root, contract_id):
        return work()


def start(root: Path, contract_path: Path, executor_model: str, executor_command: str) -> RunState:
    contract = load_contract(contract_path)
    check_independence(contract, root, executor_model, executor_command)
    require_pinned(root, contract)

    def work() -> RunState:
        if (state_dir(root, contract.id) / "state.json").is_file():
            current = load_state(root, contract.id)
            if current.phase not in TERMINAL:
                raise InputError(
                    f"contract '{contract.id}' is already {current.phase}; finish it, or a "
                    f"person aborts it: argus contract abort {contract.id} --reason …"
                )
            archive_run(root, current)
        state = new_state(contract, executor_model)
        state.move("running", "started")
        save_state(root, state)
        return state

    return _locked(root, contract.id, work)


def open_run(root: Path, contract_id: str) -> tuple[Contract, RunState]:
    state = load_state(root, contract_id)
    ledger.check(root, state, state_dir(root, contract_id))
    contract = load_contract(Path(state.contract_path))
    if contract.digest != state.contract_sha256:
        raise InputError(
            f"{state.contract_path}: changed since the run started; a contract is fixed for its "
            f"run (a person aborts it, then start again with the new one)"
        )
    if not state.matches(contract):
        raise InputError(f"contract run '{contract_id}': its state does not match its contract")
    return contract, state


def _change_phase(
    root: Path,
    contract_id: str,
    check: Callable[[RunState], None],
    to: Callable[[RunState], str],
    reason: str = "",
) -> RunState:
    def work() -> RunState:
        _, state = open_run(root, contract_id)
        check(state)
        state.move(to(state), reason)
        save_state(root, state)
        return state

    return _locked(root, contract_id, work)


def advance(root: Path, contract_id: str, phase: str) -> RunState:
    allowed = {"verifying": {"running"}, "running": {"verifying"}}

    def check(state: RunState) -> None:
        if phase not in allowed or state.phase not in allowed[phase]:
            raise InputError(
                f"contract '{contract_id}' is {state.phase}; cannot advance to {phase}"
            )

    return _change_phase(root, contract_id, check, lambda _: phase)


def pause(root: Path, contract_id: str, reason: str) -> RunState:
    def check(state: RunState) -> None:
        if state.phase not in ACTIVE and state.phase != "blocked":
            raise InputError(
                f"contract '{contract_id}' is {state.phase}; only an active or blocked run pauses"
            )
        if state.phase != "blocked":
            state.resume_phase = state.phase

    # the person's reason is kept: the hooks show it ("paused by a person (reason)")
    return _change_phase(root, contract_id, check, lambda _: "paused", reason)


def resume(root: Path, contract_id: str) -> RunState:
    def check(state: RunState) -> None:
        if state.phase not in ("paused", "blocked"):
            raise InputError(f"contract '{contract_id}' is {state.phase}; nothing to resume")

    def to(state: RunState) -> str:
        phase, state.resume_phase = state.resume_phase or "running", None
        return phase

    return _change_phase(root, contract_id, check, to)


def abort(root: Path, contract_id: str, reason: str) -> RunState:
    def work() -> RunState:
        state = load_state(root, contract_id)
        if state.phase in TERMINAL:
            raise InputError(f"contract '{contract_id}' is already {state.phase}")
        require_summary(root, state, "abort")
        state.move("aborted", reason)
        save_state(root, state, repair=True)  # a person's word ends even a damaged run
        return state

    return _locked(root, contract_id, work)


def block(root: Path, contract_id: str, reason: str) -> RunState:
    """Mark an active run blocked on something outside the session (a fresh summary first);
    the Stop hook keeps holding the session until a person resumes, pauses or aborts it."""

    def work() -> RunState:
        _, state = open_run(root, contract_id)
        if state.phase not in ACTIVE:
            raise InputError(
                f"contract '{contract_id}' is {state.phase}; only an active run blocks"
            )
        require_summary(root, state, "block")
        state.resume_phase = state.phase
        state.move("blocked", reason)
        save_state(root, state)
        return state

    return _locked(root, contract_id, work)


def summary_write(root: Path, contract_id: str, body: str) -> Path:
    """Stamp and store the executor's closure summary (it changes no state)."""

    def work() -> Path:
        state = load_state(root, contract_id)
        if state.phase in TERMINAL:
            raise InputError(f"contract '{contract_id}' is {state.phase}; its summary is final")
        return write_summary(root, state, body)

    return _locked(root, contract_id, work)


def _ready(contract: Contract, state: RunState, stage: Stage) -> None:
    if state.phase != "verifying":
        advance_hint = f" (argus contract advance {contract.id} verifying)"
        hint = advance_hint if state.phase == "running" else ""
        raise InputError(
            f"contract '{contract.id}' is {state.phase}; stages are graded only while "
            f"verifying{hint}"
        )
    if state.stages[stage.id].status == "passed":
        raise InputError(f"stage '{stage.id}' already passed on this working tree")
    waiting = [r for r in stage.requires if state.stages[r].status != "passed"]
    if waiting:
        raise InputError(f"stage '{stage.id}' requires {', '.join(waiting)} to pass first")


def _block(state: RunState, stage_state: StageState, why: str) -> None:
    stage_state.status = "blocked"
    state.resume_phase = state.phase
    state.move("blocked", why)


def _pass(contract: Contract, state: RunState, record: StageState, root: Path) -> None:
    record.status = "passed"
    record.evidence_sha256 = evidence_digest(record.last)
    record.worktree = worktree_digest(root)
    state.refresh_fingerprint(contract)


def grade(root: Path, contract_id: str, stage_id: str) -> StageOutcome:
    """Run a mechanical stage's command; its exit code decides."""
    return _locked(root, contract_id, lambda: _grade(root, contract_id, stage_id))


def _grade(root: Path, contract_id: str, stage_id: str) -> StageOutcome:
    contract, state = open_run(root, contract_id)
    stage = contract.stage(stage_id)
    if stage.type != "mechanical":
        how = "stage-input / stage-complete" if stage.type == "executor" else "judge"
        raise InputError(f"stage '{stage_id}' is a {stage.type} stage: argus contract {how}")
    drop_stale(contract, state, worktree_digest(root))
    _ready(contract, state, stage)
    mine = state.stages[stage.id]
    budget = contract.budget
    if budget.max_attempts_per_stage == 0 or budget.max_total_attempts == 0:
        # A zero budget is an explicit no-op: nothing runs, nothing is spent, nothing changes.
        save_state(root, state)
        return StageOutcome(stage.id, "refused", "the attempt budget is 0: nothing runs")
    if mine.attempts >= budget.max_attempts_per_stage or (
        state.total_attempts >= budget.max_total_attempts
    ):
        _block(state, mine, f"attempt budget spent on '{stage.id}'")
        save_state(root, state)
        return StageOutcome(stage.id, "blocked", state.reason)
    assert stage.command is not None
    mine.attempts += 1
    state.total_attempts += 1
    log = state_dir(root, contract.id) / "logs" / f"{stage.id}-{mine.attempts}.log"
    mine.last = _run_command(stage.command, root, contract.timeout, log)
    if mine.last["exit_code"] == 0:
        _pass(contract, state, mine, root)
        outcome = StageOutcome(stage.id, "passed", f"exit 0 in {mine.last['seconds']}s")
    else:
        mine.status = "failed"
        state.mechanical_failures += 1
        shown = mine.last["note"] or f"exit {mine.last['exit_code']}"
        outcome = StageOutcome(stage.id, "failed", str(shown))
        limit = budget.max_mechanical_failures
        if mine.attempts >= budget.max_attempts_per_stage or (
            state.total_attempts >= budget.max_total_attempts
        ):
            _block(state, mine, f"'{stage.id}' failed with its attempt budget spent")
            outcome = StageOutcome(stage.id, "blocked", state.reason)
        elif limit is not None and state.mechanical_failures >= limit:
            _block(state, mine, f"failurePolicy: {limit} failed mechanical run(s)")
            outcome = StageOutcome(stage.id, "blocked", state.reason)
    save_state(root, state)
    return outcome


def _run_command(command: str, root: Path, timeout: float, log: Path) -> dict[str, object]:
    """Run ``command`` confined (argus.confine: it may write in the repository but its
    protected set, the contract's state in ``.argus/`` included), in its own process group;
    all of it is stopped on timeout, and nothing it started outlives it."""
    confinement = detect()
    try:
        ran = run_confined(
            command,
            workspace("a mechanical stage", root),
            cwd=root,
            timeout=timeout,
            log_path=log,
            confinement=confinement,
        )
    except OSError as exc:
        ran_note = f"cannot start: {exc.strerror or exc}"
        return {
            "command": command,
            "exit_code": -1,
            "note": ran_note,
            "seconds": 0.0,
            "output_tail": "",
            "output_sha256": "",
            "finished_at": now(),
        }
    output = log.read_bytes() if log.is_file() else b""
    tail = "\n".join(clip(line, 300) for line in read_tail(log).splitlines()[-TAIL_LINES:])
    return {
        "command": command,
        "exit_code": ran.exit_code if ran.exit_code is not None else -1,
        "note": f"timed out after {timeout:g}s"
        if ran.timed_out
        else _missing_note(ran.exit_code, log),
        "seconds": round(ran.seconds, 2),
        "output_tail": tail,
        "output_sha256": hashlib.sha256(output).hexdigest(),
        "finished_at": now(),
        "protection": confinement.protection,
    }


def _missing_note(code: int | None, log: Path) -> str:
    """Why the line failed when a program in it does not exist (the shell's "not found")."""
    missing = shell_not_found(read_tail(log)) if code == NOT_FOUND_EXIT else None
    return (
        "" if missing is None else f"program {missing!r} not found; install it or fix the command"
    )


def judge(root: Path, contract_id: str, stage_id: str, expect: str | None = None) -> StageOutcome:
    """Dispatch a reviewer stage's grader once; only its GO with evidence passes the stage.
    ``expect`` ("stage-verifier" or "loop-grader"): refuse a stage of the other role."""
    return _locked(root, contract_id, lambda: _judge(root, contract_id, stage_id, expect))


def _judge(root: Path, contract_id: str, stage_id: str, expect: str | None) -> StageOutcome:
    contract, state = open_run(root, contract_id)
    stage = contract.stage(stage_id)
    role = "stage-verifier" if stage.type == "judgment" else stage.type
    if expect is not None and role != expect:
        raise InputError(f"stage '{stage_id}' is a {stage.type} stage, not a {expect} stage")
    if not stage.graded or stage.grader is None:
        raise InputError(f"stage '{stage_id}' is a {stage.type} stage; judge grades a reviewer's")
    before = worktree_digest(root)
    drop_stale(contract, state, before)
    _ready(contract, state, stage)
    # Independence is checked again at every dispatch: a program may have appeared since.
    argv = check_grader(contract, stage, root, state.executor_model, _implementer(root))
    mine = state.stages[stage.id]
    rounds, dispatches = stage.grader.rounds, contract.budget.max_judgment_dispatches
    if dispatches == 0:
        save_state(root, state)
        return StageOutcome(stage.id, "refused", "the judgment budget is 0: nothing is asked")
    if mine.attempts >= rounds:
        # The stage's rounds are spent (a run from before rounds blocked, or a last round
        # that brought no verdict): escalate with a blocker naming the stage.
        _block(state, mine, _rounds_spent(stage.id, rounds, mine.last))
        save_state(root, state)
        return StageOutcome(stage.id, "blocked", state.reason)
    if state.judgment_dispatches >= dispatches:
        # The run's judgment budget refuses this dispatch; the run stays open (the Stop hook
        # keeps holding the session until a person resumes with a new contract, pauses or aborts).
        spent = f"{dispatches} judgment dispatch(es) for the run"
        save_state(root, state)
        return StageOutcome(stage.id, "refused", f"grading budget spent: {spent}")
    mine.attempts += 1
    state.judgment_dispatches += 1
    save_state(root, state)  # the dispatch counts even if the grader never comes back
    verdict = ask_grader(root, contract, state, stage, argv)
    mine.last = verdict.to_json()
    if verdict.go and worktree_digest(root) != before:
        mine.status = "pending"
        outcome = StageOutcome(stage.id, "pending", "the working tree changed while grading")
    elif verdict.go:
        _pass(contract, state, mine, root)
        outcome = StageOutcome(stage.id, "passed", verdict.evidence)
    elif verdict.verdict == "NO-GO":
        mine.status = "failed"
        outcome = StageOutcome(stage.id, "failed", verdict.evidence)
        if mine.attempts >= rounds:  # the last round said NO-GO: escalate, do not wait
            _block(state, mine, _rounds_spent(stage.id, rounds, mine.last))
            outcome = StageOutcome(stage.id, "blocked", state.reason)
    else:
        mine.status = "pending"
        outcome = StageOutcome(stage.id, "pending", f"no verdict: {verdict.error}")
    save_state(root, state)
    return outcome


def _rounds_spent(stage_id: str, rounds: int, last: dict[str, object]) -> str:
    """The blocker for a stage whose grading rounds ended without a GO (names the stage)."""
    said = "NO-GO" if last.get("verdict") == "NO-GO" else "no verdict"
    return (
        f"grading rounds spent on '{stage_id}': {rounds} round(s) without a GO "
        f"(the last: {said}); a person amends the contract (retarget) or aborts the run"
    )


def _implementer(root: Path) -> str:
    from argus.config import load_config

    return load_config(root).implementer.command


def complete(root: Path, contract_id: str) -> Path:
    """Close the run once every required stage passed; the closure summary's path
    (argus.contract._completion decides)."""
    return _locked(root, contract_id, lambda: close(root, *open_run(root, contract_id)))
