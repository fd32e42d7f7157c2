"""Windowed density: the largest number of differing pixels inside any N x N window.

A real change is a cluster of differing pixels; anti-aliasing noise and sub-pixel shifts are
scattered. The densest window tells the two apart where a bare count cannot. Computed with a
sliding sum over the rows of the differences (plus the window), so a sparse diff costs
little.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from argus.diff.arrays import Index, Mask

Counts = (
    npt.NDArray[np.bool_] | npt.NDArray[np.uint8] | npt.NDArray[np.uint16] | npt.NDArray[np.int64]
)


def window_density(positions: Index, width: int, height: int, window: int) -> int:
    """Max count of ``positions`` (flat pixel indices) in any window x window square that
    fits in the image (the whole image when it is smaller than the window)."""
    if window < 1:
        raise ValueError("window must be at least 1")
    if positions.size == 0:
        return 0
    win_h = min(window, height)
    # Only windows touching a differing pixel can be the densest: crop to the band of rows
    # they cover. Whole rows keep a position's place in the band a subtraction away (no
    # division per pixel, which cost more than the table itself on a dense diff).
    y0 = max(int(positions.min()) // width - win_h + 1, 0)
    y1 = min(int(positions.max()) // width + win_h, height)
    band = np.zeros((y1 - y0, width), dtype=bool)
    band.reshape(-1)[positions - y0 * width] = True
    return band_density(band, min(window, width), win_h)


def mask_density(mask: Mask, window: int) -> int:
    """``window_density`` of the set pixels of an H x W mask, read from the mask itself
    (for dense diffs: no position array to build and scatter back)."""
    if window < 1:
        raise ValueError("window must be at least 1")
    height, width = mask.shape
    rows = np.flatnonzero(mask.any(axis=1))
    if rows.size == 0:
        return 0
    win_h = min(window, height)
    y0 = max(int(rows[0]) - win_h + 1, 0)
    y1 = min(int(rows[-1]) + win_h, height)
    return band_density(mask[y0:y1], min(window, width), win_h)


def band_density(band: Mask, win_w: int, win_h: int) -> int:
    """Most set pixels in any win_h x win_w window of ``band`` (a mask of whole image rows)."""
    # Sum of each window whose top-left corner lies in the band: column sums over win_h rows,
    # then row sums of those over win_w columns, each in the narrowest type that holds it
    # (a column of up to 255 pixels in 8 bits, a window up to 65,535 in 16).
    columns = window_sums(band, win_h, 0, smallest_counter(win_h))
    return int(window_sums(columns, win_w, 1, smallest_counter(win_h * win_w)).max())


def smallest_counter(most: int) -> type[np.integer]:
    """The unsigned type counting up to ``most`` in the fewest bytes."""
    if most <= 0xFF:
        return np.uint8
    return np.uint16 if most <= 0xFFFF else np.int64


def window_sums(counts: Counts, n: int, axis: int, dtype: type[np.integer]) -> Counts:
    """Sums of every ``n`` consecutive entries along ``axis`` (length L - n + 1), built from
    sums over 1, 2, 4, ... entries: about log2(n) additions of whole arrays, in ``dtype``
    (a mask's flags are counted as they are added, without a cast pass)."""
    length = counts.shape[axis]

    def part(a: Counts, start: int, size: int) -> Counts:
        taken: Counts = a[start : start + size] if axis == 0 else a[:, start : start + size]
        return taken

    def add(x: Counts, y: Counts) -> Counts:
        total: Counts = np.add(x, y, dtype=dtype)
        return total

    def doubled(block: Counts, size: int) -> Counts:
        """Sums of 2 * size entries from sums of size."""
        out = length - 2 * size + 1
        return add(part(block, 0, out), part(block, size, out))

    # The lowest set bit of n starts the total; each higher one adds a block of that size.
    block, size = counts, 1  # `block` sums `size` entries
    while not n & size:
        block, size = doubled(block, size), size * 2
    total, width = block, size  # `total` sums `width` entries
    while size * 2 <= n:
        block, size = doubled(block, size), size * 2
        if n & size:
            out = length - (width + size) + 1
            total = add(part(total, 0, out), part(block, width, out))
            width += size
    return total
