"""The spec's ``inert`` controls: a list for every state or a list per state, checked by lint
(states the target has, selectors the judge can match) and narrowed to the view's contract."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from argus.errors import InputError
from argus.judge.assemble import view_contract
from argus.spec import View, load_spec
from argus.spec.lint import lint_spec
from argus.spec.selectors import names_element
from tests.support.habits import HABITS_SPEC, copy_habits


def _spec(tmp_path: Path, inert: Any) -> Path:
    root = copy_habits(tmp_path)
    path = root / HABITS_SPEC
    data = json.loads(path.read_text())
    data["targets"][0]["inert"] = inert
    path.write_text(json.dumps(data))
    return path


def test_a_list_holds_in_every_state_and_an_object_per_state(tmp_path: Path) -> None:
    path = _spec(tmp_path / "a", ["#legend"])
    spec = load_spec(path)
    assert lint_spec(path).valid
    for state in ("populated", "empty"):
        assert view_contract(spec, View("habits", "list", state, "light"))["inert"] == ["#legend"]
    path = _spec(tmp_path / "b", {"populated": ["#legend", "span"]})
    spec = load_spec(path)
    assert lint_spec(path).valid
    contract = view_contract(spec, View("habits", "list", "populated", "light"))
    assert contract["inert"] == ["#legend", "span"]
    assert view_contract(spec, View("habits", "list", "empty", "light"))["inert"] == []


@pytest.mark.parametrize(
    ("inert", "message"),
    [
        ({"nosuch": ["#x"]}, "inert controls for 'nosuch', which is not a state"),
        (["div > button"], "'div > button' is not a selector the judge can match"),
        ({"populated": [".remove"]}, "'.remove' is not a selector"),
    ],
)
def test_lint_refuses_an_unknown_state_or_a_selector_the_judge_cannot_match(
    tmp_path: Path, inert: Any, message: str
) -> None:
    report = lint_spec(_spec(tmp_path, inert))
    assert not report.valid
    assert any(message in issue.message for issue in report.errors), report.errors


def test_lint_refuses_what_the_schema_does_not_allow(tmp_path: Path) -> None:
    assert not lint_spec(_spec(tmp_path, "#x")).valid
    assert not lint_spec(_spec(tmp_path / "2", [""])).valid


@pytest.mark.parametrize(
    ("selector", "named"),
    [
        ("#a", True), ("#b", False), ("[data-testid=t.1]", True), ('[data-testid="t.2"]', False),
        ("button", True), ("BUTTON", True), ("a", True), ("t", False),
    ],
)  # fmt: skip
def test_names_element_reads_the_spec_selector_forms(selector: str, named: bool) -> None:
    assert names_element(selector, {"id": "a", "testid": "t.1", "tag": "button"}) is named


def test_names_element_refuses_other_css() -> None:
    with pytest.raises(InputError, match="unsupported"):
        names_element(".remove", {"id": "a", "testid": "", "tag": "button"})
