"""`argus schema gate-result` accepts exactly what Argus writes: every status a gate can end
in, the a11y_ids block with its status, and the details block (the runner's, and the loop's
sensor-failure one); and it refuses details that no writer produces."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from argus.gates import _registry as registry
from argus.gates._registry import GatePlugin
from argus.gates.base import Finding, GateInputs, GateOutcome, GateStatus
from argus.gates.runner import run_gates
from argus.schemas import validate, validate_errors
from tests.gates.test_runner import clean

MakeInputs = Callable[..., GateInputs]


def forced(name: str, status: GateStatus, data: dict[str, Any] | None = None):
    def gate(inputs: GateInputs) -> GateOutcome:
        finding = Finding("#x", "contrast", "1.2:1", ">= 4.5:1", "text on a background")
        findings = (finding,) if status in (GateStatus.FAIL, GateStatus.DIFF) else ()
        return GateOutcome(name, status, f"forced {status.value}", findings, data or {})

    return gate


NAMES = ["token_contrast", "axe", "console", "rendered_contrast", "token_compliance", "snapshot"]


@pytest.mark.parametrize("status", list(GateStatus))
def test_every_status_the_runner_writes_validates(
    habits_inputs: MakeInputs, monkeypatch: pytest.MonkeyPatch, status: GateStatus
) -> None:
    # Only the snapshot gate says diff or new, and it never says fail.
    only_snapshot = status in (GateStatus.DIFF, GateStatus.NEW)
    names = [n for n in NAMES if only_snapshot is (n == "snapshot")]
    if status is not GateStatus.FAIL and status is not GateStatus.DIFF:
        names.append("snapshot")
    for name in names:
        monkeypatch.setitem(registry._registry(), name, GatePlugin(name, forced(name, status)))
    run = run_gates(clean(habits_inputs), [*names, "a11y_ids"], record=False)
    validate("gate-result", dict(run.result), source="gate-result.json")
    for name in names:
        assert run.result["gates"][name] == status.value
        assert run.result["details"][name]["status"] == status.value


@pytest.mark.parametrize("status", [GateStatus.PASS, GateStatus.FAIL])
def test_the_a11y_ids_block_carries_its_status(
    habits_inputs: MakeInputs, monkeypatch: pytest.MonkeyPatch, status: GateStatus
) -> None:
    counts = {"expected": 2, "present": 2 if status is GateStatus.PASS else 1}
    counts["missing"] = [] if status is GateStatus.PASS else ["habits.title"]
    monkeypatch.setitem(
        registry._registry(), "a11y_ids", GatePlugin("a11y_ids", forced("a11y_ids", status, counts))
    )
    run = run_gates(clean(habits_inputs), ["a11y_ids"], record=False)
    validate("gate-result", dict(run.result), source="gate-result.json")
    assert run.result["gates"]["a11y_ids"] == {**counts, "status": status.value}


def minimal(details: dict[str, Any]) -> dict[str, Any]:
    return {
        "feature": "habits",
        "target": "list",
        "gates": {"build": "fail"},
        "all_green": False,
        "details": details,
    }


def test_the_loops_sensor_failure_details_validate() -> None:
    summary = "the view could not be rendered, so no gate ran: no browser"
    result = {**minimal({"render": {"status": "fail", "summary": summary}})}
    result["gates"] = {"render": "fail"}
    assert validate_errors("gate-result", result) == []


@pytest.mark.parametrize(
    "detail",
    [
        {"status": "fail"},  # no summary
        {"status": "green", "summary": "an unknown status"},
        {"status": "fail", "summary": "x", "verdict": "an unknown key"},
        {"status": "fail", "summary": "x", "findings": [{"element": "#x"}]},
        {
            "status": "fail",
            "summary": "x",
            "findings": [{**Finding("#x", "p", "v").to_json(), "z": 1}],
        },
        {"status": "pass", "summary": "x", "duration_ms": -1},
        {"status": "pass", "summary": "x", "data": []},
    ],
)
def test_details_no_writer_produces_are_refused(detail: dict[str, Any]) -> None:
    assert validate_errors("gate-result", minimal({"build": detail}))


def test_a_gate_result_valid_under_the_seed_is_valid_here() -> None:
    seed = {
        "feature": "habits",
        "target": "list",
        "state": "populated",
        "appearance": "light",
        "gates": {
            "build": "pass",
            "lint": "skip",
            "type_check": "fail",
            "token_contrast": "pass",
            "token_compliance": "skip",
            "snapshot": "diff",
            "flows": "skip",
            "a11y_ids": {"expected": 3, "present": 2, "missing": ["habits.add"]},
        },
        "all_green": False,
    }
    assert validate_errors("gate-result", seed) == []
