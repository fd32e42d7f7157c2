"""Anti-aliasing detection after Vyšniauskas (2009), "Anti-aliased Pixel and Intensity Slope
Detector", as pixelmatch 7.2.0 applies it, vectorised over all candidate pixels at once.

A pixel is taken for anti-aliasing when, among its 8 neighbours, at most two (counting a
missing neighbour at the image border as one) equal it, it has both a darker and a brighter
neighbour, and the darkest or the brightest of those sits in a flat area (3+ equal
neighbours) in both images.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from argus.diff._constants import OFFSETS
from argus.diff.arrays import U32, Index, Mask
from argus.diff.yiq import brightness, channel_differences

Counts = npt.NDArray[np.uint8]

DX = np.array([dx for dx, _ in OFFSETS], dtype=np.intp)[:, None]
DY = np.array([dy for _, dy in OFFSETS], dtype=np.intp)[:, None]

# Above this share of queried pixels, one pass over the whole image beats gathering.
MAP_SHARE = 0.05


class Neighbourhood:
    """The 8-neighbourhood of some pixels: flat positions, which exist, and the border bonus
    (pixelmatch counts a pixel on the image edge as having one equal neighbour already)."""

    def __init__(self, pos: Index, width: int, height: int) -> None:
        self.positions: Index = pos + (DY * width + DX)
        x = pos % width
        y = pos // width
        on_border = (x == 0) | (x == width - 1) | (y == 0) | (y == height - 1)
        self.border: Counts = on_border.view(np.uint8)
        self.valid: Mask = np.ones(self.positions.shape, dtype=bool)
        edge = np.flatnonzero(on_border)
        if edge.size:
            # Only border pixels lack neighbours; a missing one points at the centre itself
            # and `valid` masks it out.
            nx = x[edge] + DX
            ny = y[edge] + DY
            ok = (nx >= 0) & (nx < width) & (ny >= 0) & (ny < height)
            self.valid[:, edge] = ok
            self.positions[:, edge] = np.where(ok, self.positions[:, edge], pos[edge])


def equal_neighbour_map(img: U32) -> Counts:
    """For every pixel of an H x W uint32 image: equal neighbours, plus one on the border."""
    h, w = img.shape
    count = np.zeros((h, w), dtype=np.uint8)
    count[0, :] = count[-1, :] = count[:, 0] = count[:, -1] = 1
    # Each comparison of a pixel with its right, lower, lower-right and lower-left
    # neighbour counts for both pixels of the pair; one scratch buffer holds each result,
    # added as 0/1 bytes so no cast pass is needed.
    pairs = (
        ((slice(None), slice(1, None)), (slice(None), slice(None, -1))),
        ((slice(1, None), slice(None)), (slice(None, -1), slice(None))),
        ((slice(1, None), slice(1, None)), (slice(None, -1), slice(None, -1))),
        ((slice(1, None), slice(None, -1)), (slice(None, -1), slice(1, None))),
    )
    scratch = np.empty((h, w), dtype=bool)
    for first, second in pairs:
        same = scratch[first]
        np.equal(img[first], img[second], out=same)
        ones = same.view(np.uint8)
        np.add(count[first], ones, out=count[first])
        np.add(count[second], ones, out=count[second])
    return count


class SiblingCounter:
    """Equal neighbours (+ border bonus) of pixels of one image: gathered for a few pixels,
    read from a whole-image map once many are asked for."""

    def __init__(self, img: U32) -> None:
        self.img = img
        self.flat = img.reshape(-1)
        self._map: Counts | None = None

    @property
    def mapped(self) -> bool:
        return self._map is not None

    def full_map(self) -> Counts:
        if self._map is None:
            self._map = equal_neighbour_map(self.img).reshape(-1)
        return self._map

    def at(self, pos: Index, hood: Neighbourhood | None = None) -> Counts:
        if self._map is not None or pos.size > MAP_SHARE * self.flat.size:
            return self.full_map()[pos]
        if hood is None:
            h, w = self.img.shape
            hood = Neighbourhood(pos, w, h)
        same = (self.flat[hood.positions] == self.flat[pos]) & hood.valid
        result: Counts = hood.border + same.sum(axis=0, dtype=np.uint8)
        return result


def flat_in_both(own: SiblingCounter, other: SiblingCounter, pos: Index) -> Mask:
    """pixelmatch's hasManySiblings in both images: 3+ equal neighbours (border counts one)."""
    hood = None
    gathering = pos.size <= MAP_SHARE * own.flat.size
    if gathering and not (own.mapped and other.mapped):
        h, w = own.img.shape
        hood = Neighbourhood(pos, w, h)
    many: Mask = (own.at(pos, hood) > 2) & (other.at(pos, hood) > 2)
    return many


def antialiased(
    own: SiblingCounter,
    other: SiblingCounter,
    pos: Index,
    checkerboard: bool,
    settled: Mask | None = None,
) -> Mask:
    """Which pixels at flat positions ``pos`` of ``own``'s image look like anti-aliasing,
    with ``other`` counting siblings in the other image. Pixels marked in ``settled`` (one
    flag per position) are already decided: they are not tested and stay False."""
    result = np.zeros(pos.size, dtype=bool)
    # More than two equal neighbours rules anti-aliasing out; equal pixels have a zero
    # brightness delta, so this cheap count never rejects a pixel the full test would keep.
    few = own.at(pos) <= 2
    if settled is not None:
        few &= ~settled
    open_ = np.flatnonzero(few)
    result[open_] = sloped_in_flat_area(own, other, pos[open_], checkerboard)
    return result


def mark_antialiased(
    own: SiblingCounter,
    other: SiblingCounter,
    candidates: Mask,
    checkerboard: bool,
    excluded: Mask,
) -> None:
    """As ``antialiased``, with one flag per image pixel instead of positions: set in
    ``excluded`` the ``candidates`` not set there yet that look like anti-aliasing. For many
    candidates, where the whole-image map is read anyway and a position array costs more
    than the flags."""
    few = own.full_map() <= 2
    few &= candidates
    few &= ~excluded
    open_ = np.flatnonzero(few)
    excluded[open_] = sloped_in_flat_area(own, other, open_, checkerboard)


def sloped_in_flat_area(
    own: SiblingCounter, other: SiblingCounter, pos: Index, checkerboard: bool
) -> Mask:
    """The full test on pixels with at most two equal neighbours: a darker and a brighter
    neighbour, the darkest or the brightest of them in a flat area of both images."""
    result = np.zeros(pos.size, dtype=bool)
    if pos.size == 0:
        return result
    h, w = own.img.shape
    hood = Neighbourhood(pos, w, h)
    # Brightness delta of each centre pixel against each neighbour, the background of
    # semi-transparent pixels taken at the centre's offset.
    dr, dg, db = channel_differences(own.flat[pos], own.flat[hood.positions], pos * 4, checkerboard)
    deltas = brightness(dr, dg, db)
    zeroes = hood.border + ((deltas == 0) & hood.valid).sum(axis=0, dtype=np.uint8)
    # A missing neighbour points at the centre, so its delta is 0 and never the extreme.
    # A slope needs both a darker and a brighter neighbour: the row-wise minimum and maximum
    # decide it without locating them.
    slope = (zeroes <= 2) & (deltas.min(axis=0) < 0) & (deltas.max(axis=0) > 0)
    keep = np.flatnonzero(slope)
    if keep.size == 0:
        return result
    # Locate the extremes only on the slopes: argmin/argmax return the first extreme in
    # visiting order, as pixelmatch's strict < and > comparisons keep the first.
    sloped = deltas[:, keep]
    extremes = np.concatenate(
        [hood.positions[sloped.argmin(axis=0), keep], hood.positions[sloped.argmax(axis=0), keep]]
    )
    flat = flat_in_both(own, other, extremes)
    result[keep] = flat[: keep.size] | flat[keep.size :]
    return result
