"""One render pair, one answer: the pytest plugin, `argus gates` and the review page compare a
render with its baseline with the same options (the palette-measured threshold, the target's
masks) and so count the same differing pixels and give the same verdict.

The pair is a chart bar in the palette's blue (#2f5bd3) against the same bar in an off-palette
blue (#3d6be0): about 0.057 apart on pixelmatch's YIQ scale, so Playwright's default threshold
(0.1) sees nothing while the threshold measured from the palette (about 0.019) sees every bar
pixel.
"""

from __future__ import annotations

import json

import pytest

from argus.spec import View
from tests.support.one_comparison import (
    gate_snapshot,
    plugin_pair,
    plugin_record,
    review_card,
    write_plugin_project,
)

pytestmark = pytest.mark.browser

PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title>
<style>body {{ margin: 0; background: #ffffff; }}
.card {{ background: #f4f5f7; padding: 8px; }}</style></head>
<body><main class="card"><svg width="200" height="80" role="img" aria-label="Sales">
<rect x="10" y="10" width="60" height="60" fill="{fill}"></rect></svg>
<div id="clock" style="background: {clock}; width: 40px; height: 20px"></div>
<p class="ticker" style="background: {clock}; width: 40px; height: 10px; margin: 0"></p>
</main></body></html>
"""

TESTS = """
from pathlib import Path

URL = (Path(__file__).parent / "page.html").as_uri()


def test_chart(page, argus_snapshot):
    page.goto(URL)
    argus_snapshot(page, feature="demo", target="chart")
"""

TOKENS = {"colors": {"bg": "#ffffff", "surface": "#f4f5f7", "ink": "#111114", "primary": "#2f5bd3"}}
SPEC = {
    "feature": "demo",
    "adapter": "web",
    "design_system": {"tokens": "argus/specs/demo/tokens.json"},
    "targets": [
        {
            "id": "chart",
            "route": "/",
            "states": ["default"],
            "gates": ["snapshot"],
            # Volatile elements, masked: each surface paints them the same way or they
            # disagree. The ticker has only a class: its box is the one the probe recorded in
            # the page (probe.json masks), which every surface reads.
            "snapshot": {"masks": ["clock", "main > .ticker"]},
        }
    ],
}
VIEW = View("demo", "chart", "default", "light")


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    pytester.makefile(".toml", argus="")
    write_plugin_project(pytester.path, tests=TESTS, viewport=(240, 140))
    spec_dir = pytester.path / "argus" / "specs" / "demo"
    spec_dir.mkdir(parents=True)
    (spec_dir / "tokens.json").write_text(json.dumps(TOKENS))
    (spec_dir / "spec.json").write_text(json.dumps(SPEC))
    return pytester


def _page(project: pytest.Pytester, fill: str, clock: str) -> None:
    (project.path / "page.html").write_text(PAGE.format(fill=fill, clock=clock))


def test_the_plugin_the_gate_and_the_review_page_count_the_same_pixels(
    project: pytest.Pytester,
) -> None:
    root = project.path
    _page(project, "#2f5bd3", "#000000")
    recorded = plugin_record(project, "--update-snapshots")
    assert recorded["status"] == "written"
    _page(project, "#3d6be0", "#ff8800")  # the masked clock changed too: never counted
    plugin = plugin_record(project)

    # The gate and the review page read the very pair the plugin compared: its sensed render
    # and its baseline, put where the spec keeps them.
    sensed, baseline = plugin_pair(plugin, VIEW.slug)
    code, gate = gate_snapshot(root, VIEW, sensed, baseline, root / "gated")
    card = review_card(root, VIEW, sensed)
    assert card.snapshot is not None

    bar = 60 * 60  # every pixel of the bar, nothing of the masked clock and ticker
    assert plugin["mismatch"] == gate["data"]["mismatch"] == card.snapshot.mismatch == bar
    assert plugin["ok"] is False and plugin["status"] == "failed"
    assert (code, gate["status"]) == (1, "diff")
    assert card.snapshot.changed and card.matches("changed")
