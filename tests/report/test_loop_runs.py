"""Reports of real loop runs (argus.loop.run_loop over the loop tests' fake app)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from argus.loop.engine.modes import Mode
from argus.loop.engine.run import LoopOptions, RunOutcome, run_loop
from argus.report import collect_report, find_run, write_report
from tests.loop.fakeapp import FEATURE, FakeServices, implementer_command, make_repo


def _run(root: Path, mode: Mode = Mode.HEADLESS, **kwargs: Any) -> RunOutcome:
    options = LoopOptions(feature=FEATURE, root=root, mode=mode, **kwargs)
    return run_loop(options, services_factory=FakeServices)


def _defects() -> list[dict[str, Any]]:
    return [
        {"name": "console", "kind": "gate", "target": "console", "fixable": True},
        {"name": "odd", "kind": "dimension", "target": "hierarchy", "fixable": False},
    ]


def test_headless_run_report_matches_the_loop(tmp_path: Path) -> None:
    root = make_repo(tmp_path, _defects(), states=("a", "b"))
    outcome = _run(root, implementer=implementer_command())
    report = collect_report(root, find_run(root, FEATURE))
    assert report.run_id == outcome.run_id and report.status == outcome.status.value
    assert report.run_state == "finished"
    assert {v.slug: v.status for v in report.views} == {
        r.view.slug: r.status.value for r in outcome.views
    }
    for view, result in zip(report.views, outcome.views, strict=True):
        assert len(view.timeline) == result.iterations
        assert view.frozen == ("hierarchy",)
        assert view.signoff is not None and view.signoff.run_id == outcome.run_id
        assert view.pictures[0].data_uri is not None  # the render
        assert any(r.implementer for r in view.timeline)
    # The implementer fixed the console error during the first view; the second never saw it.
    first, second = report.views
    assert (first.timeline[0].gates, first.timeline[0].red_gates) == ("red", ("console",))
    assert second.timeline[0].gates == "green"
    # Only the canonical view has a reference in the fake app, so only it has a diff.
    assert first.pictures[2].data_uri is not None and "pixels differ" in first.diff_stats
    assert second.pictures[1].data_uri is None
    page = write_report(root, FEATURE).read_text(encoding="utf-8")
    assert ">FROZEN</span>" in page and "DONE WITH CONCERNS" in page
    # The verdict that froze hierarchy still failed it, yet it counted towards the streak.
    assert first.timeline[3].verdict == "fail" and first.timeline[3].counted_pass
    assert "counted as a pass: every failure is frozen" in page
    # The frozen concern is said once, in the frozen call-out, not again as a concern.
    assert "<strong>Frozen:</strong> hierarchy" in page
    assert "<strong>Concern:</strong> frozen: hierarchy" not in page


def test_report_only_run_report_stays_in_its_directory(tmp_path: Path) -> None:
    root = make_repo(tmp_path, _defects())
    outcome = _run(root, mode=Mode.REPORT_ONLY)
    path = write_report(root, FEATURE)
    runs = root / "argus" / "specs" / FEATURE / ".argus-runs" / "report-only"
    assert path.parent == runs
    page = path.read_text(encoding="utf-8")
    assert "A report-only run never signs off." in page
    assert "stop: report-only runs one iteration" in page and "budget used" not in page
    report = collect_report(root, find_run(root, FEATURE, outcome.run_id))
    (view,) = report.views
    assert len(view.timeline) == 1 and view.timeline[0].gates == "red"
    assert view.pictures[0].data_uri is not None


def test_a_missing_reference_shows_the_candidate(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [], reference="needed")
    outcome = _run(root)
    report = collect_report(root, find_run(root, FEATURE))
    (view,) = report.views
    assert view.status == outcome.status.value == "NEEDS_CONTEXT"
    assert view.pictures[1].label == "Candidate reference (awaiting approval)"
    assert view.pictures[1].data_uri is not None
    assert any(note.startswith("HE-1") for note in report.notes)
