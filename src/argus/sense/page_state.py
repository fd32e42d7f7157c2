"""Bring a freshly loaded page to rest: fonts, network, animations, caret, layout."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from contextlib import suppress
from typing import Any

from playwright.async_api import CDPSession, Page, Request
from playwright.async_api import Error as PlaywrightError

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
# The settle's first steps in one evaluation (one round trip, not three): the freeze
# stylesheet added as Playwright's add_style_tag adds it (into head, awaited until loaded),
# fonts ready, then, when ``frames`` is true, two animation frames drawn after both. Its
# argument is ``{css, frames}``.
SETTLE_JS = """async ({css, frames}) => {
  const style = document.createElement("style");
  style.type = "text/css";
  style.appendChild(document.createTextNode(css));
  const loaded = new Promise((ok, fail) => { style.onload = ok; style.onerror = fail; });
  document.head.appendChild(style);
  await loaded;
  await document.fonts.ready;
  if (frames) await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  return true;
}"""
# The freeze stylesheet SETTLE_JS added, taken out again (by its text, so no handle has to be
# kept): for a page that is the caller's, as the pytest plugin's is. Its argument is the css.
UNFREEZE_JS = """(css) => {
  for (const style of document.querySelectorAll("style")) {
    if (style.textContent === css) style.remove();
  }
}"""
NETWORK_QUIET_S = 0.05
POLL_S = 0.01
# A websocket's opening handshake, as the renderer tells a CDP session with Network on: from
# its creation until the server's answer, or until it closed without one (a refused port).
SOCKET_OPENED = ("Network.webSocketHandshakeResponseReceived", "Network.webSocketClosed")
# Network on for the sockets' handshakes only: no response body is kept for this session.
NETWORK_ENABLE = {"maxTotalBufferSize": 0, "maxResourceBufferSize": 0}


async def watch_sockets(session: CDPSession) -> None:
    """Turn Network on in ``session`` (once, for the page's life), so a ``NetworkMonitor``
    given it sees websocket handshakes."""
    await session.send("Network.enable", NETWORK_ENABLE)


class NetworkMonitor:
    """Counts the page's requests in flight and says when the network is quiet.

    Quiet: nothing in flight, and nothing started or ended for ``NETWORK_QUIET_S`` since the
    last request ended nor while the page rendered two frames after it. The frames are the
    page's own word that it has had its turn: what a response handler starts next (the next
    fixture, an image the new markup needs) is issued before they are drawn, and a page whose
    main thread was busy runs its overdue timers before it draws, so a stall never passes for
    quiet. The time window keeps a page that polls faster than it (every 30 ms, say) busy.
    Playwright's 'networkidle' waits a fixed 500 ms; this sensor waited a fixed 100 ms before.

    With ``session`` (a CDP session of the page with Network on, ``watch_sockets``) a
    websocket counts as in flight until its opening handshake is answered: a page that shows
    or enables what it has only once its socket is open is not at rest before, and a control
    that sends on the socket would find it still connecting. Playwright tells no request event
    for a websocket, nor when one opened.
    """

    def __init__(self, page: Page, session: CDPSession | None = None) -> None:
        self._page = page
        self._session = session
        self._inflight: set[Request] = set()
        self._sockets: set[str] = set()  # the CDP request ids of sockets still opening
        self._events = 0
        self._last = time.monotonic()
        # Set by every request event, so the waits below end on the event, not on a poll.
        self._changed = asyncio.Event()
        self.early: Any = None
        page.on("request", self._started)
        page.on("requestfinished", self._ended)
        page.on("requestfailed", self._ended)
        if session is not None:
            for event, listener in self._socket_events():
                session.on(event, listener)

    def _socket_events(self) -> list[tuple[str, Any]]:
        return [("Network.webSocketCreated", self._socket_started)] + [
            (event, self._socket_opened) for event in SOCKET_OPENED
        ]

    def detach(self) -> None:
        self._page.remove_listener("request", self._started)
        self._page.remove_listener("requestfinished", self._ended)
        self._page.remove_listener("requestfailed", self._ended)
        if self._session is not None:
            for event, listener in self._socket_events():
                self._session.remove_listener(event, listener)

    @property
    def _busy(self) -> bool:
        return bool(self._inflight or self._sockets)

    def _socket_started(self, event: dict[str, Any]) -> None:
        self._sockets.add(str(event.get("requestId")))
        self._moved()

    def _socket_opened(self, event: dict[str, Any]) -> None:
        self._sockets.discard(str(event.get("requestId")))
        self._moved()

    def _started(self, request: Request) -> None:
        self._inflight.add(request)
        self._moved()

    def _ended(self, request: Request) -> None:
        self._inflight.discard(request)
        self._moved()

    def _moved(self) -> None:
        self._events += 1
        self._last = time.monotonic()
        self._changed.set()

    def mark(self) -> int | None:
        """Where the network stands before frames are drawn by a caller's own evaluation:
        None when a request is in flight, else the count of request events so far. Handed
        to ``wait_idle(drawn=...)`` once the frames are drawn."""
        return None if self._busy else self._events

    async def _next_event(self, within: float) -> None:
        """Until the next request event, at most ``within`` seconds."""
        self._changed.clear()
        with suppress(TimeoutError):
            await asyncio.wait_for(self._changed.wait(), max(0.0, within))

    async def wait_idle(
        self,
        timeout: float,
        quiet: float = NETWORK_QUIET_S,
        beside: Callable[[], Awaitable[Any]] | None = None,
        drawn: int | None = None,
    ) -> bool:
        """True once quiet; False when ``timeout`` seconds pass first.

        ``drawn``: the page already drew two frames since ``mark()`` answered it (the
        settle's own evaluation draws them, SETTLE_JS): when nothing happened on the network
        since, those are the first look's frames and are not drawn again.

        ``beside`` (a screenshot) is started once the page drew its two frames with nothing in
        flight, and runs during the rest of the quiet window instead of after it. Its result
        is kept in ``early`` only when no request started or ended from before it began until
        it finished and the window closed: then it saw the page as one taken after the window
        would, at rest on the network. Otherwise ``early`` is None."""
        self.early = None
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            if self._busy:
                # Until a request ends (or starts), not a fixed poll.
                await self._next_event(left)
                continue
            seen = self._events
            if drawn is not None and drawn == seen:
                drawn = None  # the caller's frames: nothing happened since they were drawn
            else:
                drawn = None
                try:
                    await asyncio.wait_for(self._page.evaluate(TWO_FRAMES_JS), left)
                except TimeoutError:
                    return False
                except PlaywrightError:
                    # The document changed under the evaluation (a client-side redirect): look
                    # again.
                    await asyncio.sleep(POLL_S)
                    continue
            early = (
                asyncio.ensure_future(beside())
                if beside is not None and not self._busy and self._events == seen
                else None
            )
            try:
                rest = quiet - (time.monotonic() - self._last)
                if rest > 0 and self._events == seen:
                    # The rest of the window, ended early by a request event (then look again).
                    await self._next_event(min(rest, deadline - time.monotonic()))
                if not self._busy and self._events == seen:
                    if early is not None:
                        taken = await early
                        early = None
                        if self._events == seen:
                            self.early = taken
                    return True
            finally:
                if early is not None:
                    early.cancel()
                    with suppress(asyncio.CancelledError, PlaywrightError):
                        await early
        return False
