"""Retargeting a run: a new contract for a run that is not closed, keeping only what still holds.

The new contract keeps the run's id (its file may be another). A stage keeps its record only
when the old contract had a stage with the same id and type and that record passed on the
current working tree; every other stage starts pending. Budget counters carry over (a new
contract is no way to buy more attempts). The run keeps its phase; its history says what was
kept and what was reset.
"""

from __future__ import annotations

from pathlib import Path

from argus.contract._worktree import worktree_digest
from argus.contract.model import check_independence, load_contract
from argus.contract.pins import require_pinned
from argus.contract.run import _implementer, _locked, open_run
from argus.contract.state import TERMINAL, RunState, StageState, now, save_state
from argus.errors import InputError


def retarget(root: Path, contract_id: str, new_path: Path) -> tuple[RunState, list[str]]:
    """The run under its new contract, and the stages whose verdicts were kept."""
    new = load_contract(new_path)
    if new.id != contract_id:
        raise InputError(f"{new_path}: its id is '{new.id}'; a retarget keeps the run's id")
    require_pinned(root, new)

    def work() -> tuple[RunState, list[str]]:
        old, state = open_run(root, contract_id)
        if state.phase in TERMINAL:
            raise InputError(f"contract '{contract_id}' is {state.phase}; start a new run")
        check_independence(new, root, state.executor_model, _implementer(root))
        tree = worktree_digest(root)
        old_types = {s.id: s.type for s in old.stages}
        kept: list[str] = []
        stages: dict[str, StageState] = {}
        for stage in new.stages:
            record = state.stages.get(stage.id)
            if (
                record is not None
                and old_types.get(stage.id) == stage.type
                and record.status == "passed"
                and tree is not None
                and record.worktree == tree
            ):
                stages[stage.id] = record
                kept.append(stage.id)
            else:
                stages[stage.id] = StageState()
        state.stages = stages
        state.contract_path = str(new.path)
        state.contract_sha256 = new.digest
        state.refresh_fingerprint(new)
        state.history.append({"at": now(), "retarget": new.digest, "kept": kept})
        save_state(root, state)
        return state, kept

    return _locked(root, contract_id, work)
