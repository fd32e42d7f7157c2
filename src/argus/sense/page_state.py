"""Bring a freshly loaded page to rest: fonts, network, animations, caret, layout."""

from __future__ import annotations

import asyncio
import time

from playwright.async_api import Page, Request

# Injected after load: nothing moves, nothing blinks, nothing scrolls smoothly.
FREEZE_CSS = """
*, *::before, *::after {
  transition: none !important;
  animation-delay: 0s !important;
  animation-duration: 0s !important;
  animation-iteration-count: 1 !important;
  caret-color: transparent !important;
  scroll-behavior: auto !important;
}
"""

# Two animation frames: the second runs after the first frame painted the last change.
TWO_FRAMES_JS = (
    "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))"
)
FONTS_READY_JS = "() => document.fonts.ready.then(() => true)"
NETWORK_QUIET_S = 0.1


class NetworkMonitor:
    """Counts the page's requests in flight; idle means none for a short quiet window.

    Playwright's own 'networkidle' waits a fixed 500 ms; a quiet window of 100 ms after the
    last request settles is enough for fixture-driven pages and keeps sensing fast.
    """

    def __init__(self, page: Page) -> None:
        self._page = page
        self._inflight: set[Request] = set()
        self._last = time.monotonic()
        page.on("request", self._started)
        page.on("requestfinished", self._ended)
        page.on("requestfailed", self._ended)

    def detach(self) -> None:
        self._page.remove_listener("request", self._started)
        self._page.remove_listener("requestfinished", self._ended)
        self._page.remove_listener("requestfailed", self._ended)

    def _started(self, request: Request) -> None:
        self._inflight.add(request)
        self._last = time.monotonic()

    def _ended(self, request: Request) -> None:
        self._inflight.discard(request)
        self._last = time.monotonic()

    async def wait_idle(self, timeout: float, quiet: float = NETWORK_QUIET_S) -> bool:
        """True once idle; False when ``timeout`` seconds pass with requests still going."""
        deadline = time.monotonic() + timeout
        while True:
            now = time.monotonic()
            if not self._inflight and now - self._last >= quiet:
                return True
            if now >= deadline:
                return False
            await asyncio.sleep(0.01)
