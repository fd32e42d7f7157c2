"""Warm pages: a browser context and page kept across views, reset in between.

Opening a page starts a renderer process, which costs 150-250 ms of the browser's time on a
small machine, more than navigating to a view. So each worker keeps its context and page, and
after a view the page is reset to what a fresh context would give the next view:

- the document is gone (``about:blank``), and with it its timers, workers and connections;
  other pages the view opened (popups) are closed;
- no cookies; no local storage, IndexedDB, cache storage, service workers or file systems
  for any origin the view talked to; no session storage in the tab (cleared in each frame
  before leaving it, and again by the frame's last pagehide/unload listener, so a page that
  writes on the way out leaves nothing behind);
- no HTTP or memory cache, so an edited stylesheet is fetched again;
- no back/forward history and no ``window.name``.

Viewport and colour scheme are set per view anyway. A page that failed a view is not reused;
nor is one that has served ``MAX_VIEWS_PER_PAGE`` views (renderer memory stays bounded).

``PagePool`` hands the pages out, at most one per view running at once. It keeps no spare
page: a page resetting in the background while the next view loads on another doubled that
view's navigation time (both go through the browser process), more than waiting for the
reset (about 40 ms) costs; and between a loop's iterations the reset is done long before.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from playwright.async_api import Browser, BrowserContext, CDPSession, Frame, Page, Request
from playwright.async_api import Error as PlaywrightError

from argus.errors import SensorError

MAX_VIEWS_PER_PAGE = 100
RESET_TIMEOUT_S = 10.0

# Runs in every frame before the page leaves it; the listeners are added last, so they run
# after the page's own pagehide/unload handlers.
CLEAR_SESSION_STORAGE_JS = """() => {
  const clear = () => { try { sessionStorage.clear(); } catch (e) {} };
  clear();
  addEventListener("pagehide", clear);
  addEventListener("unload", clear);
}"""
# The tab's window.name outlives its documents.
CLEAR_WINDOW_NAME_JS = "() => { window.name = ''; }"


@dataclass(eq=False)
class WarmPage:
    """One worker's context and page, plus a CDP session of Argus's own on the page."""

    context: BrowserContext
    page: Page
    session: CDPSession
    views: int = 0
    origins: set[str] = field(default_factory=set)
    viewport: tuple[int, int] | None = None
    color_scheme: str | None = None
    effects_reported: bool = False  # the dead-control probe's init script is in the context
    # The dead-control probe's websocket route (argus.sense._controls.SocketHold), set once:
    # a context keeps the websocket routes it was given.
    socket_hold: Any = None

    @classmethod
    async def open(cls, browser: Browser, options: dict[str, Any]) -> WarmPage:
        context = await browser.new_context(**options)
        try:
            page = await context.new_page()
            session = await context.new_cdp_session(page)
        except PlaywrightError:
            with suppress(PlaywrightError):
                await context.close()
            raise
        warm = cls(context, page, session)
        page.on("request", warm._note_origin)
        return warm

    def _note_origin(self, request: Request) -> None:
        parts = urlsplit(request.url)
        if parts.scheme in ("http", "https") and parts.netloc:
            self.origins.add(f"{parts.scheme}://{parts.netloc}")
        elif parts.scheme == "file":
            self.origins.add("file://")  # every file: page shares Chromium's file origin

    @property
    def reusable(self) -> bool:
        return (
            self.views < MAX_VIEWS_PER_PAGE
            and not self.page.is_closed()
            and self.context.browser is not None
            and self.context.browser.is_connected()
        )

    async def reset(self) -> WarmPage:
        """Leave the view and clear what it left behind (see the module docstring).

        TimeoutError or a Playwright error when the page cannot be reset; the caller then
        closes it."""
        async with asyncio.timeout(RESET_TIMEOUT_S):
            await self._reset()
        return self

    async def _reset(self) -> None:
        await self.forget(self._clear_cache())

    async def forget(self, *also: Awaitable[None]) -> None:
        """Leave the document and clear what it stored (cookies, storage of every origin it
        talked to, window.name, history), keeping the HTTP cache; ``also`` runs beside.
        The dead-control probe's copy goes back to the view's starting point with it."""
        page = self.page
        await asyncio.gather(
            *(_clear_session_storage(frame) for frame in page.frames),
            *(other.close() for other in self.context.pages if other is not page),
        )
        # Its load waited for, not only its commit: until then the blank document is not the
        # page's active one, and resetting the history fails ("Not attached to an active
        # page"; measured: 2 of 50 forgets under load).
        await page.goto("about:blank")
        origins, self.origins = sorted(self.origins), set()
        send = self.session.send
        await asyncio.gather(
            page.evaluate(CLEAR_WINDOW_NAME_JS),
            self.context.clear_cookies(),
            *(
                send("Storage.clearDataForOrigin", {"origin": o, "storageTypes": "all"})
                for o in origins
            ),
            *also,
            send("Page.resetNavigationHistory"),
        )

    async def _clear_cache(self) -> None:
        # What Playwright does for a reused context: turning the cache off evicts the
        # renderer's memory cache; clearBrowserCache empties the context's HTTP cache.
        await self.session.send("Network.setCacheDisabled", {"cacheDisabled": True})
        await self.session.send("Network.setCacheDisabled", {"cacheDisabled": False})
        await self.session.send("Network.clearBrowserCache")

    async def close(self) -> None:
        with suppress(PlaywrightError):
            await self.context.close()


async def _clear_session_storage(frame: Frame) -> None:
    with suppress(PlaywrightError):
        await frame.evaluate(CLEAR_SESSION_STORAGE_JS)


class PagePool:
    """Warm pages for views run at most ``keep`` at once (see the module docstring).

    ``open_page`` opens a new page (SensorError when it cannot). Runs on the sensor's loop.
    """

    def __init__(self, open_page: Callable[[], Coroutine[Any, Any, WarmPage]], keep: int) -> None:
        self._open_page = open_page
        self.keep = max(1, keep)
        # Pages not in use, each behind the task that resets it.
        self._idle: list[asyncio.Task[WarmPage]] = []
        self._alive = 0  # pages open or opening, in use or idle
        self._closing: set[asyncio.Task[None]] = set()

    async def take(self) -> WarmPage:
        """A page ready for a view: a reset one when there is one, else a new one."""
        while self._idle:
            ready = [task for task in self._idle if task.done()]
            if not ready:
                await asyncio.wait(self._idle, return_when=asyncio.FIRST_COMPLETED)
                continue
            task = ready[0]
            self._idle.remove(task)
            try:
                warm = task.result()
            except (PlaywrightError, TimeoutError):
                self._alive -= 1  # the reset failed and closed it
                continue
            if warm.reusable:
                return warm
            self._close_later(warm)
        self._alive += 1
        try:
            return await self._open_page()
        except BaseException:
            self._alive -= 1
            raise

    def give_back(self, warm: WarmPage, reusable: bool) -> None:
        """Reset the page for a later view, in the background; or close it (a page that
        failed its view is not trusted with the next one)."""
        warm.views += 1
        if reusable and warm.reusable and self._alive <= self.keep:
            self._idle.append(asyncio.create_task(self._reset(warm)))
        else:
            self._close_later(warm)

    async def close(self) -> None:
        idle, self._idle = self._idle, []
        for task in idle:
            with suppress(PlaywrightError, SensorError, TimeoutError):
                await (await task).close()
        if self._closing:
            await asyncio.gather(*self._closing, return_exceptions=True)
        self._alive = 0

    @staticmethod
    async def _reset(warm: WarmPage) -> WarmPage:
        try:
            return await warm.reset()
        except (PlaywrightError, TimeoutError):
            await warm.close()
            raise

    def _close_later(self, warm: WarmPage) -> None:
        self._alive -= 1
        task = asyncio.create_task(warm.close())
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)
