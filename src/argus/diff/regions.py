"""Bounding boxes of changed regions: connected components on a coarse grid.

Differing pixels are binned into cells of ``cell`` x ``cell`` pixels; occupied cells that
touch (8-connectivity) form one region, so the strokes of one edited word become one box.
Labelling works on runs of occupied cells row by row with a small union-find (no scipy).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from argus.diff._pointstats import find_root
from argus.diff.arrays import Index, Mask
from argus.diff.region import Region as Region


def _cell_runs(occupied: npt.NDArray[np.bool_]) -> tuple[Index, Index, Index]:
    """Row, first column and one-past-last column of each run of occupied cells."""
    rows, cols = occupied.shape
    padded = np.zeros((rows, cols + 2), dtype=np.int8)
    padded[:, 1:-1] = occupied
    edges = np.diff(padded, axis=1)
    start_r, start_c = np.nonzero(edges == 1)
    _, end_c = np.nonzero(edges == -1)
    return start_r, start_c, end_c


# numpy 2.0+ counts set bits; on 1.26 (which pyproject allows) cells are summed instead.
POPCOUNT: Callable[[npt.NDArray[np.uint64]], npt.NDArray[np.uint8]] | None = getattr(
    np, "bitwise_count", None
)


def cell_counts(mask2d: npt.NDArray[np.bool_], cell: int) -> npt.NDArray[np.int64]:
    """Set pixels per cell x cell cell of a C-contiguous mask whose sides are multiples of
    ``cell``. At the default cell of 8, one cell row is eight bytes of 0 or 1: read as one
    64-bit word, its set bits are the count (a tenth of the summing over two axes)."""
    rows, cols = mask2d.shape[0] // cell, mask2d.shape[1] // cell
    if cell == 8 and POPCOUNT is not None:
        per_row = POPCOUNT(mask2d.view(np.uint64))
        counts: npt.NDArray[np.int64] = per_row.reshape(rows, cell, cols).sum(
            axis=1, dtype=np.int64
        )
        return counts
    summed: npt.NDArray[np.int64] = mask2d.reshape(rows, cell, cols, cell).sum(
        axis=(1, 3), dtype=np.int64
    )
    return summed


def changed_regions(
    positions: Index, width: int, height: int, cell: int = 8, limit: int = 100
) -> tuple[Region, ...]:
    """Regions of the differing pixels at flat ``positions``, largest first, at most ``limit``."""
    if positions.size == 0:
        return ()
    grid_w = -(-width // cell)
    # The differing pixels as a mask over the band of cell rows they touch (whole image
    # rows, so a position's place is a subtraction away: no division per pixel).
    first = int(positions.min()) // width // cell
    last = int(positions.max()) // width // cell + 1
    band = np.zeros((last - first) * cell * width, dtype=bool)
    band[positions - first * cell * width] = True
    mask2d = band.reshape((last - first) * cell, width)
    if width % cell:
        mask2d = np.pad(mask2d, ((0, 0), (0, grid_w * cell - width)))
    return band_regions(mask2d, first, height, cell, limit)


def mask_regions(mask: Mask, cell: int = 8, limit: int = 100) -> tuple[Region, ...]:
    """``changed_regions`` of the set pixels of an H x W mask, read from the mask itself
    (for dense diffs: no position array to build and scatter back)."""
    height, width = mask.shape
    rows = np.flatnonzero(mask.any(axis=1))
    if rows.size == 0:
        return ()
    first = int(rows[0]) // cell
    last = int(rows[-1]) // cell + 1
    y0, y1 = first * cell, min(last * cell, height)
    mask2d = mask[y0:y1]
    if width % cell or y1 - y0 < (last - first) * cell:
        # Whole cells: pad the right edge and the last cell row with unset pixels.
        mask2d = np.zeros(((last - first) * cell, -(-width // cell) * cell), dtype=bool)
        mask2d[: y1 - y0, :width] = mask[y0:y1]
    return band_regions(np.ascontiguousarray(mask2d), first, height, cell, limit)


def band_regions(
    mask2d: Mask, first: int, height: int, cell: int, limit: int
) -> tuple[Region, ...]:
    """Regions of a C-contiguous mask of whole cells covering cell rows ``first`` onward
    (``height`` is the image's, its width the padded width)."""
    grid_h = -(-height // cell)
    grid_w = mask2d.shape[1] // cell
    last = first + mask2d.shape[0] // cell
    counts = np.zeros((grid_h, grid_w), dtype=np.int64)
    counts[first:last] = cell_counts(mask2d, cell)
    run_row, run_start, run_end = _cell_runs(counts > 0)

    # Union runs of consecutive rows that overlap, diagonals included.
    parent = list(range(run_row.size))
    row_first = np.searchsorted(run_row, np.arange(grid_h + 1))
    for r in range(1, grid_h):
        p0, p1 = int(row_first[r - 1]), int(row_first[r])
        i0, i1 = int(row_first[r]), int(row_first[r + 1])
        if p0 == p1 or i0 == i1:
            continue
        # Runs in a row are sorted and disjoint: the previous row's runs overlapping run i
        # (widened by one cell for diagonals) form the slice lo[i]:hi[i].
        lo = np.searchsorted(run_end[p0:p1], run_start[i0:i1], side="left") + p0
        hi = np.searchsorted(run_start[p0:p1], run_end[i0:i1], side="right") + p0
        for i, j0, j1 in zip(range(i0, i1), lo.tolist(), hi.tolist(), strict=True):
            for j in range(j0, j1):
                a, b = find_root(parent, i), find_root(parent, j)
                if a != b:
                    parent[a] = b
    labels = np.array([find_root(parent, i) for i in range(run_row.size)], dtype=np.intp)

    # Label cells through their runs; pixel counts per label come from the cell counts.
    cell_label = np.full((grid_h, grid_w), -1, dtype=np.intp)
    for i in range(run_row.size):
        cell_label[int(run_row[i]), int(run_start[i]) : int(run_end[i])] = labels[i]
    flat_label = cell_label.reshape(-1)
    occupied = np.flatnonzero(flat_label >= 0)
    per_label = np.bincount(flat_label[occupied], weights=counts.reshape(-1)[occupied])
    ranked = sorted(np.flatnonzero(per_label).tolist(), key=lambda lab: -per_label[lab])

    regions = []
    for lab in ranked[:limit]:
        # The cells' extent, then the exact pixel extent of this region's own cells.
        cr, cc = np.nonzero(cell_label == lab)
        r0, r1, c0, c1 = int(cr.min()), int(cr.max()) + 1, int(cc.min()), int(cc.max()) + 1
        own = np.repeat(np.repeat(cell_label[r0:r1, c0:c1] == lab, cell, 0), cell, 1)
        y0, x0 = r0 * cell, c0 * cell
        block = mask2d[y0 - first * cell : (r1 - first) * cell, x0 : c1 * cell]
        block = block & own[: block.shape[0], : block.shape[1]]
        rows = np.flatnonzero(block.any(axis=1))
        cols = np.flatnonzero(block.any(axis=0))
        regions.append(
            Region(
                x0 + int(cols[0]),
                y0 + int(rows[0]),
                int(cols[-1] - cols[0]) + 1,
                int(rows[-1] - rows[0]) + 1,
                int(per_label[lab]),
            )
        )
    regions.sort(key=lambda reg: (-reg.pixels, reg.y, reg.x))
    return tuple(regions)
