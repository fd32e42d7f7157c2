"""The keyboard focus walk the focus_visible gate reads: each element Tab reaches, its box, and
how many pixels around it change when it holds the focus (WCAG 2.4.7 Focus Visible).

Runs after the capture (it moves the focus, so nothing of the render may come after it). The
focus is first let go, then Tab is pressed until the focus leaves the page, comes back to an
element already seen, or MAX_STOPS elements were visited. For each stop the area of its box
grown by PAD CSS px (an outline drawn outside, with an offset) is screenshotted and compared,
byte for byte, with the same area of the captured render, where nothing had the focus. An
element outside the viewport (or on a scrolled page) is recorded as not compared.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from playwright._impl._api_structures import Clip
from playwright.async_api import Page

from argus.diff.arrays import U8
from argus.diff.png import decode_png

MAX_STOPS = 40
PAD = 8  # CSS px around the box: outlines and their offsets are drawn outside it
FOCUS_FILE = "focus.json"
FOCUS_VERSION = 1

_BLUR_JS = "() => { const el = document.activeElement; if (el && el.blur) el.blur(); }"
_FOCUSED_JS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body || el === document.documentElement) return null;
  const r = el.getBoundingClientRect();
  return { id: el.id || "", testid: el.getAttribute("data-testid") || "",
           tag: el.tagName.toLowerCase(), x: r.x, y: r.y, width: r.width, height: r.height,
           scrolled: window.scrollX !== 0 || window.scrollY !== 0,
           vw: window.innerWidth, vh: window.innerHeight };
}"""


async def focus_visibility(page: Page, render_png: bytes) -> dict[str, Any]:
    """Walk the focus with Tab and measure each stop's visible change (see the module doc)."""
    render = decode_png(render_png, "render.png")
    await page.evaluate(_BLUR_JS)
    stops: list[dict[str, Any]] = []
    seen: set[tuple[Any, ...]] = set()
    for _ in range(MAX_STOPS):
        await page.keyboard.press("Tab")
        found = await page.evaluate(_FOCUSED_JS)
        if not isinstance(found, dict):
            break
        key = (found["tag"], found["id"], found["testid"], found["x"], found["y"])
        if key in seen:
            break
        seen.add(key)
        stop: dict[str, Any] = {
            "id": found["id"],
            "testid": found["testid"],
            "tag": found["tag"],
            "box": {k: round(float(found[k]), 2) for k in ("x", "y", "width", "height")},
        }
        clip = _clip(found)
        if clip is None:
            stop["changed_pixels"] = None  # not compared: off the viewport or scrolled
        else:
            shot = decode_png(
                await page.screenshot(clip=clip, animations="disabled", caret="hide"), "clip"
            )
            stop["changed_pixels"] = _changed(render, shot, clip)
        stops.append(stop)
    await page.evaluate(_BLUR_JS)
    return {"version": FOCUS_VERSION, "pad": PAD, "stops": stops}


def _clip(found: dict[str, Any]) -> Clip | None:
    if found["scrolled"] or found["width"] <= 0 or found["height"] <= 0:
        return None
    x0, y0 = max(found["x"] - PAD, 0.0), max(found["y"] - PAD, 0.0)
    x1 = min(found["x"] + found["width"] + PAD, float(found["vw"]))
    y1 = min(found["y"] + found["height"] + PAD, float(found["vh"]))
    if x1 - x0 < 1 or y1 - y0 < 1:
        return None
    x0, y0 = float(int(x0)), float(int(y0))  # whole CSS px, so both crops line up
    return Clip(x=x0, y=y0, width=float(int(x1 - x0)), height=float(int(y1 - y0)))


def _changed(render: U8, shot: U8, clip: Clip) -> int:
    """Pixels of the clip that differ from the same area of the render (device px)."""
    scale = shot.shape[1] / clip["width"] if clip["width"] else 1.0
    x0, y0 = round(clip["x"] * scale), round(clip["y"] * scale)
    h, w = shot.shape[:2]
    area = render[y0 : y0 + h, x0 : x0 + w, :3]
    if area.shape[:2] != (h, w):
        h, w = area.shape[:2]
        shot = shot[:h, :w]
    return int(np.count_nonzero(np.any(area != shot[:, :, :3], axis=2)))
