"""A framework's own word that its page is at rest (argus.frameworks), after a quiet network.

A Streamlit, NiceGUI or Panel page keeps a websocket open and redraws from what arrives on
it, and a Dash, Gradio or HTMX page renders from requests started by its own script, so a
quiet network alone can be the lull between two steps of the framework's work. Settled here:
the framework's ``ready`` function is true before and after the page draws two frames, and,
for a websocket framework, no frame crossed any of the page's websockets meanwhile nor for
``QUIET_S`` before. Polled until then: never a fixed sleep.
"""

from __future__ import annotations

import asyncio
import time

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page, WebSocket
from playwright.sync_api import Page as SyncPage

from argus.errors import SensorError
from argus.frameworks import Framework, get_framework
from argus.sense.page_state import NetworkMonitor

QUIET_S = 0.05
POLL_S = 0.02


def _confirmed(ready: str) -> str:
    """``ready``, checked again after two animation frames (the frames drawn in between are
    the page's turn to start what the first answer did not yet show)."""
    return (
        "async () => { const ready = " + ready + ";\n"
        "  if (!ready()) return false;\n"
        "  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));\n"
        "  return Boolean(ready()); }"
    )


class FrameworkSettle:
    """Attach before navigating (a websocket opened during load is counted); ``wait`` after
    the network is quiet; ``detach`` when the view is done."""

    def __init__(self, page: Page, framework: Framework) -> None:
        self._page = page
        self.framework = framework
        self._rule = framework.settle
        self._frames = 0
        self._last = time.monotonic()
        self._check = _confirmed(self._rule.ready)
        if self._rule.websocket:
            page.on("websocket", self._socket)

    def detach(self) -> None:
        if self._rule.websocket:
            self._page.remove_listener("websocket", self._socket)

    def _socket(self, socket: WebSocket) -> None:
        socket.on("framesent", self._frame)
        socket.on("framereceived", self._frame)

    def _frame(self, _payload: object) -> None:
        self._frames += 1
        self._last = time.monotonic()

    async def wait(self, timeout: float) -> bool:
        """True once settled; False when ``timeout`` seconds pass first."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            seen = self._frames
            try:
                ready = await asyncio.wait_for(self._page.evaluate(self._check), left)
            except TimeoutError:
                return False
            except PlaywrightError:
                # The document changed under the evaluation (a reload, a redirect): look again.
                ready = False
            quiet = time.monotonic() - self._last >= QUIET_S
            if ready is True and self._frames == seen and (quiet or not self._rule.websocket):
                return True
            await asyncio.sleep(min(POLL_S, max(0.0, deadline - time.monotonic())))
        return False


def framework_settle(page: Page, name: str) -> FrameworkSettle | None:
    """The settle watch of the project's ``framework`` (None: no framework configured)."""
    return FrameworkSettle(page, get_framework(name)) if name else None


async def settle_framework(
    settle: FrameworkSettle | None, network: NetworkMonitor, timeout: float, what: str
) -> None:
    """The framework's rule, then a quiet network again (what it rendered may fetch more);
    SensorError naming the framework's markers when it never settles."""
    if settle is None:
        return
    framework = settle.framework
    if not await settle.wait(timeout):
        raise SensorError(
            f"{what}: the {framework.title} page never settled in {timeout:g}s "
            f"(waited for: {framework.settle.markers})"
        )
    if not await network.wait_idle(timeout):
        raise SensorError(
            f"{what}: kept loading for {timeout:g}s after {framework.title} settled "
            "(network never went idle)"
        )


def settle_framework_sync(page: SyncPage, name: str, timeout: float) -> None:
    """The same rule on a page a test already loaded (the pytest plugin, Playwright's sync
    API): the framework's ``ready`` function true, and true again after two frames. The page's
    websocket frames before this call cannot be seen, so only the function is asked.
    SensorError naming the markers when it never holds within ``timeout`` seconds."""
    if not name:
        return
    framework = get_framework(name)
    check = _confirmed(framework.settle.ready)
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        try:
            page.wait_for_function(framework.settle.ready, timeout=left * 1000)
            if page.evaluate(check) is True:
                return
        except PlaywrightError:
            break  # the wait timed out (or the document went away): not settled
    raise SensorError(
        f"{page.url}: the {framework.title} page never settled in {timeout:g}s "
        f"(waited for: {framework.settle.markers})"
    )
