"""The focus-trap walk: from a control, press Tab and record whether the focus stays in a region.

Runs after the capture (it moves the focus), in the same isolated world as the focus_order walk
(argus.sense.world), so the page cannot fake ``document.activeElement`` or the answer. The
result goes to probe.json as ``focus_trap``: ``{region, from, stops}``, each stop the focused
element's ids and whether it is inside the region (None when nothing holds the focus); the
metric judge reads it (argus.judge.metric.checks, its focus-trap check).
"""

from __future__ import annotations

import json
from typing import Any

from playwright.async_api import CDPSession, Page

from argus.sense._steps import FOCUS_WORLD
from argus.sense.world import evaluate_in, isolated_world
from argus.spec.typed import FocusTrap

# ``{start}`` and ``{region}`` are JSON strings: an id or a data-testid.
_BY_ID = """(name) => document.getElementById(name) ||
  [...document.querySelectorAll("[data-testid]")].find((e) => e.dataset.testid === name) || null"""
_FOCUS_START = (
    """(() => {{ const el = ({by_id})({start}); if (el) el.focus(); return Boolean(el); }})()"""
)
_READ_STOP = """(() => {{
  const el = document.activeElement;
  if (!el || el === document.body || el === document.documentElement) return null;
  const region = ({by_id})({region});
  return {{ id: el.id || "", testid: el.getAttribute("data-testid") || "",
           tag: el.tagName.toLowerCase(), inside: Boolean(region && region.contains(el)) }};
}})()"""


async def trap_walk(page: Page, session: CDPSession, trap: FocusTrap) -> dict[str, Any]:
    """The focused element (after focusing ``from``), then after each of ``presses`` Tabs."""
    world = await isolated_world(session, FOCUS_WORLD)
    walk: dict[str, Any] = {"region": trap.region, "from": trap.start, "stops": []}
    if trap.start is not None:
        expression = _FOCUS_START.format(by_id=_BY_ID, start=json.dumps(trap.start))
        if not await evaluate_in(session, world, expression, "focusing the trap's start"):
            walk["start_missing"] = True
            return walk
    reading = _READ_STOP.format(by_id=_BY_ID, region=json.dumps(trap.region))
    walk["stops"].append(await evaluate_in(session, world, reading, "reading the focus"))
    for _ in range(trap.presses):
        await page.keyboard.press("Tab")
        walk["stops"].append(await evaluate_in(session, world, reading, "reading the focus"))
    return walk
