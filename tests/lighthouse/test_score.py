"""Lighthouse grading: each category against its own minimum, corrupt scores are errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from argus.lighthouse import _install as install
from argus.lighthouse._install import LighthouseUnavailable, lighthouse_command
from argus.lighthouse.run import trim_report
from argus.lighthouse.score import DEFAULT_MINIMUMS, grade, next_action, overall
from argus.referee.verdict import referee
from tests.conftest import RunArgus


def report(**scores: Any) -> dict[str, Any]:
    return {"categories": {k.replace("_", "-"): {"score": v} for k, v in scores.items()}}


def test_each_category_against_its_own_minimum() -> None:
    grades = grade(
        report(accessibility=0.95, performance=0.79, best_practices=0.8, seo=1), DEFAULT_MINIMUMS
    )
    assert [(g.category, g.status, g.score) for g in grades] == [
        ("accessibility", "pass", 95.0),
        ("performance", "fail", 79.0),
        ("best-practices", "pass", 80.0),
        ("seo", "pass", 100.0),
    ]
    assert (overall(grades), next_action(grades)) == ("fail", "improve-performance")


@pytest.mark.parametrize("bad", [5.0, -0.01, float("nan"), float("inf"), "0.9", True, None])
def test_a_score_outside_zero_one_or_not_finite_is_an_error(bad: Any) -> None:
    grades = grade(report(accessibility=1.0, seo=bad), DEFAULT_MINIMUMS)
    by_name = {g.category: g.status for g in grades}
    assert by_name["seo"] == "error" and by_name["performance"] == "not_captured"
    assert (overall(grades), next_action(grades)) == ("error", "improve-seo")


def test_next_action_follows_the_category_order() -> None:
    grades = grade(report(accessibility=0.5, performance=0.1, best_practices=0.1), DEFAULT_MINIMUMS)
    assert next_action(grades) == "improve-accessibility"
    grades = grade(report(accessibility=1, performance=1, best_practices=0.1), DEFAULT_MINIMUMS)
    assert next_action(grades) == "improve-best-practices"


def test_the_report_is_cut_to_what_argus_reads() -> None:
    full = {
        "lighthouseVersion": "12.8.2",
        "categories": {"seo": {"id": "seo", "title": "SEO", "score": 0.9, "auditRefs": [1] * 50}},
        "audits": {"x": {"details": "big"}},
        "runtimeError": {"code": "NO_FCP", "message": "page text"},
    }
    trimmed = trim_report(full)
    assert trimmed["categories"] == {"seo": {"id": "seo", "title": "SEO", "score": 0.9}}
    assert "audits" not in trimmed and trimmed["runtimeError"] == {"code": "NO_FCP"}


@pytest.mark.parametrize(
    ("scores", "action"),
    [
        ({"performance": 0.5}, "improve-performance"),
        ({"best-practices": 0.5}, "improve-best-practices"),
        ({"seo": 0.5}, "improve-seo"),
        ({"accessibility": 0.5, "performance": 0.1}, "improve-accessibility"),
    ],
)
def test_the_referee_names_the_category_to_improve(
    tmp_path: Path, scores: dict[str, float], action: str
) -> None:
    lh = {"categories": {k: {"score": v} for k, v in scores.items()}}
    (tmp_path / "lh.json").write_text(json.dumps(lh))
    (tmp_path / "r.json").write_text(json.dumps({"lighthouse": "lh.json"}))
    verdict = referee(tmp_path / "r.json", tmp_path)
    assert (verdict.passed, verdict.next_action) == (False, action)


def test_cli_grades_a_given_report(tmp_path: Path, run_argus: RunArgus) -> None:
    from tests.support.habits import copy_habits

    root = copy_habits(tmp_path)
    view = ["--feature", "habits", "--target", "list", "--state", "empty", "--appearance", "light"]
    (root / "good.json").write_text(
        json.dumps(report(accessibility=1, performance=1, best_practices=1, seo=1))
    )
    (root / "forged.json").write_text(
        '{"categories": {"accessibility": {"score": -0.5}, "seo": {"score": 5.0}}}'
    )
    # NaN is not JSON (Lighthouse writes null): the strict JSON reader refuses the whole file.
    (root / "nan.json").write_text('{"categories": {"accessibility": {"score": NaN}}}')
    ok = run_argus("lighthouse", *view, "--from-report", "good.json", cwd=root)
    assert ok.returncode == 0 and json.loads(ok.stdout)["status"] == "pass"
    strict = run_argus(
        "lighthouse", *view, "--from-report", "good.json", "--min-seo", "101", cwd=root
    )
    assert strict.returncode == 2  # a minimum above 100 is bad input
    nan = run_argus("lighthouse", *view, "--from-report", "nan.json", cwd=root)
    assert nan.returncode == 2 and nan.stderr.count("\n") == 1 and "NaN" in nan.stderr
    forged = run_argus("lighthouse", *view, "--from-report", "forged.json", cwd=root)
    out = json.loads(forged.stdout)
    assert forged.returncode == 1 and out["status"] == "error"
    assert {c["category"]: c["status"] for c in out["categories"]}["seo"] == "error"


def test_no_node_is_one_clear_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(install.shutil, "which", lambda name: None)
    monkeypatch.setenv("ARGUS_LIGHTHOUSE_DIR", str(tmp_path))
    with pytest.raises(LighthouseUnavailable, match=r"Node\.js not found"):
        lighthouse_command()


def test_a_cached_install_is_used_without_npm(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    cli = tmp_path / "node_modules" / "lighthouse" / "cli" / "index.js"
    cli.parent.mkdir(parents=True)
    cli.write_text("")
    monkeypatch.setenv("ARGUS_LIGHTHOUSE_DIR", str(tmp_path))
    monkeypatch.setattr(
        install.shutil, "which", lambda name: "/usr/bin/node" if name == "node" else None
    )
    assert lighthouse_command(install=False) == ["/usr/bin/node", str(cli)]
