"""The structured half of a view: the element list with computed styles, and the ARIA snapshot.

The element dump runs in the page (probe.js) and comes back as one JSON string. The format is
the one docs/internals.md fixes for probe.json; ``truncate_probe`` is applied before it is saved.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from playwright.async_api import Page

from argus.sense.truncate import truncate_probe
from argus.sense.views import ViewPlan

PROBE_VERSION = 1
STYLE_PROPERTIES = (
    "color",
    "background-color",
    "background-image",
    "border-top-color",
    "border-right-color",
    "border-bottom-color",
    "border-left-color",
    "border-top-width",
    "border-right-width",
    "border-bottom-width",
    "border-left-width",
    "font-family",
    "font-size",
    "font-weight",
    "letter-spacing",
    "line-height",
    "margin-top",
    "margin-right",
    "margin-bottom",
    "margin-left",
    "padding-top",
    "padding-right",
    "padding-bottom",
    "padding-left",
    "row-gap",
    "column-gap",
    "border-radius",
    "opacity",
    "text-shadow",
)


@cache
def probe_script() -> str:
    return resources.files("argus.sense").joinpath("probe.js").read_text(encoding="utf-8")


async def dump_elements(page: Page) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The element list, and the text's font representatives for ``FontProbe.used``."""
    dumped = json.loads(await page.evaluate(probe_script(), list(STYLE_PROPERTIES)))
    elements: list[dict[str, Any]] = dumped["elements"]
    picks: dict[str, Any] = dumped["fonts"]
    return elements, picks


async def aria_snapshot(page: Page) -> str:
    return await page.locator("body").aria_snapshot()


async def warm_probe(page: Page) -> None:
    """One throw-away ARIA pass: the first on a page pays for injecting Playwright's script."""
    await page.locator("html").aria_snapshot()


def assemble_probe(
    plan: ViewPlan,
    url: str,
    elements: list[dict[str, Any]],
    aria: str,
    focus_order: list[dict[str, str] | None] | None = None,
) -> dict[str, Any]:
    probe: dict[str, Any] = {
        "version": PROBE_VERSION,
        "url": url,
        "viewport": {"width": plan.viewport.width, "height": plan.viewport.height},
        "elements": elements,
        "aria_snapshot": aria,
    }
    if focus_order is not None:
        probe["focus_order"] = focus_order
    result: dict[str, Any] = truncate_probe(probe)
    return result
