"""The focus walk on a sync-API page (the pytest plugin's) is the sensor's walk: the same
stops, the same method per stop and the same pixel counts as on the async API, forced groups
and real focus alike; and a walk that would need an event loop is refused, not half run."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import sync_playwright

from argus.sense import discover_browser, launch_args
from argus.sense._focus_driver import run_to_end
from argus.sense.focus_visible import focus_visibility_sync
from argus.sense.page_state import FREEZE_CSS
from tests.sense.test_focus_visible_browser import PAGES, STYLE, walk_both
from tests.support.chromium import AsyncChromium


@pytest.fixture(scope="module")
def chromium() -> Iterator[AsyncChromium]:
    """The async walks' browser, one for the module (each walk has contexts of its own)."""
    browser = AsyncChromium()
    yield browser
    browser.close()


def sync_walks(html: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The sync walk with a CDP session and without, on fresh pages as walk_both makes them."""
    walks = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=discover_browser(), args=launch_args(), headless=True
        )
        for batched in (True, False):
            context = browser.new_context(
                viewport={"width": 640, "height": 480}, device_scale_factor=1
            )
            page = context.new_page()
            session = context.new_cdp_session(page) if batched else None
            page.set_content(f"<!doctype html>{STYLE}<body>{html}</body>")
            page.add_style_tag(content=FREEZE_CSS)
            render = page.screenshot(animations="disabled", caret="hide")
            walks.append(focus_visibility_sync(page, render, session))
            context.close()
        browser.close()
    return walks[0], walks[1]


@pytest.mark.browser
@pytest.mark.parametrize("name", ["handler", "around"])
def test_the_sync_walk_measures_what_the_async_walk_measures(
    chromium: AsyncChromium, name: str
) -> None:
    forced, focused = sync_walks(PAGES[name])
    assert (forced, focused) == walk_both(chromium, PAGES[name])
    assert {s["method"] for s in focused["stops"]} == {"focused"}
    if name == "around":  # the forced measurement did run on the sync page
        assert "forced" in {s["method"] for s in forced["stops"]}
    assert any(s["changed_pixels"] == 0 for s in forced["stops"])  # a missing ring found


async def _answer() -> int:
    return 7


async def _suspends() -> int:
    await asyncio.sleep(0)
    return 7


def test_run_to_end_returns_a_walk_that_never_waits() -> None:
    assert run_to_end(_answer()) == 7


def test_run_to_end_refuses_a_walk_that_waits_for_async_work() -> None:
    with pytest.raises(RuntimeError, match="awaited async work on a sync driver"):
        run_to_end(_suspends())
