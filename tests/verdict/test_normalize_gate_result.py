"""normalize_gate_result: all_green is derived from the statuses, never taken as claimed."""

from __future__ import annotations

from typing import Any

import pytest

from argus.errors import InputError
from argus.schemas import validate_errors
from argus.verdict import normalize_gate_result
from tests.verdict.helpers import gate_result

IDS_OK = {"expected": 3, "present": 3, "missing": []}
IDS_MISSING = {"expected": 3, "present": 2, "missing": ["complete-button"]}

CASES = [
    ("all pass", {"token_contrast": "pass", "axe": "pass"}, True, ()),
    ("skips ignored", {"token_contrast": "pass", "build": "skip", "flows": "skip"}, True, ()),
    ("every gate skipped is never green", {"build": "skip", "flows": "skip"}, False, ()),
    ("one fail", {"token_contrast": "fail", "axe": "pass"}, False, ("token_contrast",)),
    ("error is never green", {"console": "error", "axe": "pass"}, False, ("console",)),
    ("snapshot diff", {"snapshot": "diff", "axe": "pass"}, False, ("snapshot",)),
    ("snapshot pass", {"snapshot": "pass"}, True, ()),
    ("ids all present", {"a11y_ids": IDS_OK}, True, ()),
    ("ids missing", {"a11y_ids": IDS_MISSING}, False, ("a11y_ids",)),
    (
        "ids missing but claims pass",
        {"a11y_ids": {**IDS_MISSING, "status": "pass"}},
        False,
        ("a11y_ids",),
    ),
    (
        "fewer present than expected, none listed",
        {"a11y_ids": {"expected": 3, "present": 1, "missing": []}},
        False,
        ("a11y_ids",),
    ),
    (
        "ids reported failed stays failed",
        {"a11y_ids": {**IDS_OK, "status": "fail"}},
        False,
        ("a11y_ids",),
    ),
    ("ids as a status word", {"a11y_ids": "fail"}, False, ("a11y_ids",)),
    (
        "several red",
        {"lint": "fail", "build": "error", "snapshot": "diff", "axe": "pass"},
        False,
        ("lint", "build", "snapshot"),
    ),
]


@pytest.mark.parametrize(("label", "gates", "green", "red"), CASES, ids=[c[0] for c in CASES])
def test_all_green_is_derived(
    label: str, gates: dict[str, Any], green: bool, red: tuple[str, ...]
) -> None:
    for claim in (True, False):
        result = normalize_gate_result(gate_result(gates, all_green=claim))
        assert result.all_green is green
        assert result.red_gates == red
        out = result.to_json()
        assert out["all_green"] is green
        assert validate_errors("gate-result", out) == []
        corrected = [c.field for c in result.corrections if c.field == "all_green"]
        assert corrected == ([] if claim is green else ["all_green"])


def test_a11y_block_gets_the_derived_status() -> None:
    result = normalize_gate_result(gate_result({"a11y_ids": {**IDS_MISSING, "status": "pass"}}))
    assert result.to_json()["gates"]["a11y_ids"]["status"] == "fail"
    assert "gates.a11y_ids.status" in [c.field for c in result.corrections]


def test_details_and_view_pass_through() -> None:
    raw = gate_result(
        {"axe": "fail"},
        state="populated",
        appearance="dark",
        iteration=3,
        details={"axe": {"summary": "2 serious violations"}},
    )
    out = normalize_gate_result(raw).to_json()
    assert out["details"] == {"axe": {"summary": "2 serious violations"}}
    assert (out["state"], out["appearance"], out["iteration"]) == ("populated", "dark", 3)


INVALID = [
    ("not an object", [], "expected a JSON object"),
    ("no gates", {"feature": "habits", "target": "list"}, "'gates' must be an object"),
    ("no feature", {"target": "list", "gates": {"axe": "pass"}}, "'feature'"),
    ("no gate ran", gate_result({}), "'gates' is empty"),
    ("unknown status", gate_result({"axe": "green"}), "green"),
    ("diff outside snapshot", gate_result({"axe": "diff"}), "diff"),
    # Any plug-in's gate may report (docs/plugins.md), but only under a plug-in's name.
    ("not a gate name", gate_result({"Vibes!": "pass"}), "Vibes!"),
    ("object for a plain gate", gate_result({"axe": {"status": "pass"}}), "status word"),
    ("ids block without missing", gate_result({"a11y_ids": {"expected": 1}}), "'missing'"),
]


@pytest.mark.parametrize(("label", "raw", "needle"), INVALID, ids=[c[0] for c in INVALID])
def test_invalid_gate_results(label: str, raw: Any, needle: str) -> None:
    with pytest.raises(InputError) as info:
        normalize_gate_result(raw, source="g.json")
    message = str(info.value)
    assert message.startswith("g.json: invalid gate result") and needle in message
    assert "\n" not in message


def test_claims_are_corrected_exactly_and_never_kept() -> None:
    raw = gate_result(
        {"axe": "fail", "a11y_ids": {**IDS_MISSING, "status": "pass"}},
        all_green=True,
        iteration=2,
    )
    result = normalize_gate_result(raw)
    assert [str(c) for c in result.corrections] == [
        "all_green: reported true, derived false",
        "gates.a11y_ids.status: reported pass, derived fail",
    ]
    assert result.other == {"iteration": 2}  # the derived keys are never carried as claimed
    assert result.to_json()["all_green"] is False


def test_a_claim_that_matches_is_no_correction() -> None:
    ids = {"expected": 3, "present": 3, "missing": [], "status": "fail"}
    result = normalize_gate_result(gate_result({"a11y_ids": ids}, all_green=False))
    assert result.corrections == () and result.all_green is False
    errored = normalize_gate_result(gate_result({"a11y_ids": {**IDS_OK, "status": "error"}}))
    assert errored.gates[0].status == "error" and errored.all_green is False


@pytest.mark.parametrize(
    "ids",
    [
        {"expected": 3, "missing": []},
        {"present": 3, "missing": []},
        {"expected": 3, "present": 3},
        {"expected": 3, "present": 3, "missing": "x"},
        {"expected": "3", "present": 3, "missing": []},
    ],
)
def test_an_ids_block_without_its_three_facts_is_refused(ids: dict[str, Any]) -> None:
    with pytest.raises(InputError):
        normalize_gate_result(gate_result({"a11y_ids": ids}))


@pytest.mark.parametrize("key", ["feature", "target"])
def test_feature_and_target_are_required(key: str) -> None:
    raw = gate_result({"axe": "pass"})
    del raw[key]
    with pytest.raises(InputError):
        normalize_gate_result(raw)


def test_a_claimed_skip_with_every_id_present_stays_a_skip() -> None:
    result = normalize_gate_result(gate_result({"a11y_ids": {**IDS_OK, "status": "skip"}}))
    assert result.gates[0].status == "skip" and result.all_green is False
