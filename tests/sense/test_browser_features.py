"""Chromium's feature switches: one of each kind, holding Playwright's list, Argus's and the
project's. Chromium reads only the last switch of a kind, and Playwright's comes first."""

from __future__ import annotations

import asyncio
import http.server
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import playwright
import pytest
from playwright.async_api import async_playwright

from argus.sense import browser
from argus.sense.browser import discover_browser, launch_args

SWITCHES = (
    "--disable-features",
    "--enable-features",
    "--disable-blink-features",
    "--enable-blink-features",
)


def _switches(args: list[str]) -> dict[str, list[str]]:
    """Each feature switch's names, failing when one kind comes twice (only the last counts)."""
    found: dict[str, list[str]] = {}
    for arg in args:
        switch, _, names = arg.partition("=")
        if switch in SWITCHES:
            assert switch not in found, f"{switch} passed twice: {args}"
            found[switch] = names.split(",")
    return found


def _driver_disabled_features() -> list[str]:
    """The features the installed Playwright driver turns off for Chromium, read from its
    JavaScript (a newer driver's list must not be switched back on by Argus's)."""
    lib = Path(playwright.__file__).parent / "driver" / "package" / "lib"
    candidates = [lib / "coreBundle.js", lib / "server" / "chromium" / "chromiumSwitches.js"]
    for path in candidates:
        if not path.is_file():
            continue
        found = re.search(r"disabledFeatures = \[(.*?)\]", path.read_text("utf-8"), re.S)
        if found:
            body = re.sub(r"//[^\n]*", "", found.group(1))
            return re.findall(r"[\"']([A-Za-z0-9]+)[\"']", body)
    raise AssertionError(f"no disabledFeatures list in {[str(p) for p in candidates]}")


def test_playwrights_own_disabled_features_stay_disabled() -> None:
    from_driver = _driver_disabled_features()
    assert "PaintHolding" in from_driver  # the reading found the list
    disabled = _switches(launch_args())["--disable-features"]
    assert [f for f in from_driver if f not in disabled] == []
    assert {"Translate", "SpareRendererForSitePerProcess"} <= set(disabled)


def test_the_projects_switches_join_argus_s() -> None:
    args = launch_args(
        [
            "--lang=en-US",
            "--disable-features=Foo,Translate",
            "--disable-blink-features=Bar",
            "--disable-features=Baz",
        ]
    )
    found = _switches(args)
    assert found["--disable-features"][-3:] == ["SpareRendererForSitePerProcess", "Foo", "Baz"]
    assert found["--disable-features"].count("Translate") == 1
    # navigator.webdriver stays hidden with the project's own blink switch.
    assert found["--disable-blink-features"] == ["AutomationControlled", "Bar"]
    assert "--enable-features" not in found and "--lang=en-US" in args


def test_enabled_features_carry_playwrights_when_the_project_enables_some(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("PLAYWRIGHT_LEGACY_SCREENSHOT", raising=False)
    enabled = _switches(launch_args(["--enable-features=Qux"]))["--enable-features"]
    assert enabled == [*browser.PLAYWRIGHT_ENABLED_FEATURES, "Qux"]
    assert "CDPScreenshotNewSurface" in enabled
    monkeypatch.setenv("PLAYWRIGHT_LEGACY_SCREENSHOT", "1")
    legacy = _switches(launch_args(["--enable-features=Qux"]))["--enable-features"]
    assert "CDPScreenshotNewSurface" not in legacy and legacy[-1] == "Qux"


@pytest.fixture
def page_url() -> Iterator[str]:
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = b"<!doctype html><p>copy</p>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@pytest.mark.browser
def test_pages_of_two_contexts_navigating_in_turn_start_no_renderer(page_url: str) -> None:
    """The dead-control probe's copies: each in a context of its own, leaving for a blank page
    and loading the view again in turn. With Chromium's spare renderer each such navigation
    started a renderer for the other context and threw it away (8 renderers for 2 pages)."""

    async def run() -> tuple[set[int], set[int]]:
        async with async_playwright() as pw:
            chromium = await pw.chromium.launch(
                executable_path=discover_browser(), args=launch_args(), headless=True
            )
            session = await chromium.new_browser_cdp_session()

            async def renderers() -> set[int]:
                info = await session.send("SystemInfo.getProcessInfo")
                return {int(p["id"]) for p in info["processInfo"] if p["type"] == "renderer"}

            pages = []
            for _ in range(2):
                context = await chromium.new_context()
                pages.append(await context.new_page())
                await pages[-1].goto(page_url)
            before, seen = await renderers(), set()
            for _ in range(4):
                for page in pages:
                    await page.goto("about:blank")
                    seen |= await renderers()
                    await page.goto(page_url)
                    seen |= await renderers()
            await chromium.close()
            return before, seen

    before, seen = asyncio.run(run())
    assert len(before) >= 2 and seen == before
