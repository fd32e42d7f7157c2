"""The static HTML report and the review page: the snapshot diff, and links to the page while
`argus ui` serves the repository."""

from __future__ import annotations

from pathlib import Path

from argus.report import write_report
from argus.report.collect import collect_report
from argus.report.select import find_run
from argus.store.ui_marker import RunningMarker
from tests.loop.fakeapp import FEATURE, make_repo
from tests.ui.support import changed_snapshot_repo, loop

LINK = 'href="http://127.0.0.1:9876/view/demo/list-a-light"'


def test_the_report_shows_the_snapshot_diff_of_a_changed_view(tmp_path: Path) -> None:
    root, _, _ = changed_snapshot_repo(tmp_path)
    (view,) = collect_report(root, find_run(root, FEATURE)).views
    assert view.snapshot is not None and view.snapshot.data_uri is not None
    assert view.snapshot_stats.startswith("768 of 768 pixels differ")
    page = write_report(root, FEATURE).read_text()
    assert "Snapshot diff (render against the baseline)" in page


def test_no_snapshot_diff_without_a_baseline(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [], reference="needed")
    loop(root)
    (view,) = collect_report(root, find_run(root, FEATURE)).views
    assert view.snapshot is None


def test_the_report_links_each_view_to_the_review_page_only_while_it_runs(
    tmp_path: Path,
) -> None:
    root, _, _ = changed_snapshot_repo(tmp_path)
    assert LINK not in write_report(root, FEATURE).read_text()
    with RunningMarker(root, "http://127.0.0.1:9876/"):
        assert LINK in write_report(root, FEATURE).read_text()
    assert LINK not in write_report(root, FEATURE).read_text()
