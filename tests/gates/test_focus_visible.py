"""focus_visible on hand-written focus walks (the browser walk is in test_habits_browser)."""

from __future__ import annotations

import json
import re
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


def test_the_outcome_is_named_and_counts_every_stop_in_its_summary() -> None:
    walk = {"stops": [stop("a", 420), stop("b", 0), stop("c", None), stop("d", 3)]}
    failed = check_focus_visible(walk)
    assert (failed.name, failed.status) == ("focus_visible", GateStatus.FAIL)
    # visible, compared, off screen
    assert [int(n) for n in re.findall(r"\d+", failed.summary)] == [2, 3, 1]
    passed = check_focus_visible({"stops": [stop("a", 1), stop("b", 2)]})
    assert (passed.name, passed.status) == ("focus_visible", GateStatus.PASS)
    assert [int(n) for n in re.findall(r"\d+", passed.summary)] == [2, 2]
    assert passed.data == {"stops": 2, "compared": 2, "not_compared": 0, "invisible": 0}


def test_a_skip_says_whether_nothing_takes_focus_or_nothing_was_on_screen() -> None:
    none = check_focus_visible({"stops": []})
    offscreen = check_focus_visible({"stops": [stop("a", None)]})
    assert (none.name, none.status) == ("focus_visible", GateStatus.SKIP)
    assert (offscreen.name, offscreen.status) == ("focus_visible", GateStatus.SKIP)
    assert none.data == {"stops": 0, "compared": 0, "not_compared": 0, "invisible": 0}
    assert offscreen.data == {"stops": 1, "compared": 0, "not_compared": 1, "invisible": 0}
    assert "on screen" in offscreen.summary and "on screen" not in none.summary
    assert none.findings == () and offscreen.findings == ()


@pytest.mark.parametrize("changed", [None, True, False, -1, 2.5, "0", "12"])
def test_only_a_pixel_count_is_a_measurement(changed: object) -> None:
    outcome = check_focus_visible({"stops": [stop("a", 5), stop("b", changed), "junk"]})
    assert outcome.status is GateStatus.PASS
    assert outcome.data == {"stops": 3, "compared": 1, "not_compared": 2, "invisible": 0}


@pytest.mark.parametrize("walk", [{}, {"stops": "x"}, {"stops": {"a": 0}}, {"stops": None}])
def test_a_walk_without_a_list_of_stops_is_bad_input_naming_the_file(walk: dict) -> None:
    with pytest.raises(InputError, match=r"runs/v1/focus\.json"):
        check_focus_visible(walk, "runs/v1/focus.json")


def test_each_invisible_stop_is_named_by_id_test_id_or_tag_and_place() -> None:
    by_id = {**stop("t", 0), "id": "save"}
    by_tag = {"tag": "a", "box": {"x": 4, "y": 90, "width": 10, "height": 10}, "changed_pixels": 0}
    bare = {"changed_pixels": 0}
    outcome = check_focus_visible({"stops": [by_id, stop("t", 0), by_tag, bare]})
    assert [f.element for f in outcome.findings] == [
        "#save",
        '[data-testid="t"]',
        "a at (4, 90)",
        "element at (None, None)",
    ]
    for finding in outcome.findings:
        assert finding.property and finding.value and finding.expected
        assert finding.element in finding.message


def test_findings_are_capped_at_50_but_every_invisible_stop_is_counted() -> None:
    outcome = check_focus_visible({"stops": [stop(f"s{i}", 0) for i in range(60)]})
    assert len(outcome.findings) == 50
    assert outcome.findings[-1].element == '[data-testid="s49"]'
    assert outcome.data["invisible"] == 60
    assert [int(n) for n in re.findall(r"\d+", outcome.summary)] == [0, 60]


def test_the_gate_reads_focus_json_and_names_it_when_it_is_broken(
    habits_inputs: Callable[..., GateInputs],
) -> None:
    inputs = habits_inputs()
    skipped = focus_visible_gate(inputs)
    assert (skipped.name, skipped.status, skipped.data) == ("focus_visible", GateStatus.SKIP, {})
    path = inputs.sensed.dir / "focus.json"
    path.write_text(json.dumps({"stops": [stop("a", 0)]}))
    judged = focus_visible_gate(inputs)
    assert (judged.name, judged.status) == ("focus_visible", GateStatus.FAIL)
    for broken in (b"{not json", b"[]", b'{"stops": 3}', b'{"stops": [], "x": "\xff"}'):
        path.write_bytes(broken)
        with pytest.raises(InputError) as caught:
            focus_visible_gate(inputs)
        assert str(path) in str(caught.value)


def test_a_bounded_walk_says_so_in_its_summary_and_data() -> None:
    bounded = {"elements": 120010, "max_elements": 5000, "stops": 2, "after": "scrolled"}
    walk = {"stops": [stop("a", 12), stop("b", None)], "bounded": bounded}
    outcome = check_focus_visible(walk)
    assert outcome.status is GateStatus.PASS
    assert outcome.data["bounded"] == bounded
    # The bounded note follows the counts; it does not replace them.
    assert outcome.summary.startswith("1 of 1 focus stops visibly change (1 off screen, not")
    assert "; walk bounded on a page of 120010 elements" in outcome.summary
    assert "bounded" not in check_focus_visible({"stops": [stop("a", 12)]}).summary
