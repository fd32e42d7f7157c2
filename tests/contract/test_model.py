"""Loading a contract: the schema, the requires graph, and graders that are not the executor."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from argus.contract.model import check_independence, load_contract
from argus.errors import InputError
from tests.contract.conftest import write_contract


def edited(root: Path, edit: Any) -> Path:
    path = write_contract(root)
    data = json.loads(path.read_text())
    edit(data)
    path.write_text(json.dumps(data))
    return path


def test_a_contract_loads_with_defaults(repo: Path) -> None:
    contract = load_contract(write_contract(repo))
    assert [s.id for s in contract.stages] == ["check", "review"]
    assert contract.stages[0].required and contract.stages[1].requires == ("check",)
    assert (
        contract.budget.max_attempts_per_stage == 2 and contract.budget.max_judgment_dispatches == 4
    )
    assert len(contract.digest) == 64


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d["stages"][0].pop("command"), "command"),
        (lambda d: d["stages"][1].pop("grader"), "grader"),
        (lambda d: d["stages"][1].update(command="x"), "stages"),
        (lambda d: d.update(id="Not An Id"), "id"),
        (lambda d: d["stages"][1]["grader"].update(model="m"), "grader"),
    ],
)
def test_the_schema_refuses_malformed_stages(repo: Path, edit: Any, message: str) -> None:
    with pytest.raises(InputError, match=message) as info:
        load_contract(edited(repo, edit))
    assert "argus schema contract" in str(info.value)


def test_requires_must_name_stages_and_form_no_cycle(repo: Path) -> None:
    with pytest.raises(InputError, match="requires nope, which is no stage"):
        load_contract(edited(repo, lambda d: d["stages"][0].update(requires=["nope"])))
    with pytest.raises(
        InputError, match=r"cycle \((check -> review -> check|review -> check -> review)\)"
    ):
        load_contract(edited(repo, lambda d: d["stages"][0].update(requires=["review"])))
    with pytest.raises(InputError, match="used more than once"):
        load_contract(edited(repo, lambda d: d["stages"][1].update(id="check", requires=[])))


def test_a_grader_is_never_the_executor(repo: Path) -> None:
    path = edited(repo, lambda d: d["stages"][1].update(grader={"model": "openai/same"}))
    contract = load_contract(path)
    with pytest.raises(InputError, match="executor's own model"):
        check_independence(contract, repo, "openai/same", "")
    with pytest.raises(InputError, match="executor's model is unknown"):
        check_independence(contract, repo, "", "")
    check_independence(contract, repo, "anthropic/other", "")
    spaced = edited(repo, lambda d: d["stages"][1].update(grader={"command": "claude  -p"}))
    with pytest.raises(InputError, match="implementer's own command"):
        check_independence(load_contract(spaced), repo, "", "claude -p")


def test_a_grader_the_executor_could_rewrite_is_refused(repo: Path) -> None:
    (repo / "grade.py").write_text("print('GO')")
    inside = edited(repo, lambda d: d["stages"][1].update(grader={"command": "python3 grade.py"}))
    with pytest.raises(InputError, match=r"grade\.py.* inside the repository"):
        check_independence(load_contract(inside), repo, "", "")
    check_independence(load_contract(write_contract(repo)), repo, "", "")  # grader outside
