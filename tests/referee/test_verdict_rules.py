"""The referee's deciding rules, one at a time: which gates it builds from a config, which
threshold values it takes, which next action a failing gate leads to, and what the verdict
says about itself (surface, schema version, notes)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from argus import __version__
from argus.errors import InputError
from argus.lighthouse.score import CATEGORIES, NEXT_ACTION
from argus.referee._sources import Gate
from argus.referee.verdict import merge, referee
from tests.layout.pbir import visual
from tests.referee.test_referee import config, gates_of, write


def _lighthouse(root: Path, **scores: float) -> str:
    categories = {name: {"score": score} for name, score in scores.items()}
    return write(root, "lh.json", {"categories": categories})


def _console(root: Path, errors: int) -> str:
    messages = [{"level": "error"}] * errors
    return write(root, "console.json", {"messages": messages, "page_errors": []})


def test_without_evidence_every_gate_is_named_and_not_captured(tmp_path: Path) -> None:
    verdict = referee(config(tmp_path), tmp_path).to_json()
    assert [(g["name"], g["status"]) for g in verdict["gates"]] == [
        ("console", "not_captured"),
        ("lighthouse", "not_captured"),
        ("ssim", "not_captured"),
    ]
    assert gates_of(verdict)["ssim"]["thresholds"] == {"ssim_min": 0.9}
    assert (verdict["schema_version"], verdict["argus_version"]) == (1, __version__)
    assert verdict["surface"] == "web"  # the default surface
    assert set(verdict) == {
        "schema_version",
        "argus_version",
        "surface",
        "passed",
        "gates",
        "next_action",
        "notes",
    }


@pytest.mark.parametrize("surface", ["pbir", "tableau"])
def test_the_verdict_carries_its_surface_whatever_it_decides(tmp_path: Path, surface: str) -> None:
    ssim = write(tmp_path, "ssim.json", {"ssim_score": 0.99})
    cases = {
        "nothing": {},
        "failing": {"console": _console(tmp_path, 1)},
        "ssim alone": {"ssim": ssim},
        "no ssim": {"lighthouse": _lighthouse(tmp_path, accessibility=1.0)},
        "ship": {"lighthouse": "lh.json", "ssim": ssim},
    }
    actions = {}
    for case, entries in cases.items():
        verdict = referee(config(tmp_path, surface=surface, **entries), tmp_path)
        assert verdict.surface == surface and verdict.to_json()["surface"] == surface, case
        actions[case] = verdict.next_action
        assert [g["name"] for g in verdict.to_json()["gates"]][-1] == "ssim"
    assert actions == {
        "nothing": "capture-runtime-evidence",
        "failing": "fix-console-errors",
        "ssim alone": "capture-runtime-evidence",
        "no ssim": "capture-ssim-evidence",
        "ship": "ship",
    }


@pytest.mark.parametrize("category", CATEGORIES)
def test_each_lighthouse_category_is_held_to_its_own_minimum(tmp_path: Path, category: str) -> None:
    scores = {name: 1.0 for name in CATEGORIES}
    passing = referee(config(tmp_path, lighthouse=_lighthouse(tmp_path, **scores)), tmp_path)
    assert passing.passed is True
    report = _lighthouse(tmp_path, **{**scores, category: 0.5})
    verdict = referee(config(tmp_path, lighthouse=report), tmp_path)
    assert (verdict.passed, verdict.next_action) == (False, NEXT_ACTION[category])
    lighthouse = gates_of(verdict.to_json())["lighthouse"]
    assert lighthouse["measured"][category] == 50.0
    assert lighthouse["thresholds"] == {
        "accessibility_min": 90.0,
        "performance_min": 80.0,
        "best-practices_min": 80.0,
        "seo_min": 80.0,
    }


def test_the_first_lighthouse_category_below_its_minimum_decides(tmp_path: Path) -> None:
    # accessibility passes, performance fails: performance is the next action
    both = _lighthouse(tmp_path, accessibility=0.95, performance=0.5)
    assert referee(config(tmp_path, lighthouse=both), tmp_path).next_action == (
        "improve-performance"
    )
    # a category the report lacks is skipped, not the end of the search
    alone = _lighthouse(tmp_path, performance=0.5, seo=1.0)
    assert referee(config(tmp_path, lighthouse=alone), tmp_path).next_action == (
        "improve-performance"
    )
    # a score exactly at its minimum passes: the search goes on to the one below
    lower = {"thresholds": {"lighthouse_accessibility_min": 50}}
    at = _lighthouse(tmp_path, accessibility=0.5, performance=0.5)
    verdict = referee(config(tmp_path, lighthouse=at, **lower), tmp_path)
    assert verdict.next_action == "improve-performance"
    assert gates_of(verdict.to_json())["lighthouse"]["thresholds"]["accessibility_min"] == 50.0


def test_a_failing_lighthouse_gate_without_a_category_below_falls_back() -> None:
    gate = Gate("lighthouse", "fail", {"accessibility": 99.0}, {"accessibility_min": 90.0})
    verdict = merge("web", (gate, Gate("ssim", "not_captured")))
    assert (verdict.passed, verdict.next_action) == (False, "improve-lighthouse-scores")
    unreadable = Gate("lighthouse", "error", {"seo": None}, {"seo_min": 80.0})
    assert merge("web", (unreadable,)).next_action == "improve-seo"


def test_the_degraded_note_appears_only_when_a_gate_is_degraded() -> None:
    ssim = Gate("ssim", "pass", {"ssim_score": 0.99})
    clean = merge("web", (Gate("console", "pass"), ssim))
    assert (clean.passed, clean.next_action, clean.notes) == (True, "ship", ())
    degraded = merge("web", (Gate("console", "pass"), Gate("layout", "degraded"), ssim))
    assert (degraded.passed, degraded.next_action, len(degraded.notes)) == (True, "ship", 1)
    # degraded alone is no determinate evidence: no verdict, but the note still says why
    only = merge("web", (Gate("layout", "degraded"),))
    assert (only.passed, only.next_action, len(only.notes)) == (
        None,
        "capture-runtime-evidence",
        1,
    )
    ssim_only = merge("web", (ssim,)).to_json()
    assert (ssim_only["passed"], [g["name"] for g in ssim_only["gates"]]) == (None, ["ssim"])
    assert len(ssim_only["notes"]) == 1


def test_thresholds_are_taken_and_bounded(tmp_path: Path) -> None:
    console = _console(tmp_path, 1)
    lenient = {"max_console_errors": 1}
    verdict = referee(config(tmp_path, console=console, thresholds=lenient), tmp_path)
    assert gates_of(verdict.to_json())["console"]["status"] == "pass"
    strict = referee(config(tmp_path, console=console), tmp_path)
    assert gates_of(strict.to_json())["console"]["status"] == "fail"
    ssim = write(tmp_path, "ssim.json", {"ssim_score": 0.6})
    for minimum, status in ((0.5, "pass"), (0, "pass"), (0.61, "fail")):
        limits = {"ssim_min": minimum}
        verdict = referee(config(tmp_path, ssim=ssim, thresholds=limits), tmp_path)
        ssim_gate = gates_of(verdict.to_json())["ssim"]
        assert (ssim_gate["status"], ssim_gate["thresholds"]) == (status, {"ssim_min": minimum})
    huge = {"max_console_errors": 1_000_000_000}  # the largest threshold taken
    assert referee(config(tmp_path, console=console, thresholds=huge), tmp_path).passed is True
    for bad in (-1, -0.5, 1_000_000_001, 1e12, True):
        cfg = config(tmp_path, thresholds={"ssim_min": bad})
        with pytest.raises(InputError) as refused:
            referee(cfg, tmp_path)
        assert str(refused.value).startswith(f"{cfg}: "), bad


def test_parity_against_an_exemplar_is_a_gate(tmp_path: Path) -> None:
    exemplar = visual("kpi1", "card", 0, 0, 200, 100, "Values", "Category")
    lacking = copy.deepcopy(exemplar)
    lacking["visual"]["query"]["queryState"].pop("Category")
    write(tmp_path, "ref.json", exemplar)
    write(tmp_path, "cand.json", lacking)
    pair = {"candidate": "cand.json", "reference": "ref.json"}
    verdict = referee(config(tmp_path, parity=pair), tmp_path)
    assert gates_of(verdict.to_json())["parity"]["status"] == "fail"
    assert (verdict.passed, verdict.next_action) == (False, "match-reference-exemplar")
    backwards = {"candidate": "ref.json", "reference": "cand.json"}  # an addition passes
    verdict = referee(config(tmp_path, parity=backwards), tmp_path)
    assert gates_of(verdict.to_json())["parity"]["status"] == "pass"
    assert (verdict.passed, verdict.next_action) == (True, "capture-ssim-evidence")


@pytest.mark.parametrize(
    ("entries", "key"),
    [
        ({"layout": 7}, "layout"),
        ({"gates": 7}, "gates"),
        ({"console": 7}, "console"),
        ({"lighthouse": 7}, "lighthouse"),
        ({"console": ""}, "console"),
        ({"parity": {"candidate": 7, "reference": "r.json"}}, "parity.candidate"),
        ({"parity": {"candidate": "c.json", "reference": 7}}, "parity.reference"),
        ({"design_schema": {"candidate": "c.json"}}, "design_schema.reference"),
    ],
)
def test_a_bad_evidence_path_is_refused_naming_the_file_and_the_key(
    tmp_path: Path, entries: dict[str, Any], key: str
) -> None:
    cfg = config(tmp_path, **entries)
    with pytest.raises(InputError) as refused:
        referee(cfg, tmp_path)
    assert str(refused.value).startswith(f"{cfg}: {key} ")


@pytest.mark.parametrize("thresholds", [[1], "high", {"ssim": 0.5}, {"lighthouse_min": 1}])
def test_a_bad_thresholds_entry_is_refused_naming_the_file(
    tmp_path: Path, thresholds: object
) -> None:
    cfg = config(tmp_path, thresholds=thresholds)
    with pytest.raises(InputError) as refused:
        referee(cfg, tmp_path)
    assert str(refused.value).startswith(f"{cfg}: ")
