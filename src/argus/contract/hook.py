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
from argus.errors import ArgusError


def hook_root(payload: Any, fallback: Path) -> Path:
    cwd = payload.get("cwd") if isinstance(payload, dict) else None
    return Path(cwd) if isinstance(cwd, str) and cwd else fallback


def stop_decision(root: Path) -> dict[str, str] | None:
    """The block decision for the open contract runs under ``root``, or None to allow."""
    reasons = []
    for path in started_runs(root):
        try:
            state = load_state(root, path.parent.name)
            if state.phase not in ACTIVE:
                continue
            contract = load_contract(Path(state.contract_path))
        except ArgusError as exc:
            # An unreadable run is still an open question: say so rather than wave it through.
            reasons.append(f"contract run {path.parent.name} cannot be read ({exc})")
            continue
        missing = state.missing(contract)
        if not missing:
            reasons.append(
                f"contract '{contract.id}' passed every required stage: close it with "
                f"`argus contract complete {contract.id}`"
            )
            continue
        first = contract.stage(missing[0])
        verb = "grade" if first.type == "mechanical" else "judge"
        step = (
            f"`argus contract advance {contract.id} verifying`, then "
            if state.phase == "running"
            else ""
        )
        reasons.append(
            f"contract '{contract.id}' is {state.phase} with required stage(s) not passed: "
            f"{', '.join(missing)}. Finish the work, then {step}"
            f"`argus contract {verb} {contract.id} {first.id}`. Only a person may stop it early "
            f"(`argus contract pause {contract.id} --reason ...`)."
        )
    if not reasons:
        return None
    return {"decision": "block", "reason": " ".join(reasons)}


def run_stop_hook(stdin_text: str, fallback: Path) -> str:
    """What the hook prints: a block decision as JSON, or nothing."""
    try:
        payload = json.loads(stdin_text) if stdin_text.strip() else {}
    except json.JSONDecodeError:
        payload = {}
    decision = stop_decision(hook_root(payload, fallback))
    return json.dumps(decision) if decision else ""
