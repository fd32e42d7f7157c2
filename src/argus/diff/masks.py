"""Masks: regions painted one identical colour in both images before they are compared.

A spec names masks as CSS selectors (any selector ``querySelectorAll`` takes; a bare word names
an element id or data-testid first, then a tag, as Argus always read it). The web sensor
resolves them in the page, on the render the screenshot shows, and records every drawn match's
box in probe.json (``masks``: selector -> boxes, CSS pixels of the render); those boxes are
scaled to image pixels by the device pixel ratio and painted in Playwright's default mask
colour. A probe without that record (sensed before Argus kept it, or by an adapter), or one
sensed before the selector was added, is matched against its element dump instead, which
answers ``#id``, ``[data-testid=x]`` and a bare id, test id or tag; any other selector there
needs the view sensed again.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from argus.diff.arrays import U8
from argus.errors import InputError
from argus.spec.selectors import ID as _ID
from argus.spec.selectors import TESTID as _TESTID
from argus.spec.selectors import WORD as _WORD
from argus.spec.selectors import supported_selector

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


class MaskSelectorError(InputError):
    """A mask selector the page could not parse (its SyntaxError's message in ``reason``)."""

    def __init__(self, selector: str, reason: str) -> None:
        self.selector = selector
        self.reason = reason
        super().__init__(
            f"snapshot mask {selector!r} is not a CSS selector the browser can parse "
            f"({reason}); fix it in the spec's snapshot.masks"
        )


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


def recorded_masks(probe: Mapping[str, Any]) -> dict[str, tuple[Box, ...]] | None:
    """The boxes the sensor recorded per mask selector (probe.json ``masks``); None when the
    probe has no such record. InputError when the record is not selector -> list of boxes."""
    raw = probe.get("masks")
    if raw is None:
        return None
    broken = InputError("probe.json: 'masks' is not selector -> boxes; sense the view again")
    if not isinstance(raw, Mapping):
        raise broken
    found: dict[str, tuple[Box, ...]] = {}
    for selector, boxes in raw.items():
        if not isinstance(boxes, list):
            raise broken
        found[str(selector)] = tuple(_recorded_box(box, broken) for box in boxes)
    return found


def _recorded_box(raw: object, broken: InputError) -> Box:
    if not isinstance(raw, Mapping):
        raise broken
    try:
        values = [raw[key] for key in ("x", "y", "width", "height")]
    except KeyError:
        raise broken from None
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        raise broken
    return Box(*(float(v) for v in values))


def resolve_masks(selectors: Iterable[str], probe: Mapping[str, Any]) -> MaskResolution:
    """The boxes of what each selector masks in the probe's render.

    A selector the sensor resolved in the page (probe.json ``masks``): the boxes it recorded.
    Otherwise (an older probe, an adapter's, or a selector added to the spec since the view
    was sensed) the visible probe elements it names: ``#id``, ``[data-testid=x]`` (quotes
    optional), and a bare word, which names elements whose id or data-testid is that word, or
    failing those, elements of that tag. Any other selector is then an InputError saying to
    sense the view again (the element dump holds no DOM to match it against).
    """
    recorded = recorded_masks(probe)
    boxes: list[Box] = []
    unresolved: list[str] = []
    for raw in selectors:
        if recorded is not None and raw in recorded:
            found = [box for box in recorded[raw] if not box.empty]
        elif supported_selector(raw):
            hits, _ = select_elements([raw], probe)
            found = [box for box in (_box(e) for e in hits) if box is not None]
        else:
            raise InputError(
                f"snapshot mask {raw!r}: probe.json has no boxes recorded for it (sensed "
                "before the mask was added, by an older Argus, or by an adapter), and its "
                "element dump answers only #id, [data-testid=x], an element id or a tag name; "
                "sense the view again (argus sense, or argus gates --sense)"
            )
        if not found:
            unresolved.append(raw)
        boxes.extend(found)
    return MaskResolution(tuple(boxes), tuple(unresolved))


def paint_masks(img: U8, boxes: Sequence[Box], scale: float = 1.0) -> None:
    """Fill each box (CSS pixels x ``scale``), clipped to the image, with the mask colour."""
    for y0, y1, x0, x1 in _clipped(boxes, scale, img.shape[0], img.shape[1]):
        img[y0:y1, x0:x1] = MASK_RGBA


def newly_masked(baseline: U8, boxes: Sequence[Box], scale: float) -> int:
    """The baseline's pixels the boxes (CSS pixels x ``scale``) cover that it shows: not
    already painted in the mask colour when it was written."""
    height, width = baseline.shape[:2]
    covered = np.zeros((height, width), dtype=bool)
    for y0, y1, x0, x1 in _clipped(boxes, scale, height, width):
        covered[y0:y1, x0:x1] = True
    if not covered.any():
        return 0
    painted = (baseline == np.asarray(MASK_RGBA, dtype=baseline.dtype)).all(axis=2)
    return int(np.count_nonzero(covered & ~painted))


def _clipped(
    boxes: Sequence[Box], scale: float, height: int, width: int
) -> Iterator[tuple[int, int, int, int]]:
    """Each box's rows and columns in image pixels (y0, y1, x0, x1), clipped to the image;
    a box wholly outside it yields nothing."""
    for box in boxes:
        x, y, w, h = box.to_pixels(scale)
        x0, y0 = max(x, 0), max(y, 0)
        x1, y1 = min(x + w, width), min(y + h, height)
        if x1 > x0 and y1 > y0:
            yield y0, y1, x0, x1
