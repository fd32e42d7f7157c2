"""Interaction steps in spec.json: schema, lint and the model built from them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from argus.config import load_config
from argus.errors import InputError
from argus.sense.views import plan_view
from argus.spec import View, lint_spec, load_spec
from argus.spec.steps import Locator, Step
from tests.spec.project import make_project, spec_data

FEATURE = Path("argus/specs/habits")

OPEN_DIALOG: list[dict[str, Any]] = [
    {"action": "click", "locator": {"role": "button", "name": "Add habit"}},
    {"action": "fill", "locator": {"testid": "habits.form.name"}, "value": "Stretch"},
    {"action": "press", "key": "Tab"},
    {"action": "wait_for", "locator": {"css": "#add-form"}, "timeout_s": 2},
    {"action": "wait_for_text", "text": "Save"},
    {"action": "select", "locator": {"text": "Cadence", "exact": True}, "values": ["a", "b"]},
    {"action": "set_viewport", "width": 390, "height": 844},
    {"action": "emulate", "reduced_motion": "no-preference", "color_scheme": "dark"},
]


def lint_steps(tmp_path: Path, steps: dict[str, Any], adapter: str = "web") -> list[str]:
    data = spec_data()
    data["adapter"] = adapter
    data["targets"][0]["steps"] = steps
    path = make_project(tmp_path / "repo", data)
    return [str(issue) for issue in lint_spec(path).errors]


def test_valid_steps_lint_clean_and_load_into_the_model(tmp_path: Path) -> None:
    assert lint_steps(tmp_path, {"populated": OPEN_DIALOG}) == []
    spec = load_spec(tmp_path / "repo" / FEATURE / "spec.json")
    steps = spec.target("list").steps_for("populated")
    assert len(steps) == len(OPEN_DIALOG)
    assert steps[0] == Step("click", Locator(role="button", name="Add habit"))
    assert steps[1].value == "Stretch" and steps[1].locator == Locator(testid="habits.form.name")
    assert steps[2] == Step("press", key="Tab")
    assert steps[3].timeout_s == 2.0 and steps[0].timeout_s == 5.0
    assert steps[5].values == ("a", "b") and steps[5].locator == Locator(text="Cadence", exact=True)
    assert (steps[6].width, steps[6].height) == (390, 844)
    assert (steps[7].reduced_motion, steps[7].color_scheme) == ("no-preference", "dark")
    assert spec.target("list").steps_for("empty") == ()


def test_a_view_plan_carries_its_state_s_steps(tmp_path: Path) -> None:
    lint_steps(tmp_path, {"populated": OPEN_DIALOG[:1]})
    root = tmp_path / "repo"
    spec = load_spec(root / FEATURE / "spec.json")
    config = load_config(root)
    populated = plan_view(spec, View("habits", "list", "populated", "light"), config, base_url="x")
    empty = plan_view(spec, View("habits", "list", "empty", "light"), config, base_url="x")
    assert [s.action for s in populated.steps] == ["click"]
    assert empty.steps == ()


AT = "$.targets[0].steps.populated[0]"


@pytest.mark.parametrize(
    ("step", "expected"),
    [
        ({"action": "click"}, f"{AT}: 'locator' is a required property"),
        ({"action": "fill", "locator": {"css": "input"}}, f"{AT}: 'value' is a required property"),
        ({"action": "press"}, f"{AT}: 'key' is a required property"),
        ({"action": "wait_for_text"}, f"{AT}: 'text' is a required property"),
        ({"action": "set_viewport", "width": 10}, f"{AT}: 'height' is a required property"),
        ({"action": "emulate"}, f"{AT}: {{'action': 'emulate'}} is not valid"),
        ({"action": "select", "locator": {"css": "s"}}, f"{AT}: {{'action': 'select'"),
        ({"action": "drag", "locator": {"css": "a"}}, f"{AT}.action: 'drag' is not one of"),
        ({"action": "click", "locator": {}}, f"{AT}.locator: {{}} is not valid"),
        ({"action": "click", "locator": {"css": "a", "testid": "b"}}, f"{AT}.locator: {{'css'"),
        (
            {"action": "click", "locator": {"testid": "b", "name": "x"}},
            f"{AT}.locator: 'role' is a dependency of 'name'",
        ),
        ({"action": "click", "locator": {"css": "a"}, "timeout_s": 0}, f"{AT}.timeout_s: 0 is"),
        (
            {"action": "click", "locator": {"css": "a"}, "sleep": 1},
            f"{AT}: Additional properties are not allowed ('sleep' was unexpected)",
        ),
    ],
)
def test_a_malformed_step_is_a_schema_error_at_its_path(
    tmp_path: Path, step: dict[str, Any], expected: str
) -> None:
    errors = lint_steps(tmp_path, {"populated": [step]})
    assert len(errors) == 1, errors
    assert errors[0].startswith(expected), errors


def test_an_empty_step_list_is_refused(tmp_path: Path) -> None:
    errors = lint_steps(tmp_path, {"populated": []})
    assert errors and errors[0].startswith("$.targets[0].steps.populated:")


def test_steps_for_an_unknown_state_are_a_lint_error(tmp_path: Path) -> None:
    errors = lint_steps(tmp_path, {"adding": OPEN_DIALOG[:1]})
    assert errors == [
        "$.targets[0].steps: steps for 'adding', which is not a state of target 'list' "
        "(states: populated, empty)"
    ]


def test_steps_need_the_web_sensor(tmp_path: Path) -> None:
    errors = lint_steps(tmp_path, {"populated": OPEN_DIALOG[:1]}, adapter="ios")
    assert len(errors) == 1 and errors[0].startswith("$.targets[0].steps: steps run only in")


def test_loading_a_spec_with_bad_steps_is_bad_input(tmp_path: Path) -> None:
    lint_steps(tmp_path, {"adding": OPEN_DIALOG[:1]})
    with pytest.raises(InputError, match=r"steps for 'adding'"):
        load_spec(tmp_path / "repo" / FEATURE / "spec.json")


def test_step_descriptions_name_the_action_and_its_element() -> None:
    assert Step("click", Locator(role="button", name="Add habit")).describe() == (
        "click button 'Add habit'"
    )
    assert Step("press", key="Tab").describe() == "press Tab"
    assert Step("fill", Locator(testid="x"), value="secret").describe() == "fill testid 'x'"
    assert Step("wait_for_text", text="Saved").describe() == "wait_for_text 'Saved'"
    assert Step("set_viewport", width=3, height=4).describe() == "set_viewport 3x4"
    assert Step("hover", Locator(css=".a")).describe() == "hover css '.a'"
    assert Step("check", Locator(text="Daily")).describe() == "check text 'Daily'"
