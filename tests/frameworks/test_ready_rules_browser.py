"""Each framework's ready rule on pages of our own that show, or do not show, that framework's
busy markers (the markers read from the installed packages' scripts: docs/frameworks.md), in a
real Chromium, through the sensor's settle watch."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from playwright.async_api import async_playwright

from argus.frameworks import get_framework
from argus.sense import discover_browser, launch_args
from argus.sense.framework_settle import FrameworkSettle

pytestmark = pytest.mark.browser

BUSY_S = 0.3  # how long a busy page is given: it never settles, whatever the wait

STREAMLIT_APP = (
    '<div data-testid="stApp" data-test-connection-state="{c}" data-test-script-state="{s}">'
    "app</div>"
)
DASH_ROOT = '<div id="react-entry-point">{inside}</div>'
GRADIO = '<div class="gradio-container">{inside}</div>'
NICEGUI = (
    '<div id="app"><div>page</div></div><div id="popup" aria-hidden="{popup}"></div>'
    "<script>window.did_handshake = {handshake};</script>"
)
PANEL = "<script>window.Bokeh = {{documents: [{docs}]}};</script>{inside}"

CASES: dict[str, list[tuple[str, bool]]] = {
    "streamlit": [
        (STREAMLIT_APP.format(c="CONNECTED", s="notRunning"), True),
        (STREAMLIT_APP.format(c="CONNECTED", s="running"), False),
        (STREAMLIT_APP.format(c="CONNECTED", s="initial"), False),
        (STREAMLIT_APP.format(c="CONNECTING", s="notRunning"), False),
        (
            STREAMLIT_APP.format(c="CONNECTED", s="notRunning")
            + '<div data-testid="stSpinner"></div>',
            False,
        ),
        ("<div>no app root</div>", False),
    ],
    "dash": [
        (DASH_ROOT.format(inside="<div>layout</div>"), True),
        (DASH_ROOT.format(inside='<div class="_dash-loading">Loading...</div>'), False),
        (
            DASH_ROOT.format(inside="<div>layout</div>")
            + '<div class="_dash-loading-callback"></div>',
            False,
        ),
        (DASH_ROOT.format(inside='<div data-dash-is-loading="true">graph</div>'), False),
        (DASH_ROOT.format(inside=""), False),
    ],
    "gradio": [
        (GRADIO.format(inside='<div data-testid="status-tracker" class="wrap hide"></div>'), True),
        (GRADIO.format(inside='<div data-testid="status-tracker" class="wrap"></div>'), False),
        (GRADIO.format(inside='<div class="generating">...</div>'), False),
        ('<div data-testid="status-tracker" class="wrap hide"></div>', False),
    ],
    "nicegui": [
        (NICEGUI.format(popup="true", handshake="true"), True),
        (NICEGUI.format(popup="true", handshake="false"), False),
        (NICEGUI.format(popup="false", handshake="true"), False),
    ],
    "panel": [
        (PANEL.format(docs="{is_idle: true}, {is_idle: true}", inside=""), True),
        (PANEL.format(docs="{is_idle: true}, {is_idle: false}", inside=""), False),
        (PANEL.format(docs="", inside=""), False),
        (PANEL.format(docs="{is_idle: true}", inside='<div class="pn-loading"></div>'), False),
    ],
    "server-rendered": [
        ('<button hx-post="/x">Go</button>', True),
        ('<button class="htmx-request">Go</button>', False),
        ('<div class="htmx-swapping"></div>', False),
        ('<div class="htmx-settling"></div>', False),
        ('<div class="htmx-added"></div>', False),
    ],
}


async def _settles_all() -> dict[str, list[bool]]:
    """Every case of every framework, in one browser."""
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=discover_browser(), args=launch_args(), headless=True
        )
        try:
            page = await browser.new_page()
            outcomes: dict[str, list[bool]] = {}
            for name, cases in CASES.items():
                framework = get_framework(name)
                outcomes[name] = []
                for markup, _ in cases:
                    await page.set_content(f"<!doctype html><html><body>{markup}</body></html>")
                    watch = FrameworkSettle(page, framework)
                    try:
                        outcomes[name].append(await watch.wait(BUSY_S))
                    finally:
                        watch.detach()
            return outcomes
        finally:
            await browser.close()


@pytest.fixture(scope="module")
def settled() -> dict[str, list[bool]]:
    return asyncio.run(_settles_all())


@pytest.mark.parametrize("name", list(CASES))
def test_the_rule_settles_only_a_page_without_busy_markers(
    name: str, settled: dict[str, list[bool]]
) -> None:
    assert settled[name] == [idle for _, idle in CASES[name]]


async def _waits_for_a_swap() -> tuple[bool, bool]:
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=discover_browser(), args=launch_args(), headless=True
        )
        try:
            page = await browser.new_page()
            await page.set_content(
                '<!doctype html><div id="row" class="htmx-swapping"></div><script>'
                "setTimeout(() => { const row = document.getElementById('row');"
                " row.textContent = 'figures'; row.className = ''; }, 400);</script>"
            )
            watch = FrameworkSettle(page, get_framework("server-rendered"))
            settled = await watch.wait(10.0)
            swapped = await page.evaluate("() => document.getElementById('row').textContent")
            return settled, swapped == "figures"
        finally:
            await browser.close()


def test_a_page_that_finishes_its_work_settles_after_it() -> None:
    assert asyncio.run(_waits_for_a_swap()) == (True, True)


def test_the_pytest_plugins_page_waits_for_the_rule_too(tmp_path: Path) -> None:
    # A test's page (the sync API, already loaded): the same rule before the capture, with a
    # spec target (sense_page) or without one (check_view's plain capture, below).
    from playwright.sync_api import sync_playwright

    from argus.errors import SensorError
    from argus.sense.framework_settle import settle_framework_sync
    from argus.testing import Settings, Where, check_view

    busy_then_done = (
        '<!doctype html><div id="row" class="htmx-request"></div><script>'
        "setTimeout(() => { const row = document.getElementById('row');"
        " row.textContent = 'figures'; row.className = ''; }, 400);</script>"
    )
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=discover_browser(), args=launch_args(), headless=True
        )
        try:
            page = browser.new_page(viewport={"width": 200, "height": 100})
            page.set_content(busy_then_done)
            settle_framework_sync(page, "server-rendered", 10.0)
            assert page.evaluate("() => document.getElementById('row').textContent") == "figures"
            settle_framework_sync(page, "", 0.1)  # no framework: nothing to wait for
            page.set_content('<!doctype html><div class="htmx-request"></div>')
            with pytest.raises(SensorError, match=r"never settled in 0\.3s"):
                settle_framework_sync(page, "server-rendered", BUSY_S)

            # The render is of the page once the row is filled: the same image as a shot taken
            # when everything is over (a capture while the request class was on would show
            # the empty row).
            page.set_content(busy_then_done.replace("400", "4000"))
            where = Where(baseline=tmp_path / "base.png", out_dir=tmp_path / "out")
            settings = Settings(framework="server-rendered", settle_timeout=10.0)
            result = check_view(page, "row", where, settings)
            assert page.evaluate("() => document.getElementById('row').textContent") == "figures"
            final = page.screenshot(type="png", animations="disabled", caret="hide", scale="css")
            assert result.render.read_bytes() == final
        finally:
            browser.close()
