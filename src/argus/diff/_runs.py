"""Runs of repeated pixels: compute once per run, expand to every pixel.

Screenshots are mostly flat colour, so a row of 1440 pixels is typically a few dozen runs
of identical values; a per-pixel quantity that depends only on the pixel values (not on
the position) is computed on the first pixel of each run and repeated.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from argus.diff.arrays import Index, Mask


def run_starts(*flats: npt.NDArray[np.uint32], split: Mask | None = None) -> Index:
    """Flat positions where any of ``flats`` differs from the previous pixel (and where
    ``split`` is set: those pixels always start a run of their own, with the next)."""
    n = flats[0].size
    new = np.empty(n, dtype=bool)
    new[0] = True
    np.not_equal(flats[0][1:], flats[0][:-1], out=new[1:])
    for flat in flats[1:]:
        new[1:] |= flat[1:] != flat[:-1]
    if split is not None:
        new |= split
        new[1:] |= split[:-1]
    starts: Index = np.flatnonzero(new)
    return starts


def run_lengths(starts: Index, n: int) -> Index:
    lengths: Index = np.diff(starts, append=n)
    return lengths
