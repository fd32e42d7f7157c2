"""focus_visible on hand-written focus walks (the browser walk is in test_habits_browser)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from argus.errors import InputError
from argus.gates.base import GateInputs, GateStatus
from argus.gates.focus_visible import check_focus_visible, focus_visible_gate


def stop(testid: str, changed: int | None) -> dict[str, Any]:
    box = {"x": 10, "y": 10, "width": 80, "height": 32}
    return {"id": "", "testid": testid, "tag": "button", "box": box, "changed_pixels": changed}


def test_a_stop_that_changes_nothing_fails() -> None:
    outcome = check_focus_visible({"stops": [stop("a", 420), stop("b", 0), stop("c", None)]})
    assert outcome.status is GateStatus.FAIL
    assert [f.element for f in outcome.findings] == ['[data-testid="b"]']
    assert outcome.data == {"stops": 3, "compared": 2, "not_compared": 1, "invisible": 1}


def test_every_stop_visible_passes() -> None:
    assert check_focus_visible({"stops": [stop("a", 12)]}).status is GateStatus.PASS


@pytest.mark.parametrize("walk", [{"stops": []}, {"stops": [stop("a", None)]}])
def test_nothing_compared_is_not_a_pass(walk: dict[str, Any]) -> None:
    assert check_focus_visible(walk).status is GateStatus.SKIP


def test_a_missing_walk_is_a_skip_and_a_broken_one_bad_input(
    habits_inputs: Callable[..., GateInputs],
) -> None:
    inputs = habits_inputs()
    outcome = focus_visible_gate(inputs)
    assert outcome.status is GateStatus.SKIP and "not measured" in outcome.summary
    (inputs.sensed.dir / "focus.json").write_text(json.dumps({"stops": "x"}))
    with pytest.raises(InputError, match="stops"):
        focus_visible_gate(inputs)
