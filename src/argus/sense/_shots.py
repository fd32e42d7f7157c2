"""The stable capture's screenshots: Chromium's fast PNG encoder, Playwright's options kept.

Playwright's ``page.screenshot`` encodes with Chromium's default PNG settings; most of a
1280x800 shot's time is that encode. CDP's ``Page.captureScreenshot`` with
``optimizeForSpeed`` encodes the same pixels faster (a larger file: zlib's fastest level):
measured 74 -> 44 ms a shot on the example view. So the capture takes its shots over CDP and
first does, in an isolated world of the main frame, what ``page.screenshot(animations=
"disabled", caret="hide", scale="css")`` does there: every root (the document and each shadow
root) has its finite animations finished and its infinite ones cancelled (also those starting
while the shot is taken), its inputs' caret made transparent, then ``document.fonts.ready`` is
awaited; afterwards all of it is undone, as Playwright undoes it. The clip is Playwright's: the
visual viewport, or the whole document for a full-page shot.

Playwright prepares every frame; this prepares the main frame only. So a page with child
frames, a device pixel ratio other than 1 or a zoomed visual viewport gets Playwright's own
screenshot instead. Two shots of one capture are compared byte for byte only when one encoder
took both (``Shot.fast``); a render compared with an image from the other encoder (a baseline
written by an older Argus or by Playwright) is compared by its decoded pixels (``same_image``).
"""

from __future__ import annotations

import asyncio
import base64
import json
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

from playwright.async_api import CDPSession, Page
from playwright.async_api import Error as PlaywrightError

from argus.diff.png import check_png, decode_png
from argus.diff.pngcheck import png_chunk_kinds
from argus.errors import InputError, SensorError
from argus.sense.world import isolated_world, raise_on_exception

SHOT_WORLD = "argus-shot"

# Playwright's inPagePrepareForScreenshots (screenshotter.ts; animations disabled, caret
# hidden, no style), for one frame; answers what the shot's clip needs once fonts are ready.
PREPARE_JS = """(async () => {
  const roots = [];
  const collect = (root) => {
    roots.push(root);
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
    do {
      const node = walker.currentNode;
      const shadow = node instanceof Element ? node.shadowRoot : null;
      if (shadow) collect(shadow);
    } while (walker.nextNode());
  };
  collect(document);
  const cleanups = [];
  const carets = new Map();
  for (const root of roots) {
    root.querySelectorAll("input,textarea,[contenteditable]").forEach((element) => {
      carets.set(element, {
        value: element.style.getPropertyValue("caret-color"),
        priority: element.style.getPropertyPriority("caret-color"),
      });
      element.style.setProperty("caret-color", "transparent", "important");
    });
  }
  cleanups.push(() => {
    for (const [element, old] of carets)
      element.style.setProperty("caret-color", old.value, old.priority);
  });
  const resume = new Set();
  const handle = (root) => {
    for (const animation of root.getAnimations()) {
      if (!animation.effect || animation.playbackRate === 0 || resume.has(animation)) continue;
      const end = animation.effect.getComputedTiming().endTime;
      if (Number.isFinite(end)) {
        try { animation.finish(); } catch (e) {}
      } else {
        try { animation.cancel(); resume.add(animation); } catch (e) {}
      }
    }
  };
  for (const root of roots) {
    const handleRoot = handle.bind(null, root);
    handleRoot();
    root.addEventListener("transitionrun", handleRoot);
    root.addEventListener("animationstart", handleRoot);
    cleanups.push(() => {
      root.removeEventListener("transitionrun", handleRoot);
      root.removeEventListener("animationstart", handleRoot);
    });
  }
  cleanups.push(() => {
    for (const animation of resume) { try { animation.play(); } catch (e) {} }
  });
  globalThis.__argusShotCleanup = () => {
    for (const cleanup of cleanups) cleanup();
    delete globalThis.__argusShotCleanup;
  };
  try { await document.fonts.ready; } catch (e) {}
  const body = document.body, root = document.documentElement;
  const view = window.visualViewport;
  return JSON.stringify({
    frames: window.frames.length,
    ratio: window.devicePixelRatio,
    zoom: view ? view.scale : 1,
    x: view ? view.pageLeft : window.scrollX,
    y: view ? view.pageTop : window.scrollY,
    width: window.innerWidth,
    height: window.innerHeight,
    full: body && root ? {
      width: Math.max(body.scrollWidth, root.scrollWidth, body.offsetWidth, root.offsetWidth,
                      body.clientWidth, root.clientWidth),
      height: Math.max(body.scrollHeight, root.scrollHeight, body.offsetHeight,
                       root.offsetHeight, body.clientHeight, root.clientHeight),
    } : null,
  });
})()"""
RESTORE_JS = "globalThis.__argusShotCleanup && globalThis.__argusShotCleanup()"


@dataclass(frozen=True)
class Shot:
    """One screenshot's PNG bytes, and whether Chromium's fast encoder wrote them."""

    png: bytes
    fast: bool

    def same_bytes(self, other: Shot) -> bool:
        """Byte-identical shots of one encoder: the stability rule's comparison."""
        return self.fast == other.fast and self.png == other.png


def playwright_options(full_page: bool) -> dict[str, Any]:
    """The options of Playwright's screenshot, as the capture has always taken it."""
    return {
        "type": "png",
        "animations": "disabled",
        "caret": "hide",
        "full_page": full_page,
        "scale": "css",
    }


def shot_clip(layout: dict[str, Any], full_page: bool) -> tuple[dict[str, float], bool] | None:
    """The Page.captureScreenshot clip and captureBeyondViewport Playwright would use for
    ``layout`` (PREPARE_JS's answer); None when the fast shot would not be Playwright's (child
    frames, a device pixel ratio other than 1, a zoomed visual viewport, no document body)."""
    if layout.get("frames") != 0 or layout.get("ratio") != 1 or layout.get("zoom") != 1:
        return None
    width, height = layout.get("width"), layout.get("height")
    if not isinstance(width, int | float) or not isinstance(height, int | float):
        return None
    if not full_page:
        x, y = layout.get("x"), layout.get("y")
        if not isinstance(x, int | float) or not isinstance(y, int | float):
            return None
        return {"x": x, "y": y, "width": width, "height": height, "scale": 1}, False
    full = layout.get("full")
    if not isinstance(full, dict):
        return None
    fw, fh = full.get("width"), full.get("height")
    if not isinstance(fw, int | float) or not isinstance(fh, int | float):
        return None
    fits = fw <= width and fh <= height
    return {"x": 0, "y": 0, "width": fw, "height": fh, "scale": 1}, not fits


class Shooter:
    """The screenshots of one view's capture (see the module docstring). ``fast=False``
    takes Playwright's screenshot every time."""

    def __init__(
        self, page: Page, session: CDPSession, full_page: bool, *, fast: bool = True
    ) -> None:
        self._page = page
        self._session = session
        self._full_page = full_page
        self._fast = fast
        self._world: int | None = None
        self._making: asyncio.Future[int] | None = None

    def start(self) -> asyncio.Future[int] | None:
        """Make the isolated world now, beside the settle wait, so that its two round trips
        are off the first shot's path (measured ~10 ms a shot at load 11). The caller collects
        the task when the view ends (argus.sense.web._abandon)."""
        if self._fast and self._world is None and self._making is None:
            self._making = asyncio.ensure_future(isolated_world(self._session, SHOT_WORLD))
        return self._making

    async def _context(self) -> int:
        """The isolated world's context id: the one ``start`` made, else a new one."""
        if self._world is None:
            making, self._making = self._making, None
            if making is not None:
                with suppress(PlaywrightError):
                    self._world = await making
            if self._world is None:
                self._world = await isolated_world(self._session, SHOT_WORLD)
        return self._world

    async def __call__(self) -> Shot:
        if self._fast:
            png = await self._fast_shot()
            if png is not None:
                return Shot(png, True)
        png = await self._page.screenshot(**playwright_options(self._full_page))
        return Shot(png, False)

    async def _evaluate(self, expression: str, doing: str) -> Any:
        """``expression`` in the capture's isolated world, made again once when the document
        it was made in is gone (a state's step navigated)."""
        for again in (False, True):
            world = await self._context()
            try:
                answer = await self._session.send(
                    "Runtime.evaluate",
                    {
                        "expression": expression,
                        "contextId": world,
                        "returnByValue": True,
                        "awaitPromise": True,
                    },
                )
            except PlaywrightError:
                self._world = None
                if again:
                    raise
                continue
            raise_on_exception(answer, doing)
            return answer.get("result", {}).get("value")
        return None  # pragma: no cover - the loop returns or raises

    async def _fast_shot(self) -> bytes | None:
        """The shot, or None when Playwright's screenshot must take it: the layout says so,
        or the preparation threw in the page (Playwright's own ignores such errors)."""
        try:
            answer = await self._evaluate(PREPARE_JS, "preparing the screenshot")
        except SensorError:
            with suppress(SensorError):
                await self._evaluate(RESTORE_JS, "restoring the page after the screenshot")
            return None
        try:
            layout = json.loads(answer) if isinstance(answer, str) else {}
            clip = shot_clip(layout if isinstance(layout, dict) else {}, self._full_page)
            if clip is None:
                return None
            box, beyond = clip
            taken = await self._session.send(
                "Page.captureScreenshot",
                {
                    "format": "png",
                    "clip": box,
                    "captureBeyondViewport": beyond,
                    "optimizeForSpeed": True,
                },
            )
        finally:
            await self._evaluate(RESTORE_JS, "restoring the page after the screenshot")
        return base64.b64decode(taken["data"])


def same_image(png: bytes, other: bytes) -> bool:
    """True when two PNGs hold the same pixels: the same bytes, or (from two encoders) the same
    size and the same decoded RGBA values. An unreadable image is never the same."""
    if png == other:
        return True
    try:
        mine, theirs = check_png(png, "screenshot"), check_png(other, "expected image")
        if (mine.width, mine.height) != (theirs.width, theirs.height):
            return False
        first, second = decode_png(png, "screenshot"), decode_png(other, "expected image")
    except InputError:
        return False
    return bool(first.shape == second.shape and (first == second).all())


# Chunks that are the image itself: a PNG of only these shows its pixels the same everywhere.
PIXEL_CHUNKS = frozenset({b"IHDR", b"PLTE", b"tRNS", b"IDAT", b"IEND"})


def plain_png(png: bytes) -> bool:
    """True when ``png`` has no chunk but the image's own (no colour profile, gamma or text
    that could make it show or say something its pixels do not)."""
    try:
        return png_chunk_kinds(png) <= PIXEL_CHUNKS
    except InputError:
        return False
