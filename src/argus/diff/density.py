"""Windowed density: the largest number of differing pixels inside any N x N window.

A real change is a cluster of differing pixels; anti-aliasing noise and sub-pixel shifts are
scattered. The densest window tells the two apart where a bare count cannot. Computed with a
summed-area table over the rows of the differences (plus the window), so a sparse diff costs
little.
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
    # Only windows touching a differing pixel can be the densest: crop to the band of rows
    # they cover. Whole rows keep a position's place in the band a subtraction away (no
    # division per pixel, which cost more than the table itself on a dense diff).
    y0 = max(int(positions.min()) // width - win_h + 1, 0)
    y1 = min(int(positions.max()) // width + win_h, height)
    band = np.zeros((y1 - y0) * width, dtype=np.uint8)
    band[positions - y0 * width] = 1  # positions are distinct pixels: each counted once
    table = np.zeros((y1 - y0 + 1, width + 1), dtype=np.int32)
    np.cumsum(band.reshape(y1 - y0, width), axis=0, dtype=np.int32, out=table[1:, 1:])
    np.cumsum(table[1:, 1:], axis=1, dtype=np.int32, out=table[1:, 1:])
    # Sum of each window whose top-left corner (r, c) lies in the band.
    sums = (
        table[win_h:, win_w:]
        - table[:-win_h, win_w:]
        - table[win_h:, :-win_w]
        + table[:-win_h, :-win_w]
    )
    return int(sums.max())
