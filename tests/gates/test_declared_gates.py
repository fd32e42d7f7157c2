"""token_contrast (declared pairs) and a11y_ids (the contract over the probe)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from argus.color import contrast_ratio
from argus.errors import InputError
from argus.gates._token_contrast import check_token_contrast
from argus.gates.a11y_ids import check_a11y_ids
from argus.gates.base import GateStatus
from argus.tokens import Tokens
from tests.gates.probes import el, page


def pairs_file(tmp_path: Path, pairs: list[dict]) -> Path:
    path = tmp_path / "contrast-pairs.json"
    path.write_text(json.dumps({"pairs": pairs}), encoding="utf-8")
    return path


def test_declared_pairs_that_hold_pass(tmp_path: Path, tokens: Tokens) -> None:
    path = pairs_file(tmp_path, [{"fg": "text-primary", "bg": "surface", "min": 4.5}])
    outcome = check_token_contrast(tokens, path)
    assert outcome.status is GateStatus.PASS
    assert len(outcome.data["pairs"]) == 2  # light and dark


def test_a_pair_below_its_minimum_fails_naming_pair_and_appearance(
    tmp_path: Path, tokens: Tokens
) -> None:
    path = pairs_file(tmp_path, [{"fg": "border", "bg": "surface", "min": 4.5}])
    outcome = check_token_contrast(tokens, path)
    assert outcome.status is GateStatus.FAIL
    assert {f.property for f in outcome.findings} == {"contrast (light)", "contrast (dark)"}
    assert outcome.findings[0].element == "border on surface"


def test_a_failing_pair_reports_its_measured_ratio_and_minimum(
    tmp_path: Path, tokens: Tokens
) -> None:
    path = pairs_file(tmp_path, [{"fg": "border", "bg": "surface", "min": 4.5}])
    outcome = check_token_contrast(tokens, path)
    assert outcome.name == "token_contrast"
    assert outcome.summary == "2 of 2 declared pair(s) below their minimum"
    expected = {
        a: f"{contrast_ratio(tokens.color('border', a), tokens.color('surface', a)):.2f}:1"
        for a in ("light", "dark")
    }
    assert [(f.property, f.value, f.expected) for f in outcome.findings] == [
        (f"contrast ({a})", expected[a], ">= 4.5:1") for a in ("light", "dark")
    ]
    # Each finding says which pair fell short in which appearance.
    for finding, appearance in zip(outcome.findings, ("light", "dark"), strict=True):
        assert "border/surface" in finding.message and appearance in finding.message


def test_a_passing_pair_reports_no_whitelist(tmp_path: Path, tokens: Tokens) -> None:
    path = pairs_file(tmp_path, [{"fg": "text-primary", "bg": "surface", "min": 4.5}])
    outcome = check_token_contrast(tokens, path)
    assert outcome.summary == "0 of 2 declared pair(s) below their minimum"
    assert outcome.findings == ()


def test_a_pair_whitelisted_in_one_appearance_fails_in_the_other(
    tmp_path: Path, tokens: Tokens
) -> None:
    path = pairs_file(
        tmp_path, [{"fg": "border", "bg": "surface", "min": 4.5, "whitelist": ["light"]}]
    )
    outcome = check_token_contrast(tokens, path)
    assert outcome.status is GateStatus.FAIL
    assert outcome.summary == "1 of 2 declared pair(s) below their minimum, 1 whitelisted"
    assert [f.property for f in outcome.findings] == ["contrast (dark)"]


def test_whitelisted_appearance_does_not_fail(tmp_path: Path, tokens: Tokens) -> None:
    path = pairs_file(
        tmp_path, [{"fg": "border", "bg": "surface", "min": 4.5, "whitelist": ["light", "dark"]}]
    )
    outcome = check_token_contrast(tokens, path)
    assert outcome.status is GateStatus.PASS
    assert "2 whitelisted" in outcome.summary


def test_unknown_token_in_a_pair_is_an_input_error(tmp_path: Path, tokens: Tokens) -> None:
    path = pairs_file(tmp_path, [{"fg": "ink", "bg": "surface"}])
    with pytest.raises(InputError, match="'ink'"):
        check_token_contrast(tokens, path)


PROBE = page(
    el("main", testid="habits.screen"),
    el("h1", parent=1, testid="habits.title", text="Habits"),
    el("li", parent=1, testid="row.habit.read"),
)


def test_every_contract_id_present_passes() -> None:
    outcome = check_a11y_ids(PROBE, ["habits.screen", "habits.title", "row.habit.*"])
    assert outcome.status is GateStatus.PASS
    assert outcome.data == {"expected": 3, "present": 3, "missing": []}


def test_a_missing_id_fails_and_is_named() -> None:
    outcome = check_a11y_ids(PROBE, ["habits.screen", "habits.add", "row.task.*"])
    assert outcome.status is GateStatus.FAIL
    assert outcome.data == {"expected": 3, "present": 1, "missing": ["habits.add", "row.task.*"]}
    assert [f.element for f in outcome.findings] == ["habits.add", "row.task.*"]


def test_a_contract_entry_matching_everything_is_an_input_error() -> None:
    with pytest.raises(InputError, match="prefix"):
        check_a11y_ids(PROBE, ["*"])


def test_an_empty_contract_is_skip_not_a_vacuous_pass() -> None:
    outcome = check_a11y_ids(PROBE, [])
    assert outcome.status is GateStatus.SKIP
    assert outcome.data == {}
