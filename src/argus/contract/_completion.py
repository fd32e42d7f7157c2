"""Whether a contract run may close, and closing it: the deciding part of ``complete``.

A run completes only under a contract a person pinned (argus.contract.pins), only from
``verifying``, only on the working tree its passes were earned on (a
pass earned on another tree is reset to pending, and the run is not ready), only when the
ledger itself proves every required stage passed (argus.contract._proof, never state.json),
and only with a fresh closure summary. Then the run moves to ``completed`` and its closure
report (``summary.md``: the contract, the run, each stage's status, attempts, evidence digest
and working tree, then the executor's summary) is written beside the state.

``argus.contract.run`` opens the run and holds its lock around :func:`close`.
"""

from __future__ import annotations

from pathlib import Path

from argus.contract import _ledger as ledger
from argus.contract._proof import unproven
from argus.contract._worktree import worktree_digest
from argus.contract.model import Contract
from argus.contract.pins import require_pinned
from argus.contract.state import RunState, now, save_state, state_dir
from argus.contract.summary import require_summary
from argus.errors import ArgusError, InputError
from argus.io import atomic_write_text

SUMMARY = "summary.md"


class NotReady(ArgusError):
    """A determinate "not yet": required stages have not passed (exit 1, not bad input)."""

    exit_code = 1


def drop_stale(contract: Contract, state: RunState, current: str | None) -> list[str]:
    """Reset passes earned on another working tree; the stages that were reset."""
    stale = state.stale(current)
    for stage_id in stale:
        record = state.stages[stage_id]
        record.status = "pending"
        record.last = {**record.last, "stale": "the working tree changed after this pass"}
        record.evidence_sha256 = record.worktree = None
    if stale:
        state.refresh_fingerprint(contract)
        state.history.append({"at": now(), "stale": stale})
    return stale


def close(root: Path, contract: Contract, state: RunState) -> Path:
    """Complete the opened run ``state`` of ``contract``; the closure report's path. Raises
    InputError outside ``verifying`` or without a fresh summary, NotReady while a required
    stage is unproven or went stale (the reset is saved). ``state`` is the one ``open_run``
    checked against the run's ledger, under the run's lock held until this returns, so the
    ledger's records are read here, not checked against it again."""
    contract_id = contract.id
    require_pinned(root, contract)
    if state.phase != "verifying":
        raise InputError(f"contract '{contract_id}' is {state.phase}; it completes from verifying")
    current = worktree_digest(root)
    stale = drop_stale(contract, state, current)
    if stale:
        save_state(root, state)
        raise NotReady(
            f"contract '{contract_id}': the working tree changed after {', '.join(stale)} "
            "passed; grade them again"
        )
    entries = ledger.read_ledger(root, contract_id, state.run_id)
    missing = unproven(contract, state.executor_model, entries, current)
    if missing:
        raise NotReady(f"contract '{contract_id}' cannot complete: {'; '.join(missing)}")
    written = require_summary(root, state, "complete")
    state.move("completed", "every required stage passed")
    lines = [
        f"# {contract.name}",
        "",
        f"- contract: {contract.id} (sha256 {contract.digest})",
        f"- run: {state.run_id}",
        f"- fingerprint: {state.fingerprint}",
        f"- completed: {now()}",
        "",
        "| stage | type | status | attempts | evidence sha256 | working tree |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for stage in contract.stages:
        s = state.stages[stage.id]
        lines.append(
            f"| {stage.id} | {stage.type} | {s.status} | {s.attempts} | "
            f"{s.evidence_sha256 or ''} | {s.worktree or ''} |"
        )
    lines += ["", f"## The executor's closure summary ({written.name})", ""]
    lines += written.read_text("utf-8").splitlines()
    path = state_dir(root, contract.id) / SUMMARY
    atomic_write_text(path, "\n".join(lines) + "\n")
    save_state(root, state)
    return path
