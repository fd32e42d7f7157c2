"""functional_correctness checks the keyboard's path a state's focus_order names."""

from __future__ import annotations

from typing import Any

import pytest

from tests.judge.conftest import PacketFactory
from tests.judge.test_metric import good_page, measure

WANTED = {"focus_order": ["habits.form.name", "habits.form.save"]}
# Machine expectations only: no prose criteria the metric would leave unmeasured.
CONTRACT = {"expectations": WANTED, "component_contracts": []}


def walked(*ids: str | None) -> list[dict[str, str] | None]:
    return [None if i is None else {"id": "", "testid": i, "tag": "input"} for i in ids]


@pytest.mark.parametrize(
    ("focus", "score", "found"),
    [
        (
            walked("habits.form.name", "habits.form.save"),
            1,
            ["habits.form.name", "habits.form.save"],
        ),
        (walked("habits.form.name", "habits.add"), 0, ["habits.form.name", "habits.add"]),
        (walked(None, "habits.add"), 0, ["nothing", "habits.add"]),
    ],
)
def test_the_focus_order_is_measured_against_the_spec(
    make_packet: PacketFactory, focus: list[Any], score: float, found: list[str]
) -> None:
    probe = {**good_page(), "focus_order": focus}
    result = measure(
        make_packet(probe=probe, contract=CONTRACT, spec_md=False), "functional_correctness"
    )
    assert result.score == score
    assert result.numbers["focus_order"] == {"expected": WANTED["focus_order"], "found": found}


def test_a_focus_order_nobody_measured_is_not_passed(make_packet: PacketFactory) -> None:
    result = measure(
        make_packet(probe=good_page(), contract=CONTRACT, spec_md=False), "functional_correctness"
    )
    assert result.score == 0
    assert "focus order was not measured" in result.evidence
