"""Windowed density: the largest number of differing pixels inside any N x N window.

A real change is a cluster of differing pixels; anti-aliasing noise and sub-pixel shifts are
scattered. The densest window tells the two apart where a bare count cannot. Computed with a
summed-area table over the bounding box of the differences (plus the window), so a sparse
diff costs little.
"""

from __future__ import annotations

import numpy as np

from argus.diff.arrays import Index


def window_density(positions: Index, width: int, height: int, window: int) -> int:
    """Max count of ``positions`` (flat pixel indices) in any window x window square that
    fits in the image (the whole image when it is smaller than the window)."""
    if window < 1:
        raise ValueError("window must be at least 1")
    if positions.size == 0:
        return 0
    win_h = min(window, height)
    win_w = min(window, width)
    ys = positions // width
    xs = positions % width
    # Only windows touching a differing pixel can be the densest: crop to their extent.
    y0 = max(int(ys.min()) - win_h + 1, 0)
    x0 = max(int(xs.min()) - win_w + 1, 0)
    y1 = min(int(ys.max()) + win_h, height)
    x1 = min(int(xs.max()) + win_w, width)
    grid = np.zeros((y1 - y0 + 1, x1 - x0 + 1), dtype=np.int32)
    # Positions are distinct pixels, so plain assignment counts each once.
    grid[ys - y0 + 1, xs - x0 + 1] = 1
    table = grid.cumsum(axis=0, dtype=np.int32).cumsum(axis=1, dtype=np.int32)
    # Sum of each window whose top-left corner (r, c) lies in the cropped area.
    sums = (
        table[win_h:, win_w:]
        - table[:-win_h, win_w:]
        - table[win_h:, :-win_w]
        + table[:-win_h, :-win_w]
    )
    return int(sums.max()) if sums.size else int(positions.size)
