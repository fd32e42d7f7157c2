"""normalize_verdict: exact dimensions, discrete scores, own anchors, derived outcome."""

from __future__ import annotations

import json
from typing import Any

import pytest

from argus.errors import InputError
from argus.schemas import load_rubric, validate_errors
from argus.schemas.rubric import default_rubric_text as _default_rubric_text
from argus.verdict import normalize_verdict
from tests.verdict.helpers import RUBRIC, verdict


def _without(name: str) -> dict[str, Any]:
    raw = verdict()
    del raw["dimensions"][name]
    return raw


def _with_dim(name: str, **fields: Any) -> dict[str, Any]:
    raw = verdict()
    raw["dimensions"][name].update(fields)
    return raw


INVALID = [
    ("missing dimension", _without("hierarchy"), "hierarchy missing"),
    (
        "extra dimension",
        verdict(
            dimensions={**verdict()["dimensions"], "vibes": verdict()["dimensions"]["hierarchy"]}
        ),
        "vibes not in the rubric",
    ),
    ("score 0.7", _with_dim("typography", score=0.7), "score 0.7"),
    ("score 2", _with_dim("typography", score=2), "score 2"),
    ("score true", _with_dim("typography", score=True), "score True"),
    ("score string", _with_dim("typography", score="1"), "score '1'"),
    ("score null", _with_dim("typography", score=None), "has no score"),
    ("wrong anchor", _with_dim("visual_fidelity", anchor="design-system"), "the rubric says"),
    ("no anchor", _with_dim("visual_fidelity", anchor=None), "anchor None"),
    ("empty evidence", _with_dim("layout_spacing", evidence="  "), "needs 'evidence'"),
    (
        "abstain with score",
        _with_dim("hierarchy", abstained=True, score=1),
        "abstains but also has a score",
    ),
    (
        "abstain no reason",
        _with_dim("hierarchy", abstained=True, score=None, evidence=""),
        "evidence",
    ),
    ("dimension not object", _with_dim("hierarchy") | {"dimensions": []}, "'dimensions' must be"),
    ("unknown dimension key", _with_dim("hierarchy", mood="happy"), "mood"),
    ("no feature", verdict(feature=""), "'feature'"),
    ("iteration 0", verdict(iteration=0), "'iteration'"),
    ("bad status", verdict(status="maybe"), "status must be"),
    ("inconclusive without error", verdict(status="inconclusive"), "needs an 'error'"),
    ("unknown top-level key", verdict(mood="happy"), "mood"),
    ("bad reference source", verdict(reference_source="ai"), "reference_source"),
]


@pytest.mark.parametrize(("label", "raw", "needle"), INVALID, ids=[c[0] for c in INVALID])
def test_invalid_verdicts_raise_one_line(label: str, raw: Any, needle: str) -> None:
    with pytest.raises(InputError) as info:
        normalize_verdict(raw, RUBRIC, source="v.json")
    message = str(info.value)
    assert message.startswith("v.json: invalid verdict")
    assert needle in message
    assert "\n" not in message


def test_not_an_object() -> None:
    with pytest.raises(InputError, match="expected a JSON object, got an array"):
        normalize_verdict([], RUBRIC)


OUTCOMES = [
    ("all ones", {}, {}, "pass", (), ()),
    ("one half", {"layout_spacing": 0.5}, {}, "fail", ("layout_spacing",), ()),
    (
        "two zeros",
        {"hierarchy": 0, "accessibility": 0},
        {},
        "fail",
        ("hierarchy", "accessibility"),
        (),
    ),
    (
        "abstained",
        {"functional_correctness": None},
        {},
        "unverified",
        (),
        ("functional_correctness",),
    ),
    (
        "abstained and failed",
        {"functional_correctness": None, "typography": 0},
        {},
        "fail",
        ("typography",),
        ("functional_correctness",),
    ),
    (
        "all abstained",
        dict.fromkeys(RUBRIC.dimensions),
        {},
        "inconclusive",
        (),
        tuple(RUBRIC.names),
    ),
    (
        "inconclusive with perfect scores",
        {},
        {"status": "inconclusive", "error": "model answer was not JSON twice"},
        "inconclusive",
        (),
        (),
    ),
]


@pytest.mark.parametrize(
    ("label", "scores", "extra", "outcome", "failed", "unverified"),
    OUTCOMES,
    ids=[c[0] for c in OUTCOMES],
)
def test_outcome_is_derived_from_scores(
    label: str,
    scores: dict[str, float | None],
    extra: dict[str, Any],
    outcome: str,
    failed: tuple[str, ...],
    unverified: tuple[str, ...],
) -> None:
    result = normalize_verdict(verdict(scores, **extra), RUBRIC)
    assert result.outcome == outcome
    assert result.all_pass is (outcome == "pass")
    assert result.failed_dimensions == failed
    assert result.unverified_dimensions == unverified
    assert validate_errors("verdict", result.to_json()) == []


def test_inconclusive_verdict_may_omit_dimensions_and_they_stay_unverified() -> None:
    raw = {
        "iteration": 2,
        "feature": "habits",
        "target": "list",
        "status": "inconclusive",
        "error": "judge timed out",
        "all_pass": True,
    }
    result = normalize_verdict(raw, RUBRIC)
    assert result.outcome == "inconclusive" and not result.all_pass
    assert result.unverified_dimensions == RUBRIC.names
    assert "timed out" in result.dimension("hierarchy").evidence
    assert [c.field for c in result.corrections] == ["all_pass"]
    assert result.to_json()["all_pass"] is False


def test_inconclusive_still_refuses_an_extra_dimension() -> None:
    raw = verdict(status="inconclusive", error="x")
    raw["dimensions"]["vibes"] = raw["dimensions"]["hierarchy"]
    with pytest.raises(InputError, match="vibes"):
        normalize_verdict(raw, RUBRIC)


SELF_REPORTS = [
    ("claims pass over a failure", {"typography": 0}, {"all_pass": True}, ["all_pass"]),
    (
        "hides the failed dimension",
        {"typography": 0},
        {"all_pass": False, "failed_dimensions": []},
        ["failed_dimensions"],
    ),
    (
        "claims a failure that scored 1",
        {},
        {"failed_dimensions": ["hierarchy"]},
        ["failed_dimensions"],
    ),
    (
        "claims pass while abstaining",
        {"accessibility": None},
        {"all_pass": True, "failed_dimensions": [], "unverified_dimensions": []},
        ["all_pass", "unverified_dimensions"],
    ),
    (
        "honest fail",
        {"typography": 0},
        {"all_pass": False, "failed_dimensions": ["typography"]},
        [],
    ),
    ("honest pass", {}, {"all_pass": True, "failed_dimensions": []}, []),
]


@pytest.mark.parametrize(
    ("label", "scores", "claims", "corrected"), SELF_REPORTS, ids=[c[0] for c in SELF_REPORTS]
)
def test_disagreeing_self_report_is_corrected_and_reported(
    label: str, scores: dict[str, float | None], claims: dict[str, Any], corrected: list[str]
) -> None:
    result = normalize_verdict(verdict(scores, **claims), RUBRIC)
    assert [c.field for c in result.corrections] == corrected
    out = result.to_json()
    assert out["all_pass"] is result.all_pass
    assert out["failed_dimensions"] == list(result.failed_dimensions)
    assert len(out["corrections"]) == len(corrected)


def test_threshold_comes_from_the_rubric(tmp_path: Any) -> None:
    data = json.loads(_default_rubric_text())
    data["dimensions"]["layout_spacing"]["threshold"] = 0.5
    path = tmp_path / "rubric.json"
    path.write_text(json.dumps(data))
    lenient = load_rubric(path)
    assert normalize_verdict(verdict({"layout_spacing": 0.5}), lenient).all_pass
    assert not normalize_verdict(verdict({"layout_spacing": 0.5}), RUBRIC).all_pass


def test_smaller_rubric_makes_the_default_dimensions_extra(tmp_path: Any) -> None:
    data = json.loads(_default_rubric_text())
    data["dimensions"] = {"hierarchy": data["dimensions"]["hierarchy"]}
    path = tmp_path / "rubric.json"
    path.write_text(json.dumps(data))
    with pytest.raises(InputError, match="not in the rubric"):
        normalize_verdict(verdict(), load_rubric(path))


def test_normalizing_twice_is_stable() -> None:
    first = normalize_verdict(
        verdict({"typography": 0.5, "accessibility": None}, all_pass=True, backend="metric"), RUBRIC
    ).to_json()
    second = normalize_verdict(first, RUBRIC).to_json()
    assert second["all_pass"] is False
    assert second["dimensions"] == first["dimensions"]
    assert second["backend"] == "metric"
    assert second["corrections"] == []  # the first pass already fixed the self-report


def test_measurements_and_usage_pass_through() -> None:
    raw = verdict(backend="metric", usage={"input_tokens": None, "cost_usd": None})
    raw["dimensions"]["layout_spacing"]["measurements"] = {"off_grid_gaps": 0}
    out = normalize_verdict(raw, RUBRIC).to_json()
    assert out["dimensions"]["layout_spacing"]["measurements"] == {"off_grid_gaps": 0}
    assert out["usage"] == {"input_tokens": None, "cost_usd": None}


def test_corrections_record_what_was_reported_and_what_the_scores_give() -> None:
    raw = verdict({"typography": 0}, all_pass=True, failed_dimensions=["layout_spacing"])
    normalized = normalize_verdict(raw, RUBRIC)
    assert [str(c) for c in normalized.corrections] == [
        "all_pass: reported true, derived false",
        'failed_dimensions: reported ["layout_spacing"], derived ["typography"]',
    ]
    data = normalized.to_json()
    assert data["corrections"] == [str(c) for c in normalized.corrections]
    assert data["all_pass"] is False and data["failed_dimensions"] == ["typography"]


def test_dimensions_are_found_by_name_and_unverified_ones_are_listed() -> None:
    normalized = normalize_verdict(verdict({"typography": 0, "accessibility": None}), RUBRIC)
    assert normalized.dimension("typography").score == 0
    assert normalized.dimension("accessibility").score is None
    assert normalized.dimension("hierarchy").score == 1
    with pytest.raises(KeyError):
        normalized.dimension("no_such_dimension")
    assert normalized.to_json()["unverified_dimensions"] == ["accessibility"]


def test_unverified_dimensions_are_checked_without_failed_dimensions() -> None:
    raw = verdict({"accessibility": None}, unverified_dimensions=[])
    normalized = normalize_verdict(raw, RUBRIC)
    assert [str(c) for c in normalized.corrections] == [
        'unverified_dimensions: reported [], derived ["accessibility"]'
    ]


def test_the_view_is_read_from_the_verdict() -> None:
    normalized = normalize_verdict(verdict(view=("list", "empty", "dark")), RUBRIC)
    assert (normalized.target, normalized.state, normalized.appearance) == (
        "list",
        "empty",
        "dark",
    )
    for key in ("target", "state", "appearance"):
        with pytest.raises(InputError):
            normalize_verdict({**verdict(), key: ""}, RUBRIC)
    no_target = verdict()
    del no_target["target"]
    with pytest.raises(InputError):
        normalize_verdict(no_target, RUBRIC)


@pytest.mark.parametrize("iteration", [True, 0, -1, 1.5, "1"])
def test_an_iteration_must_be_a_whole_number_from_1(iteration: Any) -> None:
    with pytest.raises(InputError):
        normalize_verdict(verdict(iteration=iteration), RUBRIC)


def test_derived_and_view_keys_are_never_kept_as_claims() -> None:
    raw = verdict(all_pass=True, status="scored", failed_dimensions=[], backend="metric")
    normalized = normalize_verdict(raw, RUBRIC)
    assert normalized.other["backend"] == "metric"
    kept = set(normalized.other)
    assert not kept & {"all_pass", "status", "failed_dimensions", "feature", "iteration"}
    assert "dimensions" not in kept


def test_a_dimensions_extra_keeps_only_what_is_not_scored() -> None:
    raw = verdict({"typography": None})
    raw["dimensions"]["typography"]["measurements"] = {"off_scale": 0}
    normalized = normalize_verdict(raw, RUBRIC)
    dim = normalized.dimension("typography")
    assert dim.extra == {"measurements": {"off_scale": 0}}
    assert dim.threshold == RUBRIC.dimensions["typography"].threshold


def test_scores_are_written_plainly() -> None:
    normalized = normalize_verdict(verdict({"typography": 0.5, "hierarchy": 0}), RUBRIC)
    dims = normalized.to_json()["dimensions"]
    assert dims["typography"]["score"] == 0.5
    assert isinstance(dims["hierarchy"]["score"], int) and dims["hierarchy"]["score"] == 0
    assert isinstance(dims["layout_spacing"]["score"], int)


def test_an_inconclusive_verdict_keeps_each_dimensions_threshold() -> None:
    raw = verdict(status="inconclusive", error="bad JSON twice")
    del raw["dimensions"]
    normalized = normalize_verdict(raw, RUBRIC)
    assert normalized.outcome == "inconclusive"
    for name, rule in RUBRIC.dimensions.items():
        assert normalized.dimension(name).threshold == rule.threshold
