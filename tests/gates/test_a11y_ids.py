"""a11y_ids: the outcome as the runner records it (name, findings, summary counts)."""

from __future__ import annotations

from collections.abc import Callable

from argus.gates.a11y_ids import a11y_ids_gate, check_a11y_ids
from argus.gates.base import GateInputs, GateStatus
from tests.gates.probes import el, page

PROBE = page(
    el("main", testid="habits.screen"),
    el("h1", parent=1, testid="habits.title", text="Habits"),
    el("li", parent=1, testid="row.habit.read"),
)


def test_every_outcome_is_named_a11y_ids() -> None:
    outcomes = [
        check_a11y_ids(PROBE, []),
        check_a11y_ids(PROBE, ["habits.screen"]),
        check_a11y_ids(PROBE, ["habits.add"]),
    ]
    assert [o.status for o in outcomes] == [GateStatus.SKIP, GateStatus.PASS, GateStatus.FAIL]
    assert {o.name for o in outcomes} == {"a11y_ids"}


def test_each_missing_id_is_one_finding_on_its_id() -> None:
    outcome = check_a11y_ids(PROBE, ["habits.add", "habits.screen", "row.task.*"])
    assert [(f.element, f.property, f.value) for f in outcome.findings] == [
        ("habits.add", "id", "missing"),
        ("row.task.*", "id", "missing"),
    ]
    for finding in outcome.findings:
        assert finding.expected  # what would satisfy it is said
        assert finding.element in finding.message


def test_the_summary_gives_the_counts_and_names_what_is_missing() -> None:
    failed = check_a11y_ids(PROBE, ["habits.add", "habits.screen", "row.task.*"])
    assert failed.summary.startswith("1/3 ")
    assert "habits.add" in failed.summary and "row.task.*" in failed.summary
    passed = check_a11y_ids(PROBE, ["habits.screen", "row.habit.*"])
    assert passed.summary.startswith("2/2 ")
    assert "missing" not in passed.summary


def test_the_gate_checks_the_targets_contract_against_the_sensed_probe(
    habits_inputs: Callable[..., GateInputs],
) -> None:
    # The Habits list target's contract: screen, title, summary, add, list, empty.
    ids = ["habits.screen", "habits.title", "habits.summary", "habits.add", "habits.list"]
    probe = page(*(el("div", testid=i) for i in ids))
    outcome = a11y_ids_gate(habits_inputs(probe=probe))
    assert (outcome.name, outcome.status) == ("a11y_ids", GateStatus.FAIL)
    assert outcome.data == {"expected": 6, "present": 5, "missing": ["habits.empty"]}
