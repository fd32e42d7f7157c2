"""One render pair, one answer, on the Dashboard example (issue 25): its seeded off-palette bar
(defects.json ``chart_off_palette``: the North bar #3d6be0 instead of chart-1 #2f5bd3) through
the pytest plugin, `argus gates` and the review page. The three compare the very same render
with the same baseline, with the same palette-measured threshold, and so count the same
differing pixels and all fail, where the plugin once compared with Playwright's default
threshold (0.1) and saw nothing."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from argus.spec import View
from tests.support.dashboard import copy_dashboard, load_dashboard_defects
from tests.support.habits import apply_defect
from tests.support.one_comparison import (
    gate_snapshot,
    plugin_pair,
    plugin_record,
    review_card,
    write_plugin_project,
)

pytestmark = pytest.mark.browser

VIEW = View("dashboard", "overview", "populated", "light")
TESTS = """
URL = "{url}/?argus_fixture=populated"


def test_overview(page, argus_snapshot):
    page.goto(URL)
    page.locator('[data-testid="chart.revenue"] rect.bar').first.wait_for()
    page.locator('[data-testid="orders.rows"] tr').first.wait_for()
    argus_snapshot(page, feature="dashboard", target="overview")
"""
(OFF_PALETTE,) = [d for d in load_dashboard_defects() if d.name == "chart_off_palette"]


def test_the_plugin_the_gate_and_the_review_page_agree_on_the_off_palette_bar(
    pytester: pytest.Pytester,
    monkeypatch: pytest.MonkeyPatch,
    serve: Callable[[Path], str],
) -> None:
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    root = copy_dashboard(pytester.path)
    write_plugin_project(root, tests=TESTS.format(url=serve(root)), viewport=(1280, 1000))
    recorded = plugin_record(pytester, "--update-snapshots")
    assert recorded["status"] == "written", recorded
    apply_defect(root, OFF_PALETTE)
    plugin = plugin_record(pytester)

    sensed, baseline = plugin_pair(plugin, VIEW.slug)
    code, gate = gate_snapshot(root, VIEW, sensed, baseline, pytester.path / "gated")
    card = review_card(root, VIEW, sensed)
    assert card.snapshot is not None

    mismatch = plugin["mismatch"]
    # Every pixel of the North bar (96 px wide, up to 112 tall) and nothing else.
    assert isinstance(mismatch, int) and 96 * 100 < mismatch <= 96 * 112, plugin["message"]
    assert gate["data"]["mismatch"] == card.snapshot.mismatch == mismatch
    assert plugin["ok"] is False and plugin["status"] == "failed"
    assert (code, gate["status"]) == (1, "diff")
    assert card.snapshot.changed and card.matches("changed")
