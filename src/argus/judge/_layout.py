"""Find the layout in a screenshot: regions on the page background, and ink blocks inside them.

Only the image is needed, so a reference drawn by a designer and a render are read the same
way. Two levels:

- *regions*: connected areas that differ from the page background (cards, buttons, groups of
  text lines), found on a grid of CELL×CELL cells with small gaps closed;
- *blocks*: inside each region, connected groups of ink (text lines, icons, controls) that differ
  from the region's own dominant colour, with letter and word gaps closed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from argus.diff.regions import changed_regions

RGB = NDArray[np.uint8]
Mask = NDArray[np.bool_]

CELL = 4  # px per grid cell
REGION_DELTA = 6  # a channel this far from the page background belongs to a region
INK_DELTA = 24  # a channel this far from a region's own colour is ink (text, icons)
# Gaps closed, in cells, as (vertical, horizontal) grow radii: a gap up to twice the radius joins.
REGION_GAP = (2, 2)  # parts of one region: up to 16 px apart
BLOCK_GAP = (1, 2)  # letters and words of a line (16 px across), lines of a paragraph (8 px)
RIM = 3  # px along a filled region's edge that belong to its outline
CORNER = 10  # px square at each corner of a filled region left to its rounding
MIN_INK_PIXELS = 12  # smaller specks are anti-aliasing, not blocks


@dataclass(frozen=True)
class Box:
    x: int
    y: int
    width: int
    height: int

    @property
    def area(self) -> int:
        return self.width * self.height

    @property
    def center(self) -> tuple[float, float]:
        return (self.x + self.width / 2, self.y + self.height / 2)

    def iou(self, other: Box) -> float:
        ix = max(0, min(self.x + self.width, other.x + other.width) - max(self.x, other.x))
        iy = max(0, min(self.y + self.height, other.y + other.height) - max(self.y, other.y))
        inter = ix * iy
        union = self.area + other.area - inter
        return inter / union if union else 0.0


@dataclass(frozen=True)
class Block:
    box: Box
    ink: tuple[float, float, float]  # mean colour of the block's ink pixels
    ground: tuple[float, float, float]  # colour the ink sits on
    ink_pixels: int


def background_color(image: RGB) -> tuple[int, int, int]:
    """The most common colour (the page background for a UI screenshot), every other pixel.

    A colour covering more than half the sampled pixels is the most common one, whatever the
    rest hold; the usual page is settled by counting one candidate (the mode of a sparse
    sample). Otherwise all the colours are counted; ties go to the smallest 0xRRGGBB value.
    """
    sampled = image[::2, ::2, :3]
    packed = (
        (sampled[..., 0].astype(np.uint32) << 16)
        | (sampled[..., 1].astype(np.uint32) << 8)
        | sampled[..., 2]
    )
    values, counts = np.unique(packed[::8, ::8], return_counts=True)
    top = int(values[int(np.argmax(counts))])
    if 2 * np.count_nonzero(packed == top) <= packed.size:
        values, counts = np.unique(packed, return_counts=True)
        top = int(values[int(np.argmax(counts))])
    return ((top >> 16) & 255, (top >> 8) & 255, top & 255)


def ink_mask(image: RGB, ground: tuple[float, float, float], delta: int = INK_DELTA) -> Mask:
    """Pixels with a channel more than ``delta`` away from ``ground`` (truncated to whole levels).

    Compared channel by channel against the two thresholds in uint8, which is |c - g| > delta
    without a widened copy of the image.
    """
    out: Mask = np.zeros(image.shape[:2], dtype=bool)
    for channel in range(3):
        level = int(ground[channel])
        values = image[..., channel]
        if level + delta < 255:
            out |= values > level + delta
        if level - delta > 0:
            out |= values < level - delta
    return out


def _cells(mask: Mask) -> Mask:
    """Any ink in a CELL×CELL cell marks the cell (a partial cell at the edge counts too)."""
    h, w = mask.shape
    padded = np.pad(mask, ((0, -h % CELL), (0, -w % CELL)))
    # OR the CELL rows of each cell, then its CELL columns: strided slices, no 4-axis reduce.
    rows = padded[0::CELL].copy()
    for i in range(1, CELL):
        rows |= padded[i::CELL]
    cells = rows[:, 0::CELL].copy()
    for i in range(1, CELL):
        cells |= rows[:, i::CELL]
    return cells


def _dilate(grid: Mask, radius: tuple[int, int]) -> Mask:
    out = grid.copy()
    for _ in range(radius[0]):
        grown = out.copy()
        grown[1:, :] |= out[:-1, :]
        grown[:-1, :] |= out[1:, :]
        out = grown
    for _ in range(radius[1]):
        grown = out.copy()
        grown[:, 1:] |= out[:, :-1]
        grown[:, :-1] |= out[:, 1:]
        out = grown
    return out


def _distance(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    return max(abs(x - y) for x, y in zip(a, b, strict=True))


def _interior(shape: tuple[int, ...]) -> Mask:
    h, w = shape[0], shape[1]
    keep = np.zeros((h, w), dtype=bool)
    keep[RIM : h - RIM, RIM : w - RIM] = True
    for ys in (slice(0, CORNER), slice(max(0, h - CORNER), h)):
        for xs in (slice(0, CORNER), slice(max(0, w - CORNER), w)):
            keep[ys, xs] = False
    return keep


def _boxes(mask: Mask, gap: tuple[int, int]) -> list[Box]:
    """Bounding boxes (px) of the ink of each group left after closing gaps of ``gap`` cells."""
    grid = _cells(mask)
    closed = _dilate(grid, gap)
    rows, cols = closed.shape
    # Cells are the pixels here: the diff module's connected components on the closed grid.
    groups = changed_regions(np.flatnonzero(closed), cols, rows, cell=1, limit=rows * cols)
    boxes: list[Box] = []
    h, w = mask.shape
    for group in groups:
        y0, x0 = group.y * CELL, group.x * CELL
        y1, x1 = min(h, (group.y + group.height) * CELL), min(w, (group.x + group.width) * CELL)
        ink = mask[y0:y1, x0:x1]
        if np.count_nonzero(ink) < MIN_INK_PIXELS:
            continue
        ys, xs = np.flatnonzero(ink.any(axis=1)), np.flatnonzero(ink.any(axis=0))
        boxes.append(
            Box(x0 + int(xs[0]), y0 + int(ys[0]), int(xs[-1] - xs[0]) + 1, int(ys[-1] - ys[0]) + 1)
        )
    return boxes


def find_regions(image: RGB) -> list[Block]:
    """Areas that stand out from the page background, largest first."""
    ground = background_color(image)
    mask = ink_mask(image, ground, REGION_DELTA)
    return sorted(
        (_block(image, mask, box, ground) for box in _boxes(mask, REGION_GAP)),
        key=lambda b: -b.box.area,
    )


def find_blocks(image: RGB, regions: list[Block] | None = None) -> list[Block]:
    """Every region, and the ink blocks inside it (text lines, icons, inner controls)."""
    blocks: list[Block] = []
    page = background_color(image)
    for region in regions if regions is not None else find_regions(image):
        blocks.append(region)
        box = region.box
        crop = image[box.y : box.y + box.height, box.x : box.x + box.width]
        ground = background_color(crop)
        mask = ink_mask(crop, ground)
        if _distance(ground, page) > REGION_DELTA:
            # A filled shape (card, button): its rim and round corners are outline, not content.
            mask = mask & _interior(mask.shape)
        for inner in _boxes(mask, BLOCK_GAP):
            if inner.area >= 0.9 * box.area:
                continue  # the region's own outline, already listed
            blocks.append(_block(crop, mask, inner, ground, offset=(box.x, box.y)))
    return blocks


def _block(
    image: RGB,
    mask: Mask,
    box: Box,
    ground: tuple[float, float, float],
    offset: tuple[int, int] = (0, 0),
) -> Block:
    sub_mask = mask[box.y : box.y + box.height, box.x : box.x + box.width]
    sub = image[box.y : box.y + box.height, box.x : box.x + box.width, :3]
    count = int(np.count_nonzero(sub_mask))
    # Whole-number channel sums are exact, so sum / count is the float mean NumPy would give.
    if count:
        sums = [int(np.add.reduce(sub[..., c][sub_mask], dtype=np.int64)) for c in range(3)]
        colour = (sums[0] / count, sums[1] / count, sums[2] / count)
    else:
        ink = sub.reshape(-1, 3).mean(axis=0)
        colour = (float(ink[0]), float(ink[1]), float(ink[2]))
    placed = Box(box.x + offset[0], box.y + offset[1], box.width, box.height)
    return Block(placed, colour, (float(ground[0]), float(ground[1]), float(ground[2])), count)
