"""The capture's fast screenshots (argus.sense._shots) hold the pixels Playwright's
``page.screenshot(animations="disabled", caret="hide", scale="css")`` would: animations in
the document and in shadow roots stopped, carets hidden, the same clip; a page with child
frames gets Playwright's own screenshot; the page is left as it was."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from playwright.async_api import Browser, Page

from argus.diff.png import decode_png
from argus.sense._shots import Shooter, Shot, playwright_options
from tests.support.chromium import AsyncChromium

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def chromium() -> Iterator[AsyncChromium]:
    """One browser for the module; each test's shots are taken in a new context of it."""
    browser = AsyncChromium()
    yield browser
    browser.close()


# Green at rest; red to blue while animated (never green), so a shot taken while an animation
# runs can never match one taken with it stopped.
MOVING = """<!doctype html><html><body style="margin:0;background:#fff">
<div id="waapi" style="width:200px;height:100px;background:rgb(0,128,0)"></div>
<div id="finite" style="width:200px;height:100px;background:rgb(0,128,0)"></div>
<div id="host"></div>
<input id="plain" value="caret here">
<script>
  const colours = [{ background: "rgb(255,0,0)" }, { background: "rgb(0,0,255)" }];
  document.getElementById("waapi").animate(colours, { duration: 400, iterations: Infinity });
  document.getElementById("finite").animate(
    [{ width: "20px" }, { width: "300px" }], { duration: 60000, fill: "forwards" });
  const shadow = document.getElementById("host").attachShadow({ mode: "open" });
  shadow.innerHTML = `<style>@keyframes spin { from { background: rgb(255,0,0) }
    to { background: rgb(0,0,255) } }
    .box { width: 200px; height: 100px; background: rgb(0,128,0);
           animation: spin 300ms infinite alternate } </style>
    <div class="box"></div><input id="inner" value="inside">`;
  shadow.getElementById("inner").focus();
</script></body></html>"""

TALL = """<!doctype html><html><body style="margin:0">
<div style="height:1900px;width:1000px;background:linear-gradient(#f00,#00f)"></div>
<p>end</p></body></html>"""

FRAMED = """<!doctype html><html><body style="margin:0">
<h1>Outer</h1><iframe srcdoc="<p>inner</p>" style="width:300px;height:100px"></iframe>
</body></html>"""


def _shots(chromium: AsyncChromium, html: str, full_page: bool = False) -> dict[str, Any]:
    async def run(browser: Browser) -> dict[str, Any]:
        context = await browser.new_context(
            viewport={"width": 640, "height": 480}, device_scale_factor=1
        )
        page = await context.new_page()
        session = await context.new_cdp_session(page)
        await page.set_content(html)
        shoot = Shooter(page, session, full_page)
        fast = await shoot()
        again = await shoot()
        playwright_png = await page.screenshot(**playwright_options(full_page))
        after = await _left_as_it_was(page)
        await context.close()
        return {"fast": fast, "again": again, "playwright": playwright_png, "after": after}

    return chromium.run(run)


async def _left_as_it_was(page: Page) -> dict[str, Any]:
    result: dict[str, Any] = await page.evaluate(
        """() => ({
          running: [document, document.getElementById("host")?.shadowRoot].filter(Boolean)
            .flatMap(root => root.getAnimations()).filter(a => a.playState === "running").length,
          plainCaret: document.getElementById("plain")?.style.getPropertyValue("caret-color"),
          cleanup: "__argusShotCleanup" in window,
        })"""
    )
    return result


def _pixels(png: bytes) -> Any:
    return decode_png(png, "shot")


def test_a_fast_shot_holds_playwrights_pixels_with_animations_stopped_and_carets_hidden(
    chromium: AsyncChromium,
) -> None:
    shots = _shots(chromium, MOVING)
    fast, again = shots["fast"], shots["again"]
    assert isinstance(fast, Shot) and fast.fast and again.fast
    assert np.array_equal(_pixels(fast.png), _pixels(shots["playwright"]))
    # The same encoder twice: byte-identical, as the stability rule compares them.
    assert fast.same_bytes(again)
    # Stopped, not merely caught between frames: the infinite animation shows its rest colour.
    assert tuple(_pixels(fast.png)[50, 100][:3]) == (0, 128, 0)


def test_a_fast_shot_leaves_the_page_as_it_was(chromium: AsyncChromium) -> None:
    after = _shots(chromium, MOVING)["after"]
    # The infinite animations run again (the finite one was finished, as Playwright does),
    # the caret's inline style is back to none, and no cleanup hook is left in the page.
    assert after == {"running": 2, "plainCaret": "", "cleanup": False}


def test_a_full_page_fast_shot_is_playwrights_full_page_shot(chromium: AsyncChromium) -> None:
    shots = _shots(chromium, TALL, full_page=True)
    fast = _pixels(shots["fast"].png)
    assert shots["fast"].fast and fast.shape[0] > 480
    assert np.array_equal(fast, _pixels(shots["playwright"]))


def test_a_page_with_child_frames_gets_playwrights_own_screenshot(chromium: AsyncChromium) -> None:
    shots = _shots(chromium, FRAMED)
    assert shots["fast"].fast is False
    assert shots["fast"].png == shots["playwright"]
