"""The report of a hand-built run: what it shows, what it escapes, what it derives."""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import stat
from pathlib import Path

import pytest

from argus.errors import InputError
from argus.report import LATEST_NAME, collect_report, find_run, report_name, write_report
from argus.report.images import MAX_EMBED_WIDTH
from argus.report.model import RunReport, ViewReport
from argus.store import CONTRACT_MODE, RunStore
from tests.report.builder import (
    EMPTY,
    FEATURE,
    HOSTILE,
    POPULATED,
    BuiltRun,
    build_run,
    write_json,
    write_png,
)


def _collect(built: BuiltRun, run_id: str | None = None) -> RunReport:
    return collect_report(built.root, find_run(built.root, FEATURE, run_id))


def _view(report: RunReport, slug: str) -> ViewReport:
    return next(v for v in report.views if v.slug == slug)


def test_report_shows_each_view_with_images_and_statuses(tmp_path: Path) -> None:
    built = build_run(tmp_path)
    path = write_report(built.root, FEATURE)
    page = path.read_text(encoding="utf-8")
    assert path == built.runs_dir / report_name(built.run_id)
    for slug in (POPULATED, EMPTY):
        assert f'<h2 id="h-{slug}">{slug}</h2>' in page
        assert f'href="#view-{slug}"' in page
    # Render, reference and diff for each view, all embedded.
    assert len(re.findall(r'<img src="data:image/png;base64,[A-Za-z0-9+/=]+"', page)) == 6
    assert ">DONE</span>" in page and ">BLOCKED</span>" in page
    assert "spot-check approved" in page
    assert ">UNVERIFIED</span>" in page and ">abstained</span>" in page
    assert "no backend could measure it; this is not a pass" in page


def test_page_text_is_escaped_and_nothing_runs(tmp_path: Path) -> None:
    built = build_run(tmp_path)
    page = write_report(built.root, FEATURE).read_text(encoding="utf-8")
    assert HOSTILE not in page
    assert "<script" not in page.lower()
    escaped = html.escape(HOSTILE, quote=True)
    assert f"heading named {escaped} is 13px" in page  # judge evidence
    assert f"{escaped} · console.error" in page  # a gate finding naming a probe element


def test_page_makes_no_requests(tmp_path: Path) -> None:
    built = build_run(tmp_path)
    page = write_report(built.root, FEATURE).read_text(encoding="utf-8")
    refs = re.findall(r'(?:src|href)="([^"]*)"', page)
    assert refs, "the page links its views and embeds images"
    assert all(r.startswith(("data:image/png;base64,", "#")) for r in refs)
    assert "url(" not in page and "@import" not in page
    assert "Content-Security-Policy" in page and "default-src 'none'" in html.unescape(page)
    assert "prefers-color-scheme: dark" in page


def test_pass_and_green_are_derived_not_taken_from_the_files(tmp_path: Path) -> None:
    report = _collect(build_run(tmp_path))
    empty = _view(report, EMPTY)
    # verdict.json claims all_pass; typography scored 0 and accessibility abstained.
    assert empty.verdict is not None and empty.verdict.outcome == "fail"
    status = {d.name: d.status for d in empty.verdict.dimensions}
    assert status["typography"] == "fail" and status["accessibility"] == "unverified"
    assert empty.unverified == ("accessibility",)
    # gate-result.json of iteration 1 claims all_green with console failing.
    first = empty.timeline[0]
    assert (first.gates, first.red_gates) == ("red", ("console",))
    assert first.red_gate_rows[0].findings[0].startswith(HOSTILE)


def test_timeline_and_status_per_view(tmp_path: Path) -> None:
    report = _collect(build_run(tmp_path))
    assert (report.status, report.run_state, report.mode) == ("BLOCKED", "finished", "headless")
    populated, empty = _view(report, POPULATED), _view(report, EMPTY)
    assert [v.slug for v in report.views] == [POPULATED, EMPTY]  # spec order
    assert (populated.status, empty.status) == ("DONE", "BLOCKED")
    assert [r.kind for r in populated.timeline] == ["judged", "confirmed"]
    assert populated.timeline[1].confirmed_unchanged and populated.timeline[1].passes == 2
    assert [r.verdict for r in empty.timeline] == ["", "fail"]
    assert empty.timeline[1].implementer == "DONE"
    assert empty.timeline[1].failed_dimensions == ("typography",)
    assert populated.signoff is not None and populated.signoff.spotcheck.status == "approved"
    assert empty.signoff is None


def test_large_renders_are_downscaled_and_still_diffed(tmp_path: Path) -> None:
    built = build_run(tmp_path, render_size=(2400, 1500))
    write_png(built.spec_dir / "references" / f"{POPULATED}.png", (2400, 1500), (40, 200, 90))
    view = _view(_collect(built), POPULATED)
    render, _, diff = view.pictures
    assert render.width == MAX_EMBED_WIDTH and render.height == 600
    assert "2400×1500" in render.note and "shown at 960×600" in render.note
    assert diff.data_uri is not None
    assert "pixels differ" in view.diff_stats and "(0.00%)" not in view.diff_stats


def test_a_reference_of_another_size_is_still_compared(tmp_path: Path) -> None:
    built = build_run(tmp_path)
    write_png(built.spec_dir / "references" / f"{EMPTY}.png", (320, 260), (200, 60, 40))
    view = _view(_collect(built), EMPTY)
    assert "sizes differ: render 320×200, reference 320×260" in view.diff_stats
    assert view.pictures[2].data_uri is not None


def test_missing_images_are_notes_not_failures(tmp_path: Path) -> None:
    built = build_run(tmp_path)
    (built.spec_dir / "references" / f"{EMPTY}.png").unlink()
    (built.view_dir(EMPTY) / "iteration-2" / "render.png").write_bytes(b"not a png")
    view = _view(_collect(built), EMPTY)
    render, reference, diff = view.pictures
    assert render.data_uri is None and "not a PNG" in render.note
    assert reference.data_uri is None and reference.note == "no reference image for this view"
    assert diff.data_uri is None


def test_run_record_gives_final_statuses_and_notes(tmp_path: Path) -> None:
    built = build_run(tmp_path)
    write_json(
        built.runs_dir / "run.json",
        {
            "run_id": built.run_id,
            "status": "finished",
            "final_status": "DONE_WITH_CONCERNS",
            "views": {
                EMPTY: {
                    "status": "DONE_WITH_CONCERNS",
                    "detail": "signed off",
                    "concerns": ["frozen: typography"],
                },
            },
            "notes": ["HE-2: spot-check cart-populated-light"],
        },
    )
    report = _collect(built)
    assert report.status == "DONE_WITH_CONCERNS"
    assert report.notes[0] == "HE-2: spot-check cart-populated-light"
    empty = _view(report, EMPTY)
    assert (empty.status, empty.concerns) == ("DONE_WITH_CONCERNS", ("frozen: typography",))
    page = write_report(built.root, FEATURE).read_text(encoding="utf-8")
    assert "<strong>Concern:</strong> frozen: typography" in page  # not frozen in state.json
    assert "HE-2: spot-check cart-populated-light" in page


def test_frozen_dimensions_are_marked_loudly(tmp_path: Path) -> None:
    built = build_run(tmp_path)
    write_json(built.view_dir(EMPTY) / "state.json", {"iteration": 2, "frozen": ["typography"]})
    report = _collect(built)
    empty = _view(report, EMPTY)
    assert empty.frozen == ("typography",)
    assert empty.verdict is not None
    assert [d.name for d in empty.verdict.dimensions if d.frozen] == ["typography"]
    page = write_report(built.root, FEATURE).read_text(encoding="utf-8")
    assert ">FROZEN</span>" in page and "<strong>Frozen:</strong> typography" in page


def test_events_stand_in_when_the_files_are_gone(tmp_path: Path) -> None:
    built = build_run(tmp_path)
    shutil.rmtree(built.view_dir(EMPTY))
    empty = _view(_collect(built), EMPTY)
    assert [r.iteration for r in empty.timeline] == [1, 2]
    assert empty.timeline[0].gates == "red"
    assert empty.verdict is not None and empty.verdict.outcome == "fail"
    assert empty.pictures[0].data_uri is None
    assert "no longer on disk" in empty.pictures[0].note


def test_a_later_run_owning_the_directory_hides_its_renders(tmp_path: Path) -> None:
    built = build_run(tmp_path)
    with RunStore.open(built.root) as store:
        later = store.start_run(FEATURE, "headless")
    (built.view_dir(POPULATED) / "run-id.txt").write_text(later + "\n")
    report = _collect(built, built.run_id)
    populated = _view(report, POPULATED)
    assert populated.pictures[0].data_uri is None
    assert [r.kind for r in populated.timeline] == ["judged", "confirmed"]  # from the events
    assert any(later in note for note in report.notes)


def test_latest_link_follows_only_the_latest_run(tmp_path: Path) -> None:
    built = build_run(tmp_path)
    first = write_report(built.root, FEATURE)
    latest = built.runs_dir / LATEST_NAME
    assert latest.read_text(encoding="utf-8") == first.read_text(encoding="utf-8")
    with RunStore.open(built.root) as store:
        second = store.start_run(FEATURE, "interactive")
    write_report(built.root, FEATURE)  # the latest run: report.html now shows it
    assert second in latest.read_text(encoding="utf-8")
    older = write_report(built.root, FEATURE, built.run_id)
    assert older.name == report_name(built.run_id)
    assert second in latest.read_text(encoding="utf-8")  # an older run leaves it alone


def test_report_files_are_readable_like_any_file_the_user_creates(tmp_path: Path) -> None:
    built = build_run(tmp_path)
    old = os.umask(0o022)
    try:
        path = write_report(built.root, FEATURE)
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    assert stat.S_IMODE((built.runs_dir / LATEST_NAME).stat().st_mode) == 0o644


def test_out_writes_exactly_there(tmp_path: Path) -> None:
    built = build_run(tmp_path / "repo")
    out = tmp_path / "elsewhere" / "r.html"
    assert write_report(built.root, FEATURE, out=out) == out
    assert out.is_file() and not (built.runs_dir / LATEST_NAME).exists()


@pytest.mark.parametrize(
    ("feature", "run_id", "message"),
    [
        ("nope", None, "no runs recorded for feature 'nope'; run 'argus loop --feature nope'"),
        (FEATURE, "19990101T000000Z-abcdef", "no run '19990101T000000Z-abcdef' recorded"),
    ],
)
def test_no_such_run_is_bad_input(
    tmp_path: Path, feature: str, run_id: str | None, message: str
) -> None:
    built = build_run(tmp_path)
    with pytest.raises(InputError, match=re.escape(message)):
        write_report(built.root, feature, run_id)


def test_a_repository_without_a_store_has_no_runs_and_gets_none(tmp_path: Path) -> None:
    (tmp_path / "argus.toml").write_text("")
    with pytest.raises(InputError, match="no runs recorded"):
        write_report(tmp_path, None)
    assert not (tmp_path / ".argus").exists()  # reading never creates a store


def test_without_a_feature_the_latest_run_of_any_feature_is_reported(tmp_path: Path) -> None:
    built = build_run(tmp_path)
    path = write_report(built.root, None)
    assert path.parent == built.runs_dir and built.run_id in path.name


def test_a_later_contract_run_is_not_reported_as_a_loop_run(tmp_path: Path) -> None:
    built = build_run(tmp_path)
    with RunStore.open(built.root) as store:  # as argus.contract._ledger opens one
        store.open_run("contract/ship-it/0123", "contract/ship-it", CONTRACT_MODE)
    path = write_report(built.root, None)
    assert path.parent == built.runs_dir and built.run_id in path.name
    assert not (built.root / "argus" / "specs" / "contract").exists()
    with pytest.raises(
        InputError, match=r"is a contract run, not a loop's.*contract status ship-it"
    ):
        write_report(built.root, None, "contract/ship-it/0123")


def test_report_only_runs_are_read_from_their_own_store(tmp_path: Path) -> None:
    built = build_run(tmp_path)
    report_only = built.runs_dir / "report-only"
    with RunStore.open(report_only) as store:
        dry = store.start_run(FEATURE, "report-only")
        store.finish_run(dry, "DONE")
    path = write_report(built.root, FEATURE, dry)
    assert path.parent == report_only
    page = path.read_text(encoding="utf-8")
    assert "report-only" in page and "This run recorded no view." in page


def test_candidate_reference_is_labelled(tmp_path: Path) -> None:
    built = build_run(tmp_path)
    spec = json.loads((built.spec_dir / "spec.json").read_text())
    spec["targets"][0]["references"][1]["status"] = "candidate"
    write_json(built.spec_dir / "spec.json", spec)
    write_png(built.runs_dir / "candidates" / f"{EMPTY}.png", (320, 200), (9, 9, 9))
    reference = _view(_collect(built), EMPTY).pictures[1]
    assert reference.label == "Candidate reference (awaiting approval)"
    assert reference.data_uri is not None


def test_an_invalid_spec_still_gets_a_report(tmp_path: Path) -> None:
    built = build_run(tmp_path)
    (built.spec_dir / "spec.json").write_text("{ not json")
    report = _collect(built)
    assert {v.slug for v in report.views} == {POPULATED, EMPTY}
    assert any("spec not used" in note for note in report.notes)
    # Without the spec, references are found at their default place.
    assert _view(report, POPULATED).pictures[1].data_uri is not None


def test_a_spotcheck_the_run_store_does_not_hold_reads_pending(tmp_path: Path) -> None:
    built = build_run(tmp_path)
    signoff = built.root / "argus" / "specs" / FEATURE / ".argus-runs" / "signoff.json"
    data = json.loads(signoff.read_text())
    data["records"][0]["human_spotcheck"] = {"status": "wrong", "wrong_dimension": "hierarchy"}
    signoff.write_text(json.dumps(data))  # not what the person decided (approved)
    populated = _view(_collect(built), POPULATED)
    assert populated.signoff is not None and populated.signoff.spotcheck.status == "pending"


def test_a_gate_list_without_a_wcag_gate_is_a_note(tmp_path: Path) -> None:
    built = build_run(tmp_path)
    assert not any("WCAG" in note for note in _collect(built).notes)  # the default list
    (built.root / "argus.toml").write_text(
        '[gates]\nenabled = ["a11y_ids", "axe", "rendered_contrast", "token_contrast"]\n',
        encoding="utf-8",
    )
    (note,) = [n for n in _collect(built).notes if "WCAG" in n]
    assert note.startswith("argus.toml [gates] enabled: the project's gate list lacks")
    assert "focus_visible (2.4.7 Focus Visible)" in note
    page = write_report(built.root, FEATURE).read_text(encoding="utf-8")
    assert "focus_visible (2.4.7 Focus Visible)" in page
