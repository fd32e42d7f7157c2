from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from argus.errors import InputError
from argus.schemas import SCHEMA_NAMES, load_rubric, schema, validate, validate_errors
from argus.schemas.rubric import default_rubric_text
from tests.spec.project import spec_data

DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"


def verdict_data() -> dict[str, Any]:
    rubric = load_rubric(None)
    return {
        "iteration": 1,
        "feature": "habits",
        "target": "list",
        "dimensions": {
            name: {"score": 1, "anchor": dim.anchor, "evidence": "measured"}
            for name, dim in rubric.dimensions.items()
        },
        "all_pass": True,
        "failed_dimensions": [],
    }


def gate_data() -> dict[str, Any]:
    return {
        "feature": "habits",
        "target": "list",
        "gates": {
            "token_contrast": "pass",
            "a11y_ids": {"expected": 2, "present": 2, "missing": []},
            "snapshot": "skip",
        },
        "all_green": True,
        "details": {"token_contrast": {"summary": "4 pairs checked"}},
    }


def signoff_data() -> dict[str, Any]:
    return {
        "version": 1,
        "records": [
            {
                "feature": "habits",
                "target": "list",
                "state": "populated",
                "appearance": "light",
                "signed_off_at": "2025-01-02T03:04:05+00:00",
                "iterations": 3,
                "reference_source": "candidate",
                "final_verdict": {"all_pass": True, "dimensions": {}},
                "snapshot_baseline": "argus/specs/habits/__snapshots__/list-populated-light.png",
                "human_spotcheck": {"status": "pending"},
            }
        ],
    }


def loop_state_data() -> dict[str, Any]:
    return {
        "feature": "habits",
        "target": "list",
        "iteration": 2,
        "consecutive_passes": 1,
        "attempts": {"layout_spacing": 1},
        "frozen": [],
        "reference_source": "human",
        "last_outcome": "pass",
    }


def contract_data() -> dict[str, Any]:
    return {
        "id": "ship-it",
        "name": "Ship it",
        "stages": [
            {"id": "lint", "name": "Lint", "type": "mechanical", "command": "make lint"},
            {
                "id": "review",
                "name": "Review",
                "type": "judgment",
                "requires": ["lint"],
                "pass_criteria": "Does what spec.md asks.",
                "grader": {"model": "openai/o3"},
            },
        ],
    }


VALID = {
    "spec": spec_data,
    "rubric": lambda: json.loads(default_rubric_text()),
    "verdict": verdict_data,
    "gate-result": gate_data,
    "loop-state": loop_state_data,
    "signoff": signoff_data,
    "contract": contract_data,
}


@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_every_schema_is_a_valid_draft_2020_12_schema(name: str) -> None:
    document = schema(name)
    assert document["$schema"] == DRAFT_2020_12
    Draft202012Validator.check_schema(document)


@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_a_valid_example_of_every_schema_passes(name: str) -> None:
    assert validate_errors(name, VALID[name]()) == []


def test_schema_returns_a_copy_the_caller_may_change() -> None:
    schema("spec")["properties"].clear()
    assert "targets" in schema("spec")["properties"]


def test_unknown_schema_name_lists_the_known_ones() -> None:
    with pytest.raises(InputError) as info:
        schema("specs")
    assert "unknown schema 'specs'" in str(info.value)
    for name in SCHEMA_NAMES:
        assert name in str(info.value)


def _set(data: dict[str, Any], dotted: str, value: Any) -> dict[str, Any]:
    """Set a value at a dotted path ('targets.0.states'); the special value DELETE removes it."""
    keys = [int(k) if k.isdigit() else k for k in dotted.split(".")]
    node: Any = data
    for key in keys[:-1]:
        node = node[key]
    if value is DELETE:
        del node[keys[-1]]
    else:
        node[keys[-1]] = value
    return data


DELETE = object()

# (schema, field to change, new value, the expected first error "path: message")
INVALID_CASES = [
    ("spec", "targets.0.states", [], "$.targets[0].states: [] should be non-empty"),
    ("spec", "targets", [], "$.targets: [] should be non-empty"),
    ("spec", "feature", "Habits", "$.feature: 'Habits' does not match '^[a-z0-9][a-z0-9-]*$'"),
    ("spec", "adapter", DELETE, "$: 'adapter' is a required property"),
    ("spec", "colour", "red", "$: Additional properties are not allowed ('colour' was unexpected)"),
    ("spec", "targets.0.route", 3, "$.targets[0].route: 3 is not of type 'string'"),
    (
        "spec",
        "viewport",
        {"width": 0, "height": 800},
        "$.viewport.width: 0 is less than the minimum of 1",
    ),
    (
        "spec",
        "targets.0.full_page",
        "yes",
        "$.targets[0].full_page: 'yes' is not of type 'boolean'",
    ),
    (  # any plug-in's gate may be named; a name no gate can have may not
        "spec",
        "targets.0.gates",
        ["Contrast!"],
        "$.targets[0].gates[0]: 'Contrast!' does not match",
    ),
    (
        "spec",
        "targets.0.references.0.file",
        DELETE,
        "$.targets[0].references[0]: 'file' is a required property",
    ),
    (
        "spec",
        "targets.0.references.0.status",
        "missing",
        "$.targets[0].references[0].status: 'missing' is not one of ['present', 'needed',",
    ),
    (
        "spec",
        "targets.0.expectations.empty.counts.0",
        {"role": "listitem"},
        "$.targets[0].expectations.empty.counts[0]: 'equals' is a required property",
    ),
    (
        "spec",
        "targets.0.expectations.empty.counts.0",
        {"role": "listitem", "equals": 1, "equals_fixture": {"file": "f.json", "pointer": "/a"}},
        "$.targets[0].expectations.empty.counts[0]: 'equals' is not allowed here",
    ),
    (
        "spec",
        "targets.0.snapshot",
        {"max_diff_pixel_ratio": 2},
        "$.targets[0].snapshot.max_diff_pixel_ratio: 2 is greater than the maximum of 1",
    ),
    ("rubric", "scoring.scale", [1], "$.scoring.scale: [1] is too short"),
    ("rubric", "scoring.scale", [1, 1], "$.scoring.scale: [1, 1] has non-unique elements"),
    ("rubric", "dimensions.hierarchy.weight", 0, "$.dimensions.hierarchy.weight: 0 is less than"),
    ("rubric", "loop.budget", 3, "$.loop: Additional properties are not allowed ('budget'"),
    ("rubric", "version", None, "$.version: None is not of type 'string'"),
    (
        "spec",
        "targets.0.steps",
        {"empty": [{"action": "fill", "locator": {"testid": "name"}}]},
        "$.targets[0].steps.empty[0]: 'value' is a required property",
    ),
    (
        "spec",
        "targets.0.steps",
        {"empty": [{"action": "click", "locator": {"name": "Add"}}]},
        "$.targets[0].steps.empty[0].locator: 'role' is a dependency of 'name'",
    ),
    (
        "spec",
        "targets.0.steps",
        {"empty": [{"action": "emulate"}]},
        "$.targets[0].steps.empty[0]: {'action': 'emulate'} is not valid under any",
    ),
    (
        "spec",
        "targets.0.references",
        [{"state": "empty", "appearance": "light", "status": "present"}],
        "$.targets[0].references[0]: 'file' is a required property",
    ),
    (
        "spec",
        "targets.0.expectations",
        {"empty": {"sort": [{"order": "asc"}]}},
        "$.targets[0].expectations.empty.sort[0]: {'order': 'asc'} is not valid under any",
    ),
    (
        "spec",
        "targets.0.expectations",
        {"empty": {"focus_trap": {"region": "dlg", "traps": True, "presses": 51}}},
        "$.targets[0].expectations.empty.focus_trap.presses: 51 is greater than the maximum",
    ),
    ("spec", "charts", {"series": {"": "red"}}, "$.charts.series: '' should be non-empty"),
    ("spec", "feature", "x" * 65, "$.feature: 'xxxx"),
    ("spec", "targets.0.inert", "#x", "$.targets[0].inert: '#x' is not valid under any"),
    (
        "spec",
        "targets.0.primary_actions",
        {"empty": ""},
        "$.targets[0].primary_actions.empty: '' should be non-empty",
    ),
    (
        "verdict",
        "dimensions.typography.score",
        0.7,
        "$.dimensions.typography.score: 0.7 is not one of [0, 0.5, 1",
    ),
    (
        "verdict",
        "dimensions.typography",
        {"abstained": True, "score": 1, "anchor": "design-system", "evidence": "x"},
        "$.dimensions.typography.score: None was expected",
    ),
    ("verdict", "status", "inconclusive", "$: 'error' is a required property"),
    (
        "verdict",
        "dimensions.hierarchy.anchor",
        "taste",
        "$.dimensions.hierarchy.anchor: 'taste' is not one of",
    ),
    ("verdict", "usage", {"input_tokens": -1}, "$.usage.input_tokens: -1 is less than the minimum"),
    ("verdict", "model", 3, "$.model: 3 is not of type 'string', 'null'"),
    ("verdict", "failed_dimensions", ["a", "a"], "$.failed_dimensions: ['a', 'a'] has non-unique"),
    ("verdict", "dimensions", {}, "$.dimensions: {} should be non-empty"),
    ("verdict", "judge", "me", "$: Additional properties are not allowed ('judge' was unexpected)"),
    (
        "verdict",
        "dimensions.typography.score",
        DELETE,
        "$.dimensions.typography: 'score' is a required property",
    ),
    (
        "gate-result",
        "inputs",
        {"render_sha256": "abc"},
        "$.inputs.render_sha256: 'abc' does not match '^[0-9a-f]{64}$'",
    ),
    (
        "gate-result",
        "details.token_contrast",
        {"status": "pass"},
        "$.details.token_contrast: 'summary' is a required property",
    ),
    ("gate-result", "details.Axe", {"summary": "x"}, "$.details: 'Axe' does not match"),
    (
        "gate-result",
        "gates.a11y_ids",
        {"expected": 2, "present": 2},
        "$.gates.a11y_ids: 'missing' is a required property",
    ),
    ("gate-result", "iteration", -1, "$.iteration: -1 is less than the minimum of 0"),
    (
        "gate-result",
        "gates.snapshot",
        "fail",
        "$.gates.snapshot: 'fail' is not one of ['pass', 'diff', 'skip', 'error', 'new']",
    ),
    (
        "gate-result",
        "gates.axe",
        "diff",
        "$.gates.axe: 'diff' is not one of ['pass', 'fail', 'skip', 'error']",
    ),
    (  # a plug-in's gate may have any name a plug-in may have, and a gate's status
        "gate-result",
        "gates.Eye Ball",
        "pass",
        "$.gates: 'Eye Ball' does not match '^[a-z][a-z0-9_-]{0,63}$'",
    ),
    ("gate-result", "gates.eyeball", "diff", "$.gates.eyeball: 'diff' is not one of"),
    ("gate-result", "all_green", DELETE, "$: 'all_green' is a required property"),
    (
        "loop-state",
        "consecutive_passes",
        -1,
        "$.consecutive_passes: -1 is less than the minimum of 0",
    ),
    ("loop-state", "last_outcome", "maybe", "$.last_outcome: 'maybe' is not one of"),
    (
        "signoff",
        "records.0.human_spotcheck",
        {"status": "wrong"},
        "$.records[0].human_spotcheck: 'wrong_dimension' is a required property",
    ),
    (
        "signoff",
        "records.0.human_spotcheck",
        {"status": "approved", "wrong_dimension": "typography"},
        "$.records[0].human_spotcheck: 'wrong_dimension' is not allowed here",
    ),
    (
        "signoff",
        "records.0.iterations",
        0,
        "$.records[0].iterations: 0 is less than the minimum of 1",
    ),
    ("signoff", "version", 2, "$.version: 1 was expected"),
    ("signoff", "records.0.protection", "trusted", "$.records[0].protection: 'trusted' is not"),
    (
        "signoff",
        "records.0.signed_off_at",
        "yesterday",
        "$.records[0].signed_off_at: 'yesterday' does not match",
    ),
    (
        "signoff",
        "records.0.reference_source",
        DELETE,
        "$.records[0]: 'reference_source' is a required property",
    ),
    (
        "signoff",
        "records.0.final_verdict",
        {"all_pass": True},
        "$.records[0].final_verdict: 'dimensions' is a required property",
    ),
    ("signoff", "records.0.run_id", "", "$.records[0].run_id: '' should be non-empty"),
    ("contract", "id", "Ship It", "$.id: 'Ship It' does not match"),
    ("contract", "stages", [], "$.stages: [] should be non-empty"),
    ("contract", "stages.0.command", DELETE, "$.stages[0]: 'command' is a required property"),
    ("contract", "stages.1.pass_criteria", DELETE, "$.stages[1]: 'pass_criteria' is a required"),
    ("contract", "stages.1.grader.command", "codex", "$.stages[1].grader: {'model': 'openai/o3',"),
    ("contract", "stages.1.grader", {"rounds": 2}, "$.stages[1].grader: {'rounds': 2} is not"),
    ("contract", "stages.0.type", "manual", "$.stages[0].type: 'manual' is not one of"),
    ("contract", "budget", {"max_total_attempts": -1}, "$.budget.max_total_attempts: -1 is less"),
    ("contract", "timeout", 0, "$.timeout: 0 is less than or equal to the minimum of 0"),
    (
        "contract",
        "stages.0.prompt",
        {"text": "x", "sha256": "0" * 64},
        "$.stages[0]: {'id': 'lint', 'name': 'Lint'",
    ),
    ("loop-state", "frozen", ["a", "a"], "$.frozen: ['a', 'a'] has non-unique elements"),
    ("loop-state", "attempts.layout_spacing", -1, "$.attempts.layout_spacing: -1 is less than"),
    ("loop-state", "frozen", DELETE, "$: 'frozen' is a required property"),
    ("loop-state", "reference_source", "designer", "$.reference_source: 'designer' is not one of"),
]


@pytest.mark.parametrize(("name", "field", "value", "expected"), INVALID_CASES)
def test_schema_errors_name_the_json_path(name: str, field: str, value: Any, expected: str) -> None:
    data = _set(VALID[name](), field, value)
    errors = validate_errors(name, data)
    assert errors, "the change should make the document invalid"
    assert errors[0].startswith(expected)


def test_validate_raises_one_line_with_file_and_first_error() -> None:
    data = _set(spec_data(), "targets.0.states", [])
    with pytest.raises(InputError) as info:
        validate("spec", data, source=Path("spec.json"))
    message = str(info.value)
    assert message.startswith("spec.json: $.targets[0].states: [] should be non-empty")
    assert "argus schema spec" in message
    assert "\n" not in message


def test_validate_accepts_a_valid_document() -> None:
    validate("spec", spec_data(), source=Path("spec.json"))


def test_errors_come_in_document_order_with_numeric_indices() -> None:
    data = spec_data()
    data["targets"] = [dict(data["targets"][0], id=f"t{i}") for i in range(12)]
    data["targets"][10]["states"] = []
    data["targets"][2]["states"] = []
    errors = validate_errors("spec", data)
    assert [e.split(":")[0] for e in errors] == ["$.targets[2].states", "$.targets[10].states"]


def test_validate_errors_lists_every_error() -> None:
    data = spec_data()
    del data["adapter"]
    data["targets"][0]["states"] = []
    assert len(validate_errors("spec", data)) == 2


def test_messages_quoting_huge_values_stay_one_short_line() -> None:
    data = spec_data()
    data["targets"][0]["route"] = {"x" * 50: "y\n" * 500}
    (error,) = validate_errors("spec", data)
    assert "\n" not in error
    assert len(error) < 260
    assert error.endswith("…")


def test_loop_state_allows_extra_bookkeeping_and_a_null_reference_source() -> None:
    data = loop_state_data()
    data.update(reference_source=None, last_outcome=None, pins={"anything": [1, 2]})
    assert validate_errors("loop-state", data) == []


def test_inconclusive_verdict_never_claims_a_pass() -> None:
    data = verdict_data()
    data.update(status="inconclusive", error="malformed answer twice", dimensions={})
    assert validate_errors("verdict", data) == ["$.all_pass: False was expected"]
    data["all_pass"] = False
    assert validate_errors("verdict", data) == []


def test_abstained_dimension_has_no_score() -> None:
    data = verdict_data()
    data["dimensions"]["hierarchy"] = {
        "abstained": True,
        "score": None,
        "anchor": "design-system",
        "evidence": "spec has prose only",
    }
    data["unverified_dimensions"] = ["hierarchy"]
    assert validate_errors("verdict", data) == []


def test_gate_result_and_spec_take_every_gate_name_a_plugin_may_have() -> None:
    from argus.config import ALL_GATES, OPT_IN_GATES
    from argus.entrypoints import PLUGIN_NAME

    assert schema("spec")["$defs"]["GateName"]["pattern"] == PLUGIN_NAME.pattern
    names = (*ALL_GATES, *OPT_IN_GATES, "heading_count")  # every built-in, and a plug-in's
    data = gate_data()
    data["gates"] = {name: "skip" for name in names}
    assert validate_errors("gate-result", data) == []
