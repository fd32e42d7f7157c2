"""``argus design extract``: render a page in Argus's Chromium, read its computed styles, and
write a design-schema.json (capture_method ``computed``).

The page is untrusted. Its styles are read by extract.js in an isolated world (created over
CDP: the page's scripts cannot patch the functions it calls), the result comes back as one
JSON string that is validated here value by value (numbers must be finite, lists are capped,
shadow strings keep only CSS length/colour characters), and nothing from the page chooses a
path: the output location is fixed by the command line before the page is opened. No page text
(title, labels) is written.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
from collections import Counter
from collections.abc import Mapping
from datetime import UTC, datetime
from functools import cache
from importlib import resources
from typing import Any

from argus.design._fit import fit_base_unit, fit_ratio, order_shadows
from argus.errors import SensorError
from argus.io import loads_json
from argus.sense.world import isolated_world

MAX_VALUES = 20000
MAX_SHADOWS = 12
_SHADOW_SAFE = re.compile(r"[^0-9a-zA-Z.,()#% -]")
CAPTURE = "computed"


@cache
def extract_script() -> str:
    return resources.files("argus.design").joinpath("extract.js").read_text(encoding="utf-8")


def _numbers(raw: Any, limit: int = MAX_VALUES) -> list[float]:
    if not isinstance(raw, list):
        return []
    out = []
    for value in raw[:limit]:
        number = isinstance(value, int | float) and not isinstance(value, bool)
        if number and math.isfinite(value) and 0 <= value <= 100000:
            out.append(float(value))
    return out


def _number(raw: Any) -> float | None:
    values = _numbers([raw])
    return values[0] if values else None


def _shadow(raw: Any) -> str | None:
    return _SHADOW_SAFE.sub("", raw)[:160] if isinstance(raw, str) and raw else None


def _recipe(raw: Any) -> dict[str, Any] | None:
    if not isinstance(raw, dict):
        return None
    padding = raw.get("padding")
    return {
        "padding": [_number(p) for p in padding[:4]] if isinstance(padding, list) else None,
        "radius": _number(raw.get("radius")),
        "font_size": _number(raw.get("font_size")),
        "font_weight": _number(raw.get("font_weight")),
        "shadow": _shadow(raw.get("shadow")),
    }


def _browser_default(item: Any) -> bool:
    """Whether the page measured this control in the browser's own look (exactly true only)."""
    return isinstance(item, dict) and item.get("browser_default") is True


def _components(raw: Any, notes: list[str]) -> dict[str, Any]:
    """Per kind (button, input, card): the most common recipe and how many elements use it.

    A control in the browser's default look was never styled by the page: it is left out (a
    note says how many), so a row of bare sort buttons cannot become the page's button."""
    out: dict[str, Any] = {}
    kinds = raw if isinstance(raw, dict) else {}
    for kind in ("button", "input", "card"):
        items = kinds.get(kind)
        listed = items[:MAX_VALUES] if isinstance(items, list) else []
        styled = [i for i in listed if not _browser_default(i)]
        if len(styled) < len(listed):
            notes.append(
                f"components: {len(listed) - len(styled)} {kind}(s) in the browser's default "
                "look left out (not styled by the page)"
            )
        recipes = [r for r in map(_recipe, styled) if r]
        if not recipes:
            continue
        counted = Counter(json.dumps(r, sort_keys=True) for r in recipes)
        common, uses = counted.most_common(1)[0]
        out[kind] = {**json.loads(common), "elements": len(recipes), "sharing_recipe": uses}
    return out


def _mode(values: list[float]) -> float | None:
    return Counter(values).most_common(1)[0][0] if values else None


def build_schema(raw: Any, url: str, fetched_at: str | None = None) -> dict[str, Any]:
    """The design-schema document for one page's measurements (pure; raw is untrusted)."""
    data: Mapping[str, Any] = raw if isinstance(raw, dict) else {}
    notes: list[str] = []
    spacing = fit_base_unit(_numbers(data.get("spacing")))
    if spacing.base_unit is None:
        notes.append("spacing: no base unit explains 90% of the values within 0.5 px")
    else:
        notes.append(
            f"spacing: {spacing.base_unit:g} px explains {spacing.share:.0%} of the values "
            "(each within 0.5 px of a multiple; 90% needed)"
        )
    sizes = _numbers(data.get("font_sizes"))
    base = _number(data.get("body_font_size")) or _mode(sizes) or 16.0
    ratio = fit_ratio(sizes, base)
    if ratio.ratio is None:
        notes.append("type: no ratio in [1.067, 2.0] fits every size within 2% (raw sizes kept)")
    else:
        notes.append(
            f"type: ratio {ratio.ratio:g} from base {base:g} px fits {len(ratio.sizes)} sizes "
            f"(worst {ratio.worst_error:.1%}; 2% allowed)"
        )
    breakpoints = sorted({round(b, 2) for b in _numbers(data.get("breakpoints"))})
    unreadable = _number(data.get("unreadable_sheets")) or 0
    if unreadable:
        notes.append(
            f"grid: {unreadable:g} stylesheet(s) unreadable (cross-origin), "
            "so breakpoints may be missing"
        )
    shadows = [s for s in map(_shadow, (data.get("shadows") or [])[:MAX_VALUES]) if s]
    ramp = order_shadows(shadows)[:MAX_SHADOWS]
    columns = _number(data.get("columns"))
    viewport = _number(data.get("viewport_width")) or 100000.0
    containers = [w for w in _numbers(data.get("max_widths")) if w <= viewport]
    components = _components(data.get("components"), notes)
    return {
        "source": {"url": url, "fetched_at": fetched_at or datetime.now(UTC).isoformat()},
        "capture_method": CAPTURE,
        "spacing": {
            "base_unit": spacing.base_unit,
            "scale": list(spacing.scale),
            "capture_method": CAPTURE,
        },
        "type_scale": {
            "base_size": base,
            "ratio": ratio.ratio,
            "sizes": list(ratio.sizes),
            "capture_method": CAPTURE,
        },
        "grid": {
            "breakpoints": breakpoints,
            "columns": None if columns is None else min(int(columns), 48),
            "gutter": _mode(_numbers(data.get("gaps"))),
            "container_max": max(containers) if containers else None,
            "capture_method": CAPTURE,
        },
        "elevation": {"shadows": ramp, "capture_method": CAPTURE},
        "components": components,
        "identity_flags": {},
        "confidence_notes": notes,
    }


async def _measure(
    url: str, width: int, height: int, scheme: str | None, browser: str, timeout_s: float
) -> Any:
    from playwright.async_api import Error as PlaywrightError

    from argus.sense.browser import launch_args, start_playwright

    pw = await start_playwright()
    try:
        chromium = await pw.chromium.launch(
            executable_path=browser, args=launch_args(), handle_sigint=False
        )
        try:
            context = await chromium.new_context(
                viewport={"width": width, "height": height},
                accept_downloads=False,
                service_workers="block",
                color_scheme="dark" if scheme == "dark" else "light",
            )
            page = await context.new_page()
            try:
                await page.goto(url, wait_until="load", timeout=timeout_s * 1000)
            except PlaywrightError as exc:
                raise SensorError(
                    f"{url}: could not load the page ({exc.message.splitlines()[0]})"
                ) from exc
            cdp = await context.new_cdp_session(page)
            world = await isolated_world(cdp, "argus-design")
            answer = await cdp.send(
                "Runtime.evaluate",
                {"expression": extract_script(), "contextId": world, "returnByValue": True},
            )
        finally:
            await chromium.close()
    finally:
        await pw.stop()
    value = answer.get("result", {}).get("value")
    if not isinstance(value, str) or len(value) > 16 * 1024 * 1024:
        raise SensorError(f"{url}: the style extraction returned nothing usable")
    try:
        return loads_json(value)
    except json.JSONDecodeError as exc:
        raise SensorError(f"{url}: the style extraction returned malformed JSON") from exc


def measure(
    url: str,
    *,
    width: int,
    height: int,
    browser: str,
    color_scheme: str | None = None,
    timeout_s: float = 60.0,
) -> Any:
    """Render ``url`` and return the raw measurements (SensorError when it cannot)."""
    try:
        return asyncio.run(
            asyncio.wait_for(
                _measure(url, width, height, color_scheme, browser, timeout_s), timeout_s * 2
            )
        )
    except TimeoutError as exc:
        raise SensorError(f"{url}: style extraction took over {timeout_s * 2:g} s") from exc
