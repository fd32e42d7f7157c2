"""The structured half of a view: the element list with computed styles, and the ARIA snapshot.

The element dump runs in the page (probe.js) and comes back as one JSON string. The format is
the one docs/internals.md fixes for probe.json; ``truncate_probe`` is applied before it is saved.
The same evaluation resolves the view's snapshot masks (any CSS selector) in the page and
returns each one's boxes, saved as probe.json's ``masks`` (argus.diff.masks reads them).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from playwright.async_api import CDPSession, Page
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from argus.diff.masks import MaskSelectorError
from argus.errors import InputError
from argus.sense.truncate import truncate_probe
from argus.sense.views import ViewPlan
from argus.sense.world import isolated_world, returned_string
from argus.spec.model import Spec

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


def _source(name: str) -> str:
    return resources.files("argus.sense").joinpath(name).read_text(encoding="utf-8").strip()


@cache
def sampler_script() -> str:
    """sample.js: the factory of the huge-page sampler the probe and axe share."""
    return _source("sample.js")


@cache
def probe_script() -> str:
    """probe.js bound to the sampler and the graphics reader: a function of
    ``{properties, budget}``."""
    return f"(args) => ({_source('probe.js')})(args, {sampler_script()}, {_source('graphics.js')})"


@dataclass(frozen=True)
class ProbeBudget:
    """How much of a huge page the probe dumps (``[sense]`` in argus.toml, docs/sense.md), and
    what of the view it records whatever the page's size."""

    max_elements: int = 5000
    per_shape: int = 20
    aria_timeout_s: float = 10.0
    keep_ids: tuple[str, ...] = ()  # the view's a11y-id contract: always dumped
    # The view's snapshot mask selectors (the target's, then its framework's preset), resolved
    # in the page; None: none asked (probe.json then has no ``masks``). ``full_page``: the
    # render is the whole document, so the boxes are the document's, not the viewport's.
    masks: tuple[str, ...] | None = None
    full_page: bool = False

    def to_js(self) -> dict[str, Any]:
        return {
            "max_elements": self.max_elements,
            "per_shape": self.per_shape,
            "keep_ids": list(self.keep_ids),
        }


PROBE_WORLD = "argus-probe"


def probe_request(context_id: int, budget: ProbeBudget) -> dict[str, Any]:
    """Runtime.evaluate parameters that run the probe in the isolated world ``context_id``."""
    args: dict[str, Any] = {"properties": list(STYLE_PROPERTIES), "budget": budget.to_js()}
    if budget.masks is not None:
        args["masks"] = {"selectors": list(budget.masks), "full_page": budget.full_page}
    return {
        "expression": f"({probe_script()})({json.dumps(args)})",
        "contextId": context_id,
        "returnByValue": True,
    }


# The probe's top-level sections besides the elements, saved in probe.json as they come:
# what was sampled (absent when the page was dumped whole), the SVG/canvas graphics and the
# snapshot masks' boxes (absent when none were asked).
SECTIONS = ("sampling", "graphics", "masks")
Dumped = tuple[list[dict[str, Any]], dict[str, Any], dict[str, Any]]


def read_probe(answer: dict[str, Any]) -> Dumped:
    """The element list, the text's font representatives for ``FontProbe.used``, and the
    other sections the probe returned (``SECTIONS``). MaskSelectorError when the page could
    not parse a mask selector (the caller says where the selector came from)."""
    dumped = json.loads(returned_string(answer, "the element probe"))
    refused = dumped.get("mask_errors")
    if isinstance(refused, dict) and refused:
        selector, reason = next(iter(refused.items()))
        raise MaskSelectorError(str(selector), str(reason))
    elements: list[dict[str, Any]] = dumped["elements"]
    picks: dict[str, Any] = dumped["fonts"]
    sections = {key: dumped[key] for key in SECTIONS if dumped.get(key) is not None}
    return elements, picks, sections


def located_mask_error(
    err: MaskSelectorError, spec: Spec, target_id: str, framework: str
) -> InputError:
    """``err`` as one line naming where the selector came from: the spec file and the mask's
    place in it, or the project's framework preset."""
    for i, target in enumerate(spec.targets):
        if target.id == target_id and err.selector in target.snapshot.masks:
            j = target.snapshot.masks.index(err.selector)
            return InputError(
                f"{spec.path}: $.targets[{i}].snapshot.masks[{j}] {err.selector!r} is not a CSS "
                f"selector the browser can parse ({err.reason}); fix it (any selector "
                "document.querySelectorAll takes) or remove it"
            )
    return InputError(
        f"the mask preset of framework {framework!r} has {err.selector!r}, which the browser "
        f'cannot parse ({err.reason}); set framework = "" in argus.toml and report it'
    )


async def dump_elements(session: CDPSession, budget: ProbeBudget) -> Dumped:
    """The probe's dump of the current document, read in an isolated world (argus.sense.world):
    the page's own scripts cannot change what it reports."""
    context_id = await isolated_world(session, PROBE_WORLD)
    return read_probe(await session.send("Runtime.evaluate", probe_request(context_id, budget)))


async def aria_snapshot(page: Page, timeout_s: float = 30.0) -> str | None:
    """The body's ARIA snapshot; None when it took longer than ``timeout_s`` (a huge page)."""
    try:
        return await page.locator("body").aria_snapshot(timeout=timeout_s * 1000)
    except PlaywrightTimeoutError:
        return None


async def warm_probe(page: Page) -> None:
    """One throw-away ARIA pass: the first on a page pays for injecting Playwright's script.
    Over ``head`` (nothing to snapshot), so a huge page does not pay for a whole-page pass."""
    await page.locator("head").aria_snapshot()


def assemble_probe(
    plan: ViewPlan,
    url: str,
    elements: list[dict[str, Any]],
    aria: str | None,
    focus_order: list[dict[str, str] | None] | None = None,
    sections: dict[str, Any] | None = None,
    focus_trap: dict[str, Any] | None = None,
) -> dict[str, Any]:
    probe: dict[str, Any] = {
        "version": PROBE_VERSION,
        "url": url,
        "viewport": {"width": plan.viewport.width, "height": plan.viewport.height},
        "elements": elements,
        "aria_snapshot": aria or "",
    }
    if focus_order is not None:
        probe["focus_order"] = focus_order
    if focus_trap is not None:
        probe["focus_trap"] = focus_trap
    for key in SECTIONS:
        # Said in the file the gates read: the dump is a sample, and how it was taken; the
        # inline SVG marks, charts and declared canvases (docs/internals.md).
        if sections and sections.get(key) is not None:
            probe[key] = sections[key]
    if aria is None:
        probe["aria_snapshot_missing"] = (
            "not taken: the page is over the element budget, or the snapshot ran out of time"
        )
    result: dict[str, Any] = truncate_probe(probe)
    return result
