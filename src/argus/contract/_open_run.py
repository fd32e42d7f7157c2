"""One open contract run as the hooks say it: why it holds the session and what comes next
(the Stop hook), or its status in one line (SessionStart). Imported by argus.contract.hook only
once a run is there, so a Stop with none open loads neither the run store nor the contract's
reader.
"""

from __future__ import annotations

from pathlib import Path

from argus.contract import _ledger as ledger
from argus.contract import pins
from argus.contract._proof import unproven
from argus.contract._worktree import worktree_digest
from argus.contract.model import load_contract
from argus.contract.state import ACTIVE, load_state, state_dir
from argus.contract.summary import SECTIONS, current_summary


def reason_for(root: Path, contract_id: str) -> str | None:
    """Why the open run ``contract_id`` under ``root`` holds the session, and what to do next;
    None when it does not (a finished run)."""
    state = load_state(root, contract_id)
    entries = ledger.check(root, state, state_dir(root, contract_id))  # state.json is only a view
    if state.phase == "blocked":
        return (
            f"contract '{contract_id}' is blocked ({state.reason}); it still holds the session: "
            f"a person resumes it, pauses it or aborts it in a terminal "
            f"(`argus contract pause {contract_id} --reason …`)"
        )
    if state.phase not in ACTIVE:
        return None
    contract = load_contract(Path(state.contract_path))
    if contract.digest != state.contract_sha256 or not state.matches(contract):
        return (
            f"contract '{contract_id}' was edited after its run started; the run still holds "
            "the session (a person aborts it: `argus contract abort` in a terminal)"
        )
    unpinned = pins.pin_problem(root, contract)
    if unpinned:
        return (
            f"contract '{contract_id}' cannot close: {unpinned}; the run holds the session "
            "until a person pins its contract or aborts the run"
        )
    tree = worktree_digest(root)
    reasons = unproven(contract, state.executor_model, entries, tree)
    missing = [r.split(" ", 1)[0] for r in reasons]
    stale = [r.split(" ", 1)[0] for r in reasons if r.endswith("earlier working tree")]
    if not missing:
        written, why = current_summary(root, state)
        if written is None:
            return (
                f"contract '{contract.id}' passed every required stage but closure-summary-missing "
                f"({why}): write it with `argus contract summary write {contract.id}` (sections "
                f"{', '.join(SECTIONS)} on standard input), then `argus contract complete "
                f"{contract.id}`"
            )
        return (
            f"contract '{contract.id}' passed every required stage: close it with "
            f"`argus contract complete {contract.id}`"
        )
    first = contract.stage(missing[0])
    verb = {"mechanical": "grade", "executor": "stage-input"}.get(first.type, "judge")
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


def briefing(root: Path, run_id: str) -> str | None:
    """The run ``run_id`` under ``root`` in one line for a new session; None when it is over."""
    state = load_state(root, run_id)
    if state.phase in ("completed", "aborted"):
        return None
    if state.phase == "paused":
        return (
            f"contract '{run_id}' is paused by a person ({state.reason or 'no reason given'}); "
            "do not resume it unless the person asks you to"
        )
    if state.phase == "blocked":
        return f"contract '{run_id}' is blocked ({state.reason}); a person decides what next"
    reason = reason_for(root, run_id)
    return reason or f"contract '{run_id}' is {state.phase}"
