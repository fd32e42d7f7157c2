"""One headless Chromium for a module's async-API tests, driven from plain (sync) tests.

    chromium = AsyncChromium()
    walk = chromium.run(lambda browser: measure(browser, html))   # an async function's result
    chromium.close()

Playwright's driver and the browser start once, on one event loop kept between calls, instead
of once per measurement (each start is a Node.js driver and a Chromium, a few seconds of CPU).
Each caller opens its own browser context, so no page, storage or renderer is shared between
two measurements: the browser process is the only thing they have in common.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

from playwright.async_api import Browser, Playwright, async_playwright

from argus.sense import discover_browser, launch_args

T = TypeVar("T")


class AsyncChromium:
    def __init__(self) -> None:
        self._runner = asyncio.Runner()
        self._playwright: Playwright = self._runner.run(async_playwright().start())
        self.browser: Browser = self._runner.run(
            self._playwright.chromium.launch(
                executable_path=discover_browser(), args=launch_args(), headless=True
            )
        )

    def run(self, measure: Callable[[Browser], Awaitable[T]]) -> T:
        """``measure(browser)``'s result, awaited on the browser's own event loop."""

        async def call() -> T:
            return await measure(self.browser)

        return self._runner.run(call())

    def close(self) -> None:
        try:
            self._runner.run(self.browser.close())
            self._runner.run(self._playwright.stop())
        finally:
            self._runner.close()
