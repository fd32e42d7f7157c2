"""The render against a same-sensor baseline, region by region: where it changed, what is
under each change and what kind of change it is.

A candidate reference was rendered by Argus's own sensor from an approved state, so an
unchanged view gives the same pixels. Every region that differs beyond the measured tolerance
(argus.diff.sensor_tolerance; anti-aliasing excluded) is listed with its box (CSS px), its
share of the page's pixels, the elements under it (from the render's probe) and what changed:

- ``position``: the region's content is the reference's moved by a few px (searched up to
  MAX_SHIFT px along each axis);
- ``colour``: the same shapes in other colours (the outlines sit where they sat);
- ``content``: anything else (text, an icon, a size).

Masks declared in the spec (``snapshot.masks``, for dynamic content) are painted over in both
images first; nothing else accepts a changed region.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from argus.diff.comparison import compare
from argus.diff.masks import Box, paint_masks
from argus.diff.regions import Region
from argus.diff.sensor_tolerance import SensorTolerance
from argus.evidence.probe import Element, Probe

MAX_SHIFT = 8  # px searched for a moved region
PAD = MAX_SHIFT  # px of context around a region when classifying it
MAX_ELEMENTS = 3
HOLDS = 0.9  # an element "holds" a change when its box covers this share of the region
MOVED_RESIDUE = 0.05  # share of the differing pixels a shift may leave for "moved"
SAME_SHAPE = 0.9  # share of outline positions in common for "the same shapes"
# Changed regions closer than this (image px) are one change: a moved card changes along its
# top and bottom edges and every line of text in it, and is one thing that moved.
MERGE_GAP = 4 * MAX_SHIFT


@dataclass(frozen=True)
class RegionChange:
    box: Box  # CSS px
    share: float  # the region's differing pixels over the page's pixels
    pixels: int
    elements: tuple[str, ...]  # selectors of the smallest elements under it
    kind: str  # position | colour | content
    detail: str

    def describe(self) -> str:
        b = self.box
        under = ", ".join(self.elements) if self.elements else "the page"
        return (
            f"{self.kind} change at {b.width:g}x{b.height:g} px ({b.x:g}, {b.y:g}), "
            f"{self.share:.2%} of the pixels, under {under}: {self.detail}"
        )

    def to_json(self) -> dict[str, Any]:
        b = self.box
        return {
            "box": {"x": b.x, "y": b.y, "width": b.width, "height": b.height},
            "share": round(self.share, 6),
            "pixels": self.pixels,
            "elements": list(self.elements),
            "kind": self.kind,
            "detail": self.detail,
        }


@dataclass(frozen=True)
class Regression:
    exact_differing: int  # pixels whose bytes differ at all (masks aside)
    counted: int  # pixels differing beyond the tolerance, anti-aliasing excluded
    changes: tuple[RegionChange, ...]
    tolerance: SensorTolerance
    masked: int  # mask boxes painted


def compare_same_sensor(
    render: NDArray[np.uint8],
    reference: NDArray[np.uint8],
    probe: Probe,
    tolerance: SensorTolerance,
    masks: Sequence[Box] = (),
) -> Regression:
    """Compare two same-sized RGBA images made by the same sensor."""
    scale = render.shape[1] / probe.viewport_width if probe.viewport_width > 0 else 1.0
    ours, theirs = render, reference
    if masks:
        ours, theirs = render.copy(), reference.copy()
        paint_masks(ours, masks, scale)
        paint_masks(theirs, masks, scale)
    exact = int(np.count_nonzero(np.any(ours != theirs, axis=2)))
    if exact == 0:
        return Regression(0, 0, (), tolerance, len(masks))
    result = compare(ours, theirs, threshold=tolerance.threshold)
    total = result.total
    changes = tuple(
        _explain(region, ours, theirs, probe, scale, total)
        for region in merge_nearby(result.regions, MERGE_GAP)
    )
    return Regression(exact, result.mismatch, changes, tolerance, len(masks))


def merge_nearby(regions: Sequence[Region], gap: int) -> list[Region]:
    """Regions whose boxes come within ``gap`` px of each other, merged (until none do)."""
    merged = list(regions)
    changed = True
    while changed:
        changed = False
        out: list[Region] = []
        for region in merged:
            for i, other in enumerate(out):
                if _near(region, other, gap):
                    out[i] = _union(region, other)
                    changed = True
                    break
            else:
                out.append(region)
        merged = out
    return sorted(merged, key=lambda r: (r.y, r.x))


def _near(a: Region, b: Region, gap: int) -> bool:
    return (
        a.x - gap <= b.x + b.width
        and b.x - gap <= a.x + a.width
        and a.y - gap <= b.y + b.height
        and b.y - gap <= a.y + a.height
    )


def _union(a: Region, b: Region) -> Region:
    x, y = min(a.x, b.x), min(a.y, b.y)
    right = max(a.x + a.width, b.x + b.width)
    bottom = max(a.y + a.height, b.y + b.height)
    return Region(x, y, right - x, bottom - y, a.pixels + b.pixels)


def _explain(
    region: Region,
    ours: NDArray[np.uint8],
    theirs: NDArray[np.uint8],
    probe: Probe,
    scale: float,
    total: int,
) -> RegionChange:
    box = Box(
        round(region.x / scale, 1),
        round(region.y / scale, 1),
        round(region.width / scale, 1),
        round(region.height / scale, 1),
    )
    kind, detail = _classify(region, ours, theirs)
    return RegionChange(
        box, region.pixels / total, region.pixels, _elements_under(probe, box), kind, detail
    )


def _crop(img: NDArray[np.uint8], region: Region, pad: int) -> NDArray[np.int16]:
    height, width = img.shape[:2]
    y0, x0 = max(region.y - pad, 0), max(region.x - pad, 0)
    y1 = min(region.y + region.height + pad, height)
    x1 = min(region.x + region.width + pad, width)
    return img[y0:y1, x0:x1, :3].astype(np.int16)


def _classify(
    region: Region, ours: NDArray[np.uint8], theirs: NDArray[np.uint8]
) -> tuple[str, str]:
    a, b = _crop(ours, region, PAD), _crop(theirs, region, PAD)
    moved = _shift(a, b)
    if moved is not None:
        dx, dy = moved
        return "position", f"moved {dx:+d} px across and {dy:+d} px down from the reference"
    edges_a, edges_b = _edges(a), _edges(b)
    union = int(np.count_nonzero(edges_a | edges_b))
    if union == 0 or np.count_nonzero(edges_a & edges_b) / union >= SAME_SHAPE:
        before, after = _dominant(b, a), _dominant(a, b)
        return "colour", f"the same shapes, {before} in the reference and {after} here"
    return "content", "text, an icon or a size differs from the reference"


def _shift(a: NDArray[np.int16], b: NDArray[np.int16]) -> tuple[int, int] | None:
    """The (dx, dy) that makes ``a`` (the render) match ``b`` (the reference) over their
    overlap, searched along each axis: all but MOVED_RESIDUE of the differing pixels agree
    once shifted (glyph edges may rasterise a little differently). None when no shift does."""
    height, width = a.shape[:2]
    before = int(np.count_nonzero(np.any(a != b, axis=2)))
    best: tuple[int, int, int] | None = None
    for dx, dy in [(0, d) for d in range(-MAX_SHIFT, MAX_SHIFT + 1) if d] + [
        (d, 0) for d in range(-MAX_SHIFT, MAX_SHIFT + 1) if d
    ]:
        # The render's pixel at (x + dx, y + dy) is the reference's at (x, y).
        ys, xs = slice(max(-dy, 0), height - max(dy, 0)), slice(max(-dx, 0), width - max(dx, 0))
        yd, xd = slice(max(dy, 0), height + min(dy, 0)), slice(max(dx, 0), width + min(dx, 0))
        ref, moved = b[ys, xs], a[yd, xd]
        if not ref.size:
            continue
        left = int(np.count_nonzero(np.any(ref != moved, axis=2)))
        if best is None or left < best[0]:
            best = (left, dx, dy)
    if best is None or before == 0 or best[0] > MOVED_RESIDUE * before:
        return None
    return best[1], best[2]


def _edges(img: NDArray[np.int16]) -> NDArray[np.bool_]:
    """Where a pixel differs from its right or lower neighbour: the shapes' outlines, which a
    change of fill or ink colour leaves where they were."""
    out = np.zeros(img.shape[:2], dtype=bool)
    out[:, :-1] |= np.any(img[:, 1:] != img[:, :-1], axis=2)
    out[:-1, :] |= np.any(img[1:, :] != img[:-1, :], axis=2)
    return out


def _ink(img: NDArray[np.int16]) -> NDArray[np.bool_]:
    """Pixels that differ from the crop's most common colour (its background)."""
    flat = img.reshape(-1, 3)
    colours, counts = np.unique(flat, axis=0, return_counts=True)
    background = colours[int(np.argmax(counts))]
    return np.asarray(np.any(img != background, axis=2))


def _dominant(img: NDArray[np.int16], other: NDArray[np.int16]) -> str:
    """The most common colour among the pixels where ``img`` differs from ``other``."""
    where = np.any(img != other, axis=2)
    if not where.any():
        return "no colour"
    colours, counts = np.unique(img[where], axis=0, return_counts=True)
    r, g, b = (int(v) for v in colours[int(np.argmax(counts))])
    return f"#{r:02x}{g:02x}{b:02x}"


def _elements_under(probe: Probe, box: Box) -> tuple[str, ...]:
    """The element that holds the change (the smallest whose box covers nearly all of it),
    then the largest elements lying mostly inside it."""
    area = max(box.width * box.height, 1.0)
    holders: list[Element] = []
    inside: list[Element] = []
    for element in probe.elements:
        e = element.box
        if not element.visible or e.width <= 1 or e.height <= 1:
            continue
        w = min(e.x + e.width, box.x + box.width) - max(e.x, box.x)
        h = min(e.y + e.height, box.y + box.height) - max(e.y, box.y)
        if w <= 0 or h <= 0:
            continue
        if w * h >= HOLDS * area:
            holders.append(element)
        elif w * h >= 0.5 * e.width * e.height:
            inside.append(element)
    found: list[Element] = []
    if holders:
        found.append(min(holders, key=lambda e: e.box.width * e.box.height))
    found.extend(sorted(inside, key=lambda e: -e.box.width * e.box.height))
    seen: list[str] = []
    for element in found:
        selector = probe.selector(element)
        if selector not in seen:
            seen.append(selector)
        if len(seen) == MAX_ELEMENTS:
            break
    return tuple(seen)
