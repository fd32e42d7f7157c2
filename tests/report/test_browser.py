"""The report in a real headless Chromium: it loads cleanly, offline, and shows every view."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from argus.report import write_report
from argus.sense.browser import discover_browser, launch_args
from tests.report.builder import EMPTY, FEATURE, HOSTILE, POPULATED, build_run

pytestmark = pytest.mark.browser

AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=discover_browser(), args=launch_args()
        )
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    built = build_run(tmp_path_factory.mktemp("repo"), render_size=(1600, 1000))
    return write_report(built.root, FEATURE)


def _open(browser: Browser, report: Path, scheme: str) -> tuple[Page, list[str]]:
    """The page, and every problem seen while loading: console errors, page errors, requests."""
    page = browser.new_page(color_scheme=scheme)  # type: ignore[arg-type]
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}"))
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"failed request: {r.url[:80]}"))
    page.on(
        "request",
        lambda r: (
            None
            if r.url == report.as_uri() or r.url.startswith("data:")
            else problems.append(f"request: {r.url[:80]}")
        ),
    )
    page.goto(report.as_uri(), wait_until="load")
    return page, problems


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_report_loads_cleanly_and_shows_every_view(
    browser: Browser, report: Path, scheme: str
) -> None:
    page, problems = _open(browser, report, scheme)
    try:
        for slug in (POPULATED, EMPTY):
            heading = page.get_by_role("heading", name=slug, level=2, exact=True)
            assert heading.is_visible()
            article = page.locator("article", has=heading)
            for alt in (f"Render of {slug}", "image for " + slug, "Differences between"):
                image = article.locator(f'img[alt*="{alt}"]')
                assert image.count() == 1
                assert image.evaluate("img => img.complete && img.naturalWidth > 0")
        # The hostile probe name is shown as text, never run.
        assert page.get_by_text(f"heading named {HOSTILE} is 13px").count() == 1
        background = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
        dark = background == "rgb(20, 21, 23)"
        assert dark == (scheme == "dark"), background
        assert problems == []
    finally:
        page.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_report_has_no_accessibility_violations(
    browser: Browser, report: Path, scheme: str
) -> None:
    from axe_playwright_python.sync_playwright import Axe

    page, _ = _open(browser, report, scheme)
    try:
        page.evaluate(Axe().axe_script)
        raw = page.evaluate(
            """async (tags) => JSON.stringify((await axe.run(document, {
                runOnly: {type: "tag", values: tags}})).violations.map(v => ({
                id: v.id, nodes: v.nodes.map(n => n.target)})))""",
            AXE_TAGS,
        )
        assert json.loads(raw) == []
    finally:
        page.close()
