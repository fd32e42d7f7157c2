"""A state's own primary action (or none) and the hierarchy check's options, from spec.json to
the judge's contract: schema, loader, lint."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from argus.judge.assemble import view_contract
from argus.spec import View, load_spec
from tests.spec.test_lint import FEATURE, lint_with, target


def _states(data: dict[str, Any], root: Path) -> None:
    target(data)["primary_action"] = "habits.add"
    target(data)["primary_actions"] = {"empty": None, "populated": "habits.save"}
    target(data)["hierarchy"] = {"headings": ["#title"], "figures": ["[data-testid=kpi]", "td"]}


def test_a_states_primary_action_wins_and_null_means_none(tmp_path: Path) -> None:
    errors, root = lint_with(tmp_path, _states)
    assert errors == []
    spec = load_spec(root / FEATURE / "spec.json")
    populated = view_contract(spec, View("habits", "list", "populated", "light"))
    empty = view_contract(spec, View("habits", "list", "empty", "light"))
    assert (populated["primary_action"], populated["no_primary_action"]) == ("habits.save", False)
    assert (empty["primary_action"], empty["no_primary_action"]) == (None, True)
    assert populated["hierarchy"] == {
        "headings": ["#title"],
        "figures": ["[data-testid=kpi]", "td"],
    }


def test_a_state_without_an_entry_keeps_the_targets(tmp_path: Path) -> None:
    def only_empty(data: dict[str, Any], root: Path) -> None:
        target(data)["primary_action"] = "habits.add"
        target(data)["primary_actions"] = {"empty": None}

    _, root = lint_with(tmp_path, only_empty)
    spec = load_spec(root / FEATURE / "spec.json")
    contract = view_contract(spec, View("habits", "list", "populated", "light"))
    assert (contract["primary_action"], contract["no_primary_action"]) == ("habits.add", False)
    assert contract["hierarchy"] == {"headings": [], "figures": []}


def test_lint_names_a_primary_action_for_a_state_the_target_lacks(tmp_path: Path) -> None:
    def unknown(data: dict[str, Any], root: Path) -> None:
        target(data)["primary_actions"] = {"review": "habits.submit"}

    errors, _ = lint_with(tmp_path, unknown)
    assert errors == [
        "$.targets[0].primary_actions: primary action for 'review', which is not a state of "
        "target 'list' (states: populated, empty)"
    ]


def test_the_schema_takes_an_id_or_null_and_known_hierarchy_keys_only(tmp_path: Path) -> None:
    def number(data: dict[str, Any], root: Path) -> None:
        target(data)["primary_actions"] = {"empty": 3}

    def blank(data: dict[str, Any], root: Path) -> None:
        target(data)["primary_actions"] = {"empty": ""}

    def other_key(data: dict[str, Any], root: Path) -> None:
        target(data)["hierarchy"] = {"headlines": ["#title"]}

    for change, where in (
        (number, "$.targets[0].primary_actions.empty"),
        (blank, "$.targets[0].primary_actions.empty"),
        (other_key, "$.targets[0].hierarchy"),
    ):
        errors, _ = lint_with(tmp_path / where.rsplit(".", 1)[-1] / change.__name__, change)
        assert errors and all(e.startswith(where) for e in errors), errors
