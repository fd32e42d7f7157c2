"""``argus contract doctor``: every reason a run of a contract would be refused, before it starts.

It loads the contract (schema, requires graph, prompt digests), checks every grader against
the executor (model identity, or a program outside the repository; ``--grader-model`` stands
in for every model grader's model), that LiteLLM is installed for a model grader, and that no
run of the same id is open. Notes that are no refusal (no git tree to fingerprint, a budget of
0) are reported apart.
"""

from __future__ import annotations

import dataclasses
import importlib.util
from dataclasses import dataclass, field
from pathlib import Path

from argus.contract._worktree import worktree_digest
from argus.contract.model import Contract, check_grader, load_contract
from argus.contract.state import TERMINAL, load_state, state_dir
from argus.errors import ArgusError


@dataclass
class Diagnosis:
    contract: Contract | None = None
    refusals: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def diagnose(
    root: Path, path: Path, executor_model: str, executor_command: str, grader_model: str = ""
) -> Diagnosis:
    out = Diagnosis()
    try:
        contract = load_contract(path)
    except ArgusError as exc:
        out.refusals.append(str(exc))
        return out
    out.contract = contract
    from argus.contract import pins

    unpinned = pins.pin_problem(root, contract)
    if unpinned:
        out.refusals.append(unpinned)
    needs_litellm = False
    for stage in contract.stages:
        grader = stage.grader
        if grader is None:
            continue
        if grader.model and grader_model:
            grader = dataclasses.replace(grader, model=grader_model)
            stage = dataclasses.replace(stage, grader=grader)
        needs_litellm = needs_litellm or bool(grader.model)
        try:
            check_grader(contract, stage, root, executor_model, executor_command)
        except ArgusError as exc:
            out.refusals.append(str(exc))
    if needs_litellm and importlib.util.find_spec("litellm") is None:
        out.refusals.append("a model grader needs LiteLLM: pip install 'argus-ui[llm]'")
    if (state_dir(root, contract.id) / "state.json").is_file():
        try:
            phase = load_state(root, contract.id).phase
        except ArgusError as exc:
            out.refusals.append(str(exc))
        else:
            if phase not in TERMINAL:
                out.refusals.append(f"contract '{contract.id}' already has an open run ({phase})")
    if worktree_digest(root) is None:
        out.notes.append("not a git working tree: passes cannot go stale when files change")
    budget = contract.budget
    if budget.max_attempts_per_stage == 0 or budget.max_total_attempts == 0:
        out.notes.append("the mechanical budget is 0: grading is an explicit no-op")
    if budget.max_judgment_dispatches == 0:
        out.notes.append("the judgment budget is 0: no grader will be asked")
    return out
