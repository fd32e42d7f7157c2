"""One render pair through the three surfaces that compare it with its baseline: the pytest
plugin (an inner pytest run by ``pytester``), `argus gates` (in-process) and the review page's
card (argus.ui._catalog), so a test can show they count the same pixels.

    write_plugin_project(root, tests=TESTS, viewport=(1280, 1000))
    record = plugin_record(pytester, "--update-snapshots")   # the plugin's one assertion
    sensed, baseline = plugin_pair(record)                    # the pair it compared
    code, snapshot = gate_snapshot(root, view, sensed, baseline, out)
    card = review_card(root, view, sensed)
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from argus.cli import main
from argus.spec import View
from argus.ui._catalog import ViewCard, feature_runs

# The plug-ins every inner pytest run leaves out. pytest-playwright's cannot load twice in one
# process. Dash's (the frameworks extra) is left out as the project's own addopts leave it out
# (pyproject.toml): an inner run in a pytester directory does not read those, so each one
# imported all of Dash and rewrote its modules' asserts (1.3 s of a 1.9 s inner run, profiled),
# and pytester drops what an inner run imported, so the next one paid again.
INNER_PLUGINS_OFF = ("-p", "no:playwright", "-p", "no:dash", "-p", "no:cacheprovider")

# The inner project's conftest: one Chromium as Argus launches it, a page at ``viewport``.
CONFTEST = """
import pytest
from playwright.sync_api import sync_playwright
from argus.testing import context_options, launch_options


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(**launch_options())
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    viewport = {{"width": {width}, "height": {height}}}
    context = browser.new_context(**context_options(), viewport=viewport)
    page = context.new_page()
    yield page
    context.close()
"""


def write_plugin_project(root: Path, *, tests: str, viewport: tuple[int, int]) -> None:
    """The conftest and ``tests`` (test_views.py) of an inner pytest run in ``root``."""
    width, height = viewport
    (root / "conftest.py").write_text(CONFTEST.format(width=width, height=height))
    (root / "test_views.py").write_text(tests)


def plugin_record(project: pytest.Pytester, *args: str) -> dict[str, object]:
    """Run the inner pytest in this process; its one argus_snapshot assertion's record."""
    report = project.path / "argus-report.json"
    project.runpytest_inprocess(*INNER_PLUGINS_OFF, "--argus-report", str(report), *args)
    (record,) = json.loads(report.read_text())["assertions"]
    assert isinstance(record, dict)
    return record


def plugin_pair(record: dict[str, object], slug: str) -> tuple[Path, Path]:
    """The sensed directory and the baseline the plugin compared for view ``slug``."""
    sensed = Path(str(record["render"])).parent / f"{slug}-sensed"
    return sensed, Path(str(record["baseline"]))


def _spec_dir(root: Path, view: View) -> Path:
    return root / "argus" / "specs" / view.feature


def gate_snapshot(
    root: Path, view: View, sensed: Path, baseline: Path, out: Path
) -> tuple[int, dict[str, Any]]:
    """`argus gates` on ``sensed`` with ``baseline`` put where the spec keeps it: the exit code
    and the snapshot gate's details."""
    kept = _spec_dir(root, view) / "__snapshots__" / f"{view.slug}.png"
    kept.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(baseline, kept)
    code = main(
        [
            *("gates", "--root", str(root), "--feature", view.feature, "--target", view.target),
            *("--state", view.state, "--appearance", view.appearance),
            *("--sensed", str(sensed), "--out", str(out), "--update-snapshots", "none"),
        ]
    )
    result = json.loads((out / "gate-result.json").read_text())
    snapshot = result["details"]["snapshot"]
    assert isinstance(snapshot, dict)
    return code, snapshot


def review_card(root: Path, view: View, sensed: Path) -> ViewCard:
    """The review page's card for ``view`` with ``sensed`` as its first iteration (the
    baseline already put in place by gate_snapshot)."""
    iteration = _spec_dir(root, view) / ".argus-runs" / view.slug / "iteration-1"
    iteration.mkdir(parents=True)
    for name in ("render.png", "probe.json", "meta.json"):
        shutil.copyfile(sensed / name, iteration / name)
    (card,) = [c for c in feature_runs(root, view.feature).views if c.view == view]
    return card
