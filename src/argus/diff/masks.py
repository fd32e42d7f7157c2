"""Masks: regions painted one identical colour in both images before they are compared.

A spec names masks as CSS selectors or element ids; they are resolved against the elements
the probe recorded (probe.json) to boxes in CSS pixels, scaled to image pixels by the device
pixel ratio, and painted in Playwright's default mask colour.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from argus.diff.arrays import U8
from argus.errors import InputError
from argus.spec.selectors import ID as _ID
from argus.spec.selectors import TESTID as _TESTID
from argus.spec.selectors import WORD as _WORD

MASK_RGBA = (255, 0, 255, 255)  # Playwright's default maskColor, #FF00FF


@dataclass(frozen=True)
class Box:
    """A rectangle in CSS pixels, as the probe records element boxes (the gates' probe
    reader uses this same class)."""

    x: float
    y: float
    width: float
    height: float

    @property
    def empty(self) -> bool:
        return self.width <= 0 or self.height <= 0

    def to_pixels(self, scale: float = 1.0) -> tuple[int, int, int, int]:
        """(x, y, width, height) in image pixels, grown outward to whole pixels."""
        x0 = math.floor(self.x * scale)
        y0 = math.floor(self.y * scale)
        x1 = math.ceil((self.x + self.width) * scale)
        y1 = math.ceil((self.y + self.height) * scale)
        return x0, y0, x1 - x0, y1 - y0


@dataclass(frozen=True)
class MaskResolution:
    boxes: tuple[Box, ...]
    unresolved: tuple[str, ...]  # selectors that matched no visible element


def _matches(selector: str, element: Mapping[str, Any]) -> bool:
    if found := _ID.match(selector):
        return bool(element.get("id") == found.group(1))
    if found := _TESTID.match(selector):
        wanted = next(g for g in found.groups() if g is not None)
        return bool(element.get("testid") == wanted)
    # A bare word is an element id or data-testid first, else a tag name (see resolve_masks).
    return False


def _elements(probe: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    elements = probe.get("elements")
    if not isinstance(elements, list):
        raise InputError("probe.json: no 'elements' list; re-run argus sense for this view")
    return [e for e in elements if isinstance(e, Mapping)]


def _box(element: Mapping[str, Any]) -> Box | None:
    raw = element.get("box")
    if not isinstance(raw, Mapping) or element.get("visible") is False:
        return None
    try:
        box = Box(float(raw["x"]), float(raw["y"]), float(raw["width"]), float(raw["height"]))
    except (KeyError, TypeError, ValueError):
        return None
    return None if box.empty else box


def select_elements(
    selectors: Iterable[str], probe: Mapping[str, Any], what: str = "snapshot mask"
) -> tuple[list[Mapping[str, Any]], tuple[str, ...]]:
    """The probe elements each selector names (in selector order), and the selectors that
    named none. Selectors as for ``resolve_masks``; ``what`` names the setting in errors."""
    elements = _elements(probe)
    hits: list[Mapping[str, Any]] = []
    unresolved: list[str] = []
    for raw in selectors:
        selector = raw.strip()
        if _ID.match(selector) or _TESTID.match(selector):
            found = [e for e in elements if _matches(selector, e)]
        elif _WORD.match(selector):
            found = [e for e in elements if selector in (e.get("id"), e.get("testid"))]
            if not found:
                found = [e for e in elements if str(e.get("tag", "")).lower() == selector.lower()]
        else:
            raise InputError(
                f"{what} {raw!r}: unsupported selector; use #id, [data-testid=x], "
                "an element id or a tag name"
            )
        if not found:
            unresolved.append(raw)
        hits.extend(found)
    return hits, tuple(unresolved)


def resolve_masks(selectors: Iterable[str], probe: Mapping[str, Any]) -> MaskResolution:
    """Boxes of the visible probe elements each selector names.

    Supported: ``#id``, ``[data-testid=x]`` (quotes optional), and a bare word, which names
    elements whose id or data-testid is that word, or failing those, elements of that tag.
    Any other selector is an InputError (the probe holds no full DOM to match it against).
    """
    boxes: list[Box] = []
    unresolved: list[str] = []
    for raw in selectors:
        hits, _ = select_elements([raw], probe)
        found = [box for box in (_box(e) for e in hits) if box is not None]
        if not found:
            unresolved.append(raw)
        boxes.extend(found)
    return MaskResolution(tuple(boxes), tuple(unresolved))


def paint_masks(img: U8, boxes: Sequence[Box], scale: float = 1.0) -> None:
    """Fill each box (CSS pixels x ``scale``), clipped to the image, with the mask colour."""
    height, width = img.shape[:2]
    for box in boxes:
        x, y, w, h = box.to_pixels(scale)
        x0, y0 = max(x, 0), max(y, 0)
        x1, y1 = min(x + w, width), min(y + h, height)
        if x1 > x0 and y1 > y0:
            img[y0:y1, x0:x1] = MASK_RGBA
