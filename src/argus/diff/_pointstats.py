"""The density and the regions of a few differing pixels, in plain Python.

The same answers as ``argus.diff._density.window_density`` and
``argus.diff.regions.changed_regions`` give from a numpy array of the same positions, for
the path of ``argus diff`` that runs without numpy (``argus.diff.sparse``): their cost grows
with the number of pixels here, not with the image.

The densest window: a window holding the most pixels can be slid down and right, staying
in the image, until its top and its left edge each meet a pixel or the image's far edge,
without losing any; so only windows whose top is a pixel's row (or the last row a window
can start on) and whose left edge is a pixel's column (or the last such column) are counted.

The regions: the same cells, the same runs of occupied cells and the same union-find, in the
same order, as ``argus.diff.regions.band_regions``: its labels are the roots that order
leaves, and ties in the pixel count are ranked by label, so the order of equal regions is
the same too.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence
from itertools import accumulate

from argus.diff.region import Region


def window_density(positions: Sequence[int], width: int, height: int, window: int) -> int:
    """Most of ``positions`` (flat pixel indices, ascending) in any window x window square
    that fits in the image (the whole image when it is smaller than the window)."""
    if window < 1:
        raise ValueError("window must be at least 1")
    if not positions:
        return 0
    win_w, win_h = min(window, width), min(window, height)
    last_x, last_y = width - win_w, height - win_h
    rows = [pos // width for pos in positions]  # ascending
    best = 0
    start = end = 0  # the points in rows top to top + win_h
    for top in sorted({min(y, last_y) for y in rows}):
        start = bisect_left(rows, top, start)
        reached, end = end, bisect_left(rows, top + win_h, end)
        # No point below the last band's: this band's points are some of the last band's,
        # and none of its windows holds more than the last band's best one.
        if end > reached and end - start > best:
            best = max(best, _densest_columns(positions[start:end], width, win_w, last_x))
    return best


def _densest_columns(positions: Sequence[int], width: int, win_w: int, last_x: int) -> int:
    """Most of ``positions`` whose columns fall in any ``win_w`` columns starting at or
    before ``last_x``."""
    counts = Counter([pos % width for pos in positions])
    columns = sorted(counts)
    totals = [0, *accumulate([counts[x] for x in columns])]  # totals[i]: in columns[:i]
    best = lo = hi = 0
    for x in columns:
        left = min(x, last_x)
        while columns[lo] < left:
            lo += 1
        while hi < len(columns) and columns[hi] < left + win_w:
            hi += 1
        best = max(best, totals[hi] - totals[lo])
    return best


def changed_regions(
    positions: Sequence[int], width: int, height: int, cell: int = 8, limit: int = 100
) -> tuple[Region, ...]:
    """Regions of the differing pixels at flat ``positions``, largest first, at most ``limit``."""
    if not positions:
        return ()
    grid_h = -(-height // cell)
    counts: dict[tuple[int, int], int] = {}  # (cell row, cell column): pixels
    for pos in positions:
        y, x = divmod(pos, width)
        key = (y // cell, x // cell)
        counts[key] = counts.get(key, 0) + 1
    runs = _runs(sorted(counts))
    parent = list(range(len(runs)))
    row_first = [0] * (grid_h + 1)  # the first run of each cell row
    for row, _start, _end in runs:
        row_first[row + 1] += 1
    for r in range(grid_h):
        row_first[r + 1] += row_first[r]
    for r in range(1, grid_h):
        p0, p1, i0, i1 = row_first[r - 1], row_first[r], row_first[r], row_first[r + 1]
        for i in range(i0, i1):
            _row, start, end = runs[i]
            # The previous row's runs touching this one, diagonals included.
            for j in range(p0, p1):
                if runs[j][2] >= start and runs[j][1] <= end:
                    a, b = find_root(parent, i), find_root(parent, j)
                    if a != b:
                        parent[a] = b
    labels = [find_root(parent, i) for i in range(len(runs))]
    pixels: dict[int, int] = {}
    for label, (row, start, end) in zip(labels, runs, strict=True):
        pixels[label] = pixels.get(label, 0) + sum(counts[row, c] for c in range(start, end))
    ranked = sorted(sorted(pixels), key=lambda label: -pixels[label])[:limit]
    cell_label = {
        (row, c): label
        for label, (row, start, end) in zip(labels, runs, strict=True)
        for c in range(start, end)
    }
    boxes = {label: [width, height, -1, -1] for label in ranked}  # x0, y0, x1, y1
    for pos in positions:
        y, x = divmod(pos, width)
        box = boxes.get(cell_label[y // cell, x // cell])
        if box is not None:
            box[0], box[1] = min(box[0], x), min(box[1], y)
            box[2], box[3] = max(box[2], x), max(box[3], y)
    regions = []
    for label in ranked:
        x0, y0, x1, y1 = boxes[label]
        regions.append(Region(x0, y0, x1 - x0 + 1, y1 - y0 + 1, pixels[label]))
    regions.sort(key=lambda reg: (-reg.pixels, reg.y, reg.x))
    return tuple(regions)


def _runs(cells: list[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """Row, first column and one-past-last column of each run of occupied cells (given
    in row-major order), in row-major order."""
    runs: list[tuple[int, int, int]] = []
    for row, column in cells:
        if runs and runs[-1][0] == row and runs[-1][2] == column:
            runs[-1] = (row, runs[-1][1], column + 1)
        else:
            runs.append((row, column, column + 1))
    return runs


def find_root(parent: list[int], i: int) -> int:
    """The root of ``i`` in a union-find forest, halving the path to it on the way."""
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i
