"""Compare the composition of a render with a reference, block by block, never pixel by pixel.

Two readings of the same block layout (argus.judge._layout):

- ``design_scores`` follows Design2Code (Si et al., 2024, "Design2Code: How Far Are We From
  Automating Front-End Engineering?"): blocks of both images are paired by a minimum-cost
  assignment, then scored for block match (share of block area that found a partner), position
  (how far paired blocks moved) and colour (CIEDE2000 between paired blocks' ink). Used against a
  reference a human made.
- ``structure_changes`` asks whether the composition is *unchanged*: every region still there
  (paired by overlap), every block inside still in its place relative to its region. A block
  with no partner is forgiven only when it repeats a paired block's column and shape (one list
  row more or fewer is content, which functional_correctness counts; it is not composition).
  Used against a candidate reference, which only guards against regression.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from argus.color import RGBA, delta_e_2000
from argus.judge._assignment import assign
from argus.judge._layout import Block, Box

UNPAIRED = 1e6  # cost of a pair that must not be made
REGION_MIN_IOU = 0.5  # regions overlap at least this much to be the same region
REGROUPED_COVER = 0.5  # an unpaired region this covered by the other side's regions was regrouped
REGROUP_SLACK = 12  # px
BLOCK_SHIFT = 24  # px a block may move inside its region and still be the same block
DESIGN_MAX_SHIFT = 0.1  # share of the page size a block may move and still pair (Design2Code)
COLOUR_SCALE = 50.0  # ΔE2000 at which colour similarity reaches 0


@dataclass(frozen=True)
class DesignScores:
    block_match: float
    position: float
    colour: float
    pairs: int
    render_blocks: int
    reference_blocks: int


@dataclass(frozen=True)
class StructureChange:
    kind: str  # "region" or "block"
    side: str  # "render" (new) or "reference" (gone)
    box: Box

    def describe(self) -> str:
        what = "a region" if self.kind == "region" else "a block"
        where = f"({self.box.x}, {self.box.y}) {self.box.width}×{self.box.height}px"
        verb = (
            "appears in the render at" if self.side == "render" else "of the reference is gone at"
        )
        return f"{what} {verb} {where}"


def _pairs(cost: list[list[float]]) -> list[tuple[int, int]]:
    return [(i, j) for i, j in assign(cost) if cost[i][j] < UNPAIRED] if cost and cost[0] else []


def design_scores(
    render: list[Block], reference: list[Block], page: tuple[int, int]
) -> DesignScores:
    """Design2Code block-match, position and colour scores (each 0..1, 1 = identical)."""
    span = float(max(page))
    cost = []
    for r in render:
        row = []
        for f in reference:
            (rx, ry), (fx, fy) = r.box.center, f.box.center
            shift = max(abs(rx - fx), abs(ry - fy)) / span
            size = 1 - min(r.box.area, f.box.area) / max(r.box.area, f.box.area, 1)
            row.append(
                shift + 0.5 * size if shift <= DESIGN_MAX_SHIFT and size <= 0.75 else UNPAIRED
            )
        cost.append(row)
    pairs = _pairs(cost)
    total = sum(b.box.area for b in render) + sum(b.box.area for b in reference)
    matched = sum(render[i].box.area + reference[j].box.area for i, j in pairs)
    shifts, colours = [], []
    for i, j in pairs:
        (rx, ry), (fx, fy) = render[i].box.center, reference[j].box.center
        shifts.append(max(abs(rx - fx), abs(ry - fy)) / span)
        distance = delta_e_2000(RGBA(*render[i].ink), RGBA(*reference[j].ink))
        colours.append(max(0.0, 1 - distance / COLOUR_SCALE))
    return DesignScores(
        block_match=matched / total if total else 1.0,
        position=1 - sum(shifts) / len(shifts) if shifts else 0.0,
        colour=sum(colours) / len(colours) if colours else 0.0,
        pairs=len(pairs),
        render_blocks=len(render),
        reference_blocks=len(reference),
    )


def _inside(block: Block, region: Block) -> bool:
    b, r = block.box, region.box
    return (
        b.x >= r.x
        and b.y >= r.y
        and b.x + b.width <= r.x + r.width
        and b.y + b.height <= r.y + r.height
    )


def structure_changes(
    render_regions: list[Block],
    render_blocks: list[Block],
    reference_regions: list[Block],
    reference_blocks: list[Block],
) -> list[StructureChange]:
    """What moved, appeared or disappeared between the reference's composition and the render's."""
    cost = [
        [
            1 - r.box.iou(f.box) if r.box.iou(f.box) >= REGION_MIN_IOU else UNPAIRED
            for f in reference_regions
        ]
        for r in render_regions
    ]
    pairs = _pairs(cost)
    paired_r, paired_f = {i for i, _ in pairs}, {j for _, j in pairs}
    # A region that split in two or merged with a neighbour is regrouped, not moved: it is
    # forgiven when the other side's regions still cover most of it.
    changes = [
        StructureChange("region", "render", r.box)
        for i, r in enumerate(render_regions)
        if i not in paired_r and _covered(r.box, reference_regions) < REGROUPED_COVER
    ]
    changes += [
        StructureChange("region", "reference", f.box)
        for j, f in enumerate(reference_regions)
        if j not in paired_f and _covered(f.box, render_regions) < REGROUPED_COVER
    ]
    for i, j in pairs:
        region_r, region_f = render_regions[i], reference_regions[j]
        inner_r = [b for b in render_blocks if b is not region_r and _inside(b, region_r)]
        inner_f = [b for b in reference_blocks if b is not region_f and _inside(b, region_f)]
        changes += _inner_changes(inner_r, region_r.box, inner_f, region_f.box)
    return changes


def _covered(box: Box, others: list[Block]) -> float:
    """Share of ``box`` that the other side's regions cover (they do not overlap each other)."""
    covered = 0
    for other in others:
        # Grown by a spacing step, so that a neighbour pushed a few px away still counts.
        o = Box(
            other.box.x - REGROUP_SLACK,
            other.box.y - REGROUP_SLACK,
            other.box.width + 2 * REGROUP_SLACK,
            other.box.height + 2 * REGROUP_SLACK,
        )
        ix = max(0, min(box.x + box.width, o.x + o.width) - max(box.x, o.x))
        iy = max(0, min(box.y + box.height, o.y + o.height) - max(box.y, o.y))
        covered += ix * iy
    return covered / box.area if box.area else 0.0


def _offset(box: Box, origin: Box) -> tuple[int, int]:
    return box.x - origin.x, box.y - origin.y


def _same_place(a: Box, a_origin: Box, b: Box, b_origin: Box) -> bool:
    (ax, ay), (bx, by) = _offset(a, a_origin), _offset(b, b_origin)
    if abs(ax - bx) > BLOCK_SHIFT or abs(ay - by) > BLOCK_SHIFT:
        return False
    # Heights say what kind of block it is (a text line, a two-line group, an icon); widths
    # follow the words, so they may differ more.
    return abs(a.height - b.height) <= max(8, 0.5 * b.height) and abs(a.width - b.width) <= max(
        24, 0.75 * b.width
    )


def _inner_changes(
    render: list[Block], render_origin: Box, reference: list[Block], reference_origin: Box
) -> list[StructureChange]:
    cost = []
    for r in render:
        row = []
        for f in reference:
            if _same_place(r.box, render_origin, f.box, reference_origin):
                (rx, ry), (fx, fy) = _offset(r.box, render_origin), _offset(f.box, reference_origin)
                row.append(math.hypot(rx - fx, ry - fy) + abs(r.box.height - f.box.height))
            else:
                row.append(UNPAIRED)
        cost.append(row)
    pairs = _pairs(cost)
    paired_r = {i for i, _ in pairs}
    paired_f = {j for _, j in pairs}
    changes = []
    for i, r in enumerate(render):
        if i not in paired_r and not _repeats(r.box, [render[k].box for k in paired_r]):
            changes.append(StructureChange("block", "render", r.box))
    for j, f in enumerate(reference):
        if j not in paired_f and not _repeats(f.box, [reference[k].box for k in paired_f]):
            changes.append(StructureChange("block", "reference", f.box))
    return changes


def _repeats(box: Box, paired: list[Box]) -> bool:
    """Another row of a repeated pattern: a paired block in the same column with the same shape."""
    return any(
        abs(box.x - p.x) <= 4
        and abs(box.height - p.height) <= max(4, 0.25 * p.height)
        and abs(box.width - p.width) <= max(24, 0.75 * p.width)
        and p.y != box.y
        for p in paired
    )
