"""Rows, columns and edge alignment: the geometry checks 3 and 4 share.

A *row* is a largest set of boxes whose vertical extents overlap (one horizontal line crosses
them all), ordered by x; a *column* is the same turned a quarter: boxes whose horizontal
extents overlap, ordered by y. Two boxes that intersect are check 1's business and take no
part in a line, so the gap between neighbours in a line is never negative. A box spanning the
whole canvas across a line's direction (a full-bleed header above the content, a full-height
sidebar beside it) lines up with the canvas, not with padded content: it is left out.

    lines(boxes, "y", tolerance, page.height)  ->  rows, each left to right
    lines(boxes, "x", tolerance, page.width)   ->  columns, each top to bottom
    misalignment(a, b, "x", tolerance)  ->  how far a column's neighbours miss a shared edge
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import pairwise
from typing import Literal

from argus.layout.model import Box

Axis = Literal["x", "y"]  # the axis the edges are compared on (x: left/right, y: top/bottom)
EPSILON = 0.01  # float noise in hand-written or exported positions
ALIGN_WINDOW_PX = 40.0  # edges this close were meant to meet (unless the tolerance is wider)


def extent(box: Box, axis: Axis) -> tuple[float, float]:
    return (box.x, box.right) if axis == "x" else (box.y, box.bottom)


def _other(axis: Axis) -> Axis:
    return "y" if axis == "x" else "x"


def overlap(a: Box, b: Box, axis: Axis) -> float:
    """How far the two boxes' extents on ``axis`` overlap (negative: the gap between them)."""
    (a0, a1), (b0, b1) = extent(a, axis), extent(b, axis)
    return min(a1, b1) - max(a0, b0)


def intersects(a: Box, b: Box) -> bool:
    return overlap(a, b, "x") > EPSILON and overlap(a, b, "y") > EPSILON


def intersecting_pairs(boxes: list[Box]) -> list[tuple[int, int]]:
    """Each pair ``(i, j)``, ``i < j``, of boxes that intersect, in order: a sweep along x that
    compares only boxes whose x extents can still overlap (a page may hold 2000 boxes)."""
    pairs: list[tuple[int, int]] = []
    active: list[int] = []
    for i in sorted(range(len(boxes)), key=lambda i: boxes[i].x):
        active = [j for j in active if boxes[j].right > boxes[i].x + EPSILON]
        pairs.extend((min(i, j), max(i, j)) for j in active if intersects(boxes[i], boxes[j]))
        active.append(i)
    return sorted(pairs)


def full_bleed(box: Box, axis: Axis, reach: float, tolerance: float) -> bool:
    """The box runs from the canvas's start edge on ``axis`` to ``reach``, the far edge of
    everything on the page."""
    start, end = extent(box, axis)
    return start <= tolerance + EPSILON and end >= reach - tolerance - EPSILON


def lines(
    boxes: list[Box], across: Axis, tolerance: float, canvas: float | None = None
) -> list[list[Box]]:
    """Rows (``across="y"``: extents on y overlap) or columns (``across="x"``).

    Each line is a maximal set crossed by one line at some box's start edge (every maximal
    set of overlapping intervals contains such a start), ordered along the other axis.
    A box from the canvas's start edge to its far edge (the page's size on ``across``, or the
    far edge of the boxes when that is nearer) is full-bleed and set aside, unless every box
    is (then there is no padded content to set it apart from).
    """
    if not boxes:
        return []
    along = _other(across)
    reach = max(extent(b, across)[1] for b in boxes)
    reach = reach if canvas is None else min(canvas, reach)  # a scrollbar narrows a web page
    sized = [b for b in boxes if b.width > EPSILON and b.height > EPSILON]
    bleeding = [full_bleed(b, across, reach, tolerance) for b in sized]
    members = [b for b, bleeds in zip(sized, bleeding, strict=True) if not bleeds or all(bleeding)]
    hits: list[set[int]] = [set() for _ in members]
    for i, j in intersecting_pairs(members):
        hits[i].add(j)
        hits[j].add(i)
    found: set[frozenset[int]] = set()
    order = sorted(range(len(members)), key=lambda i: extent(members[i], across)[0])
    crossed: set[int] = set()
    added = 0
    for start in sorted({extent(b, across)[0] for b in members}):
        # sweep: every box starting by this line joins, every box ending at it leaves
        while added < len(order) and extent(members[order[added]], across)[0] <= start + EPSILON:
            crossed.add(order[added])
            added += 1
        crossed = {i for i in crossed if extent(members[i], across)[1] > start + EPSILON}
        # an intersecting pair is an overlap (check 1), not neighbours with a gap
        kept = frozenset(i for i in crossed if not hits[i] & crossed)
        if kept:
            found.add(kept)
    maximal = [s for s in found if not any(s < other for other in found)]
    ordered = [sorted((members[i] for i in s), key=lambda b: extent(b, along)) for s in maximal]
    return sorted(
        ordered,
        key=lambda line: (
            max(extent(b, across)[0] for b in line),  # where the crossing line runs
            [extent(b, along) for b in line],
        ),
    )


def gaps(line: list[Box], along: Axis) -> list[float]:
    """The space between neighbours in a line, never negative (float noise is clamped)."""
    return [max(0.0, extent(b, along)[0] - extent(a, along)[1]) for a, b in pairwise(line)]


def neighbours(line_sets: list[list[Box]]) -> Iterator[tuple[Box, Box]]:
    """Each pair of neighbours in any line, once."""
    seen: set[tuple[int, int]] = set()
    for line in line_sets:
        for a, b in pairwise(line):
            key = (id(a), id(b))
            if key not in seen:
                seen.add(key)
                yield a, b


@dataclass(frozen=True)
class Misalignment:
    edge: str  # the nearer edge pair: "left", "right", "top" or "bottom"
    offset: float  # how far apart those edges are


def misalignment(a: Box, b: Box, axis: Axis, tolerance: float) -> Misalignment | None:
    """Whether neighbours in a line miss the edge they were meant to share on ``axis``.

    Aligned when the start edges or the end edges agree within ``tolerance`` (a wide chart
    above a card that ends where the chart ends is aligned). Misaligned when the nearer pair of
    edges is a near miss (within the alignment window), or when the two share most of their
    extent (more than half of each) without sharing an edge: one column drawn twice, off by
    however much. Otherwise the smaller box sits inside the larger one's span by intent (the
    middle card under a wide chart), and nothing is said.
    """
    (a0, a1), (b0, b1) = extent(a, axis), extent(b, axis)
    start, end = abs(a0 - b0), abs(a1 - b1)
    near = min(start, end)
    if near <= tolerance + EPSILON:
        return None
    shared = overlap(a, b, axis)
    same_column = shared > (a1 - a0) / 2 and shared > (b1 - b0) / 2
    if near <= max(ALIGN_WINDOW_PX, 4 * tolerance) + EPSILON or same_column:
        names = ("left", "right") if axis == "x" else ("top", "bottom")
        return Misalignment(names[0] if start <= end else names[1], near)
    return None
