"""Design diff: the seed's design-schema shape read, asymmetric in both directions."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from argus.design.diff import diff_documents
from argus.referee.verdict import referee
from tests.conftest import RunArgus


def schema(**changes: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "source": {"url": "https://example.test/", "fetched_at": "2026-01-01T00:00:00Z"},
        "capture_method": "computed",
        "spacing": {"base_unit": 8, "scale": [8, 16, 24, 32], "capture_method": "computed"},
        "type_scale": {
            "base_size": 16,
            "ratio": 1.25,
            "sizes": [16, 20, 25, 31.25],
            "capture_method": "computed",
        },
        "grid": {
            "breakpoints": [640, 1024],
            "columns": 12,
            "gutter": 24,
            "container_max": 1200,
            "capture_method": "computed",
        },
        "elevation": {"shadows": ["0 1px 2px #0003", "0 4px 8px #0003"], "capture_method": "x"},
        "components": {"button": {}, "card": {}},
        "identity_flags": {},
        "confidence_notes": [],
    }
    for dotted, value in changes.items():
        *parents, leaf = dotted.split("__")
        node = doc
        for part in parents:
            node = node[part]
        if value is None and leaf in node and dotted.count("__") == 0:
            del node[leaf]
        else:
            node[leaf] = value
    return doc


def dims(result: Any) -> set[str]:
    return {d["dimension"] for d in result.deltas}


def test_a_different_base_unit_fails_where_only_components_were_read_before() -> None:
    result = diff_documents(schema(spacing__base_unit=6), schema())
    assert result.status == "fail"
    assert result.deltas == ({"dimension": "spacing_base", "expected": 8.0, "actual": 6.0},)


CHANGES: dict[str, dict[str, Any]] = {
    "type_ratio": {"type_scale__ratio": 1.333},
    "elevation_levels": {"elevation__shadows": ["0 1px 2px #0003"]},
    "breakpoints": {"grid__breakpoints": ["640px"]},
    "components": {"components": {"button": {}}},
}


@pytest.mark.parametrize("dimension", sorted(CHANGES))
def test_losing_a_dimension_fails_and_the_reverse_direction_passes_as_an_addition(
    dimension: str,
) -> None:
    smaller = schema(**CHANGES[dimension])
    if dimension == "type_ratio":  # a ratio is symmetric: different both ways
        assert dims(diff_documents(schema(), smaller)) == {dimension}
    else:
        assert diff_documents(schema(), smaller).status == "pass"
    assert dims(diff_documents(smaller, schema())) == {dimension}


def test_a_ratio_within_the_tolerance_passes() -> None:
    assert diff_documents(schema(type_scale__ratio=1.27), schema()).status == "pass"
    assert diff_documents(schema(type_scale__ratio=1.27), schema(), 0.01).status == "fail"


@pytest.mark.parametrize(
    "broken",
    [
        schema(type_scale=None),
        schema(spacing__base_unit="8px"),
        {"spacing": {"base_unit": 8}},
        {"colors": ["#fff"]},
        [1, 2],
    ],
)
def test_partial_or_unrecognised_is_not_captured_never_a_pass(broken: Any) -> None:
    for candidate, reference in ((broken, schema()), (schema(), broken)):
        result = diff_documents(candidate, reference)
        assert result.status == "not_captured" and result.reason


def test_the_referee_reads_the_seed_shape(tmp_path: Path) -> None:
    (tmp_path / "ref.json").write_text(json.dumps(schema()))
    (tmp_path / "cand.json").write_text(json.dumps(schema(spacing__base_unit=6)))
    (tmp_path / "partial.json").write_text(json.dumps({"spacing": {"base_unit": 6}}))
    pair = {"reference": "ref.json", "candidate": "cand.json"}
    (tmp_path / "r.json").write_text(json.dumps({"design_schema": pair}))
    verdict = referee(tmp_path / "r.json", tmp_path).to_json()
    design = next(g for g in verdict["gates"] if g["name"] == "design_schema")
    assert design["status"] == "fail" and verdict["next_action"] == "match-design-schema"
    (tmp_path / "r.json").write_text(
        json.dumps({"design_schema": {**pair, "candidate": "partial.json"}})
    )
    verdict = referee(tmp_path / "r.json", tmp_path).to_json()
    design = next(g for g in verdict["gates"] if g["name"] == "design_schema")
    assert design["status"] == "not_captured" and verdict["passed"] is None


def test_cli_design_diff(tmp_path: Path, run_argus: RunArgus) -> None:
    (tmp_path / "ref.json").write_text(json.dumps(schema()))
    (tmp_path / "same.json").write_text(json.dumps(copy.deepcopy(schema())))
    (tmp_path / "off.json").write_text(json.dumps(schema(spacing__base_unit=6)))
    (tmp_path / "junk.json").write_text("{}")
    ok = run_argus("design", "diff", "same.json", "ref.json", cwd=tmp_path)
    assert ok.returncode == 0 and json.loads(ok.stdout)["status"] == "pass"
    bad = run_argus("design", "diff", "off.json", "ref.json", cwd=tmp_path)
    assert bad.returncode == 1 and json.loads(bad.stdout)["deltas"][0]["actual"] == 6
    junk = run_argus("design", "diff", "junk.json", "ref.json", cwd=tmp_path)
    assert junk.returncode == 2 and junk.stderr.count("\n") == 1
