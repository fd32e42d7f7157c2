"""The Stop hook: a session may not end while a contract it started is still open.

Claude Code runs a Stop hook when the agent is about to finish, with a JSON object on standard
input (``cwd``, ``session_id``, ``stop_hook_active`` ...). Printing
``{"decision": "block", "reason": "..."}`` keeps the session going and gives the agent the
reason as its next instruction. A run that is running or verifying with a required stage not
passed blocks; a paused, blocked, completed or aborted run does not (paused is a person's
decision; blocked waits on something outside the session, and says what).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from argus.contract.model import load_contract
from argus.contract.state import ACTIVE, load_state, started_runs
from argus.contract.worktree import worktree_digest
from argus.errors import ArgusError
from argus.spec.paths import find_repo_root


def hook_root(payload: Any, fallback: Path) -> Path:
    """The repository the session works in: from the event's cwd (walking up), else
    ``fallback``."""
    cwd = payload.get("cwd") if isinstance(payload, dict) else None
    start = Path(cwd) if isinstance(cwd, str) and cwd else fallback
    try:
        return find_repo_root(start)
    except ArgusError:
        return start


def _reason_for(root: Path, contract_id: str) -> str | None:
    state = load_state(root, contract_id)
    if state.phase not in ACTIVE:
        return None
    contract = load_contract(Path(state.contract_path))
    if contract.digest != state.contract_sha256 or not state.matches(contract):
        return (
            f"contract '{contract_id}' was edited after its run started; the run still holds "
            "the session (a person aborts it: `argus contract abort` in a terminal)"
        )
    stale = state.stale(worktree_digest(root))
    missing = state.missing(contract)
    if stale:
        missing = sorted(set(missing) | set(stale), key=[s.id for s in contract.stages].index)
    if not missing:
        return (
            f"contract '{contract.id}' passed every required stage: close it with "
            f"`argus contract complete {contract.id}`"
        )
    first = contract.stage(missing[0])
    verb = "grade" if first.type == "mechanical" else "judge"
    step = (
        f"`argus contract advance {contract.id} verifying`, then "
        if state.phase == "running"
        else ""
    )
    again = f" ({', '.join(stale)} passed on an earlier working tree)" if stale else ""
    return (
        f"contract '{contract.id}' is {state.phase} with required stage(s) not passed: "
        f"{', '.join(missing)}{again}. Finish the work, then {step}"
        f"`argus contract {verb} {contract.id} {first.id}`. Only a person may stop it early."
    )


def stop_decision(root: Path) -> dict[str, str] | None:
    """The block decision for the open contract runs under ``root``, or None to allow."""
    reasons = []
    for path in started_runs(root):
        try:
            reason = _reason_for(root, path.parent.name)
        except ArgusError as exc:
            # An unreadable run is still an open question: say so rather than wave it through.
            reason = f"contract run {path.parent.name} cannot be read ({exc})"
        if reason:
            reasons.append(reason)
    if not reasons:
        return None
    return {"decision": "block", "reason": " ".join(reasons)}


def run_stop_hook(stdin_text: str, fallback: Path) -> str:
    """What the hook prints: a block decision as JSON, or nothing. Never fails open: anything
    unexpected blocks, with what went wrong."""
    try:
        payload = json.loads(stdin_text) if stdin_text.strip() else {}
    except json.JSONDecodeError:
        payload = {}
    try:
        decision = stop_decision(hook_root(payload, fallback))
    except Exception as exc:  # the hook's last word must be a decision, never a traceback
        decision = {"decision": "block", "reason": f"argus hook stop failed: {exc}"}
    return json.dumps(decision) if decision else ""
