"""The small readers and formatters the report is made of, table-driven."""

from __future__ import annotations

from typing import Any

import pytest

from argus.report._gate_rows import MAX_FINDINGS_SHOWN, finding_line, gate_status, gate_summary
from argus.report._signoffs import signoff_for
from argus.report._text import anchor_id, score_text, when
from argus.report._timeline import IterationSources, implementer_text, iteration_row
from argus.report._verdict_rows import verdict_outcome, verdict_summary
from argus.report.model import SignoffSummary, SpotCheck
from argus.report.templating import environment


@pytest.mark.parametrize(
    ("value", "status"),
    [
        ("pass", "pass"),
        ("diff", "diff"),
        ({"expected": 3, "present": 3, "missing": []}, "pass"),
        ({"expected": 3, "present": 2, "missing": ["a.b"]}, "fail"),
        ({"expected": 3, "present": 3, "missing": ["a.b"], "status": "pass"}, "fail"),
        ({"expected": 3, "present": 1, "missing": [], "status": "pass"}, "fail"),
        ({"expected": 0, "present": 0, "missing": [], "status": "skip"}, "skip"),
        (42, "error"),
    ],
)
def test_gate_status_is_derived(value: Any, status: str) -> None:
    assert gate_status(value) == status


@pytest.mark.parametrize(
    ("finding", "line"),
    [
        (
            {"element": "button#add", "property": "color", "value": "#123", "expected": "accent"},
            "button#add · color: #123 (expected accent)",
        ),
        ({"element": "", "property": "", "value": "", "message": "page crashed"}, "page crashed"),
        ({"element": "h1", "value": "13px", "message": "off scale"}, "h1: 13px — off scale"),
        ("plain text", "plain text"),
    ],
)
def test_finding_line(finding: Any, line: str) -> None:
    assert finding_line(finding) == line


def test_gate_findings_are_capped_with_a_count() -> None:
    findings = [{"element": f"e{i}", "value": "x"} for i in range(MAX_FINDINGS_SHOWN + 7)]
    result = {"gates": {"axe": "fail"}, "details": {"axe": {"summary": "s", "findings": findings}}}
    row = gate_summary(result, 1).rows[0]
    assert len(row.findings) == MAX_FINDINGS_SHOWN and row.more_findings == 7


def test_id_counts_summarise_themselves_without_a_summary() -> None:
    result = {"gates": {"a11y_ids": {"expected": 2, "present": 1, "missing": ["x.y"]}}}
    row = gate_summary(result, None).rows[0]
    assert (row.status, row.summary) == ("fail", "1 of 2 contract ids present; missing: x.y")


@pytest.mark.parametrize(
    ("implementer", "text"),
    [
        (None, ("", "")),
        ({"status": "DONE", "outcome": "ok", "error": ""}, ("DONE", "")),
        (
            {"status": None, "outcome": "timeout", "error": "killed after 900s"},
            ("timeout", "killed after 900s"),
        ),
        (
            {"status": "BLOCKED", "outcome": "crashed", "error": "exit 3"},
            ("crashed (BLOCKED)", "exit 3"),
        ),
        ({"status": None, "outcome": "no_status", "error": ""}, ("no status", "")),
    ],
)
def test_implementer_text(implementer: Any, text: tuple[str, str]) -> None:
    assert implementer_text(implementer) == text


def test_integrity_failure_shows_in_the_implementer_column() -> None:
    src = IterationSources(
        iteration=3,
        outcome={"kind": "integrity", "passed": False, "error": "changed spec.json"},
        implementer={"status": "DONE", "outcome": "ok"},
        integrity={"modified": ["argus/specs/shop/spec.json"], "added": [], "removed": []},
    )
    row = iteration_row(src, None, ())
    assert row.implementer == "DONE; changed protected files"
    assert (row.kind, row.error, row.gates) == ("integrity", "changed spec.json", "none")


@pytest.mark.parametrize(
    ("scores", "status", "outcome"),
    [
        ({"a": 1, "b": 1}, "scored", "pass"),
        ({"a": 1, "b": 0.5}, "scored", "fail"),
        ({"a": 1, "b": None}, "scored", "unverified"),
        ({"a": None, "b": None}, "scored", "inconclusive"),
        ({"a": 1, "b": 1}, "inconclusive", "inconclusive"),
    ],
)
def test_verdict_outcome_from_scores(
    scores: dict[str, float | None], status: str, outcome: str
) -> None:
    dims = {
        name: {"score": s, "abstained": s is None, "anchor": "spec-text", "evidence": "e"}
        for name, s in scores.items()
    }
    summary = verdict_summary({"status": status, "dimensions": dims, "all_pass": True}, None, (), 1)
    assert summary.outcome == outcome
    assert verdict_outcome(status, summary.dimensions) == outcome


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("2026-11-30T13:50:17.637038Z", "2026-11-30 13:50:17 UTC"),
        ("2025-01-02T05:04:05+02:00", "2025-01-02 03:04:05 UTC"),
        ("2025-01-02T03:04:05", "2025-01-02 03:04:05"),
        ("yesterday", "yesterday"),
    ],
)
def test_when(text: str, shown: str) -> None:
    assert when(text) == shown


def _macro(name: str, *args: object) -> str:
    return str(getattr(environment().get_template("macros.html").module, name)(*args))


def test_ids_and_badges_are_safe() -> None:
    assert anchor_id("view", 'a"b<c>-d_e.f') == "view-a_b_c_-d_e_f"
    assert _macro("badge", "DONE_WITH_CONCERNS") == (
        '<span class="badge tone-warn">DONE WITH CONCERNS</span>'
    )
    assert _macro("badge", "<b>") == '<span class="badge tone-plain">&lt;b&gt;</span>'
    assert _macro("bullet_list", ["<script>"], '"><x') == (
        '<ul class="&#34;&gt;&lt;x"><li>&lt;script&gt;</li></ul>'
    )


@pytest.mark.parametrize(("score", "text"), [(None, "—"), (1.0, "1"), (0.0, "0"), (0.5, "0.5")])
def test_score_text(score: float | None, text: str) -> None:
    assert score_text(score) == text


def _signoff(run_id: str, at: str) -> SignoffSummary:
    return SignoffSummary(
        "list", "populated", "light", run_id, at, 2, "human", "", (), SpotCheck("pending")
    )


def test_an_old_run_never_shows_a_later_runs_sign_off() -> None:
    """A view BLOCKED in run A, signed off later in run B: A's report shows no sign-off."""
    later = _signoff("run-b", "2026-01-02T10:00:00.000000Z")
    records = [later]
    slug = later.slug
    assert signoff_for(records, slug, "run-a", "2026-01-01T10:00:00.000000Z") is None
    assert signoff_for(records, slug, "run-b", "2026-01-02T09:00:00.000000Z") is later
    earlier = _signoff("run-0", "2025-12-31T10:00:00.000000Z")
    found = signoff_for([earlier, later], slug, "run-a", "2026-01-01T10:00:00.000000Z")
    assert found is earlier
