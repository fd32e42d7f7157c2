"""Two plain PNGs' pixels decoded where they can differ, by Pillow's decoder, without numpy.

For ``argus diff``'s path without numpy (``argus.diff.sparse``), given the rows the two files
differ in (``argus.diff._pairrows``): the second image's rows that can decode differently
are decoded over the first's (``argus.diff._rowspans.walk_spans``), and the first image only
over the rows the comparison reads (from two rows above the first differing row, which
pixelmatch reads around a pixel, to two below the last). The first is decoded from the
nearest row above those that does not read the row above it (filter None or Sub, which an
encoder picks for a row now and then: 10 % of the rows of the bench's pages, 4 to 5 % of
Chromium's screenshots of the example apps), not from the top.
"""

from __future__ import annotations

from collections.abc import Sequence

from argus.diff._coredecode import decode_rows
from argus.diff._pairrows import PlainPair
from argus.diff._rowspans import NO_ABOVE, walk_spans

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy takes it as True)
if TYPE_CHECKING:
    from typing import Any

FOLLOW = 2  # rows around a changed pixel that pixelmatch reads (its neighbours', for flat areas)
# Rows of a span decoded at a time: a pair of many changes stops within the first few.
CHUNK_ROWS = 32
BLOCK = 64  # pixels of a changed row compared at once

Pixels = list[Sequence[int]]


class PairPixels:
    """The decoded rows of both images (each a row of pixels: RGBA as a little-endian
    uint32), where decoded, and the rows of the second decoded apart from the first's."""

    def __init__(self, core: Any, pair: PlainPair, limit: int) -> None:
        self.core, self.pair, self.limit = core, pair, limit
        self.stride = pair.width * 4
        self.first = bytearray()  # rows `top` to `decoded` of the first image, decoded
        self.top = self.decoded = 0
        self.second: dict[int, memoryview] = {}  # the second image's decoded rows
        self.differing = sorted(pair.second)
        self.changed: list[tuple[int, int]] = []  # (x, y) of the pixels whose values differ

    def decode(self) -> bool:
        """Decode what the comparison reads and find the changed pixels, row after row;
        False when the decoder refused a span or more than ``limit`` pixels changed."""
        pair = self.pair
        if not self.differing:
            return True
        differing = frozenset(self.differing)
        if not walk_spans(pair.first, pair.length, differing, pair.height, self._span):
            return False
        return self._first_to(max(self.second) + 1 + FOLLOW)

    def rows(self) -> tuple[Pixels, Pixels]:
        """Both images' rows of pixels: decoded ones, and empty rows above the first
        decoded row of the first image (the comparison never reads them)."""
        pixels = memoryview(self.first).cast("I")
        width, top = self.pair.width, self.top
        first: Pixels = [()] * top
        first.extend(
            pixels[(row - top) * width : (row - top + 1) * width]
            for row in range(top, self.decoded)
        )
        second = list(first)
        for row, decoded in self.second.items():
            second[row] = decoded
        return first, second

    def _first_row(self, row: int) -> bytes:
        start = (row - self.top) * self.stride
        return bytes(self.first[start : start + self.stride])

    def _first_to(self, end: int) -> bool:
        """Decode the first image down to row ``end``, and over the rows around the
        differing rows that the comparison reads (``FOLLOW`` above the first, below the
        last: a changed pixel's neighbours, and theirs for the flat-area test)."""
        pair = self.pair
        end = min(pair.height, end)
        if end <= self.decoded:
            return True
        length = pair.length
        above = None
        if self.decoded:
            start = self.decoded
            above = self._first_row(start - 1)
        else:  # the first rows decoded: from one that does not read the row above
            start = max(0, self.differing[0] - FOLLOW)
            while start and pair.first[start * length] not in NO_ABOVE:
                start -= 1
            self.top = start
        view = memoryview(pair.first)[start * length : end * length]
        rows = decode_rows(self.core, pair.channels, pair.width, view, above)
        if rows is None:
            return False
        self.first += rows
        self.decoded = end
        return True

    def _span(self, start: int, end: int) -> bool | None:
        """Decode the second image's rows ``start`` to ``end``, ``CHUNK_ROWS`` at a time;
        whether its last row differs from the first image's, or None when the decoder
        refused them or more than ``limit`` pixels changed."""
        differs: bool | None = False
        for low in range(start, end, CHUNK_ROWS):
            differs = self._chunk(low, min(end, low + CHUNK_ROWS))
            if differs is None:
                return None
        return differs

    def _chunk(self, start: int, end: int) -> bool | None:
        if not self._first_to(end):
            return None
        above = None
        if start:
            previous = self.second.get(start - 1)
            above = bytes(previous) if previous is not None else self._first_row(start - 1)
        pair = self.pair
        rows = decode_rows(
            self.core, pair.channels, pair.width, pair.second_rows(start, end), above
        )
        if rows is None:
            return None
        view, width = rows.cast("I"), pair.width
        differs = False
        for row in range(start, end):
            decoded = self.second[row] = view[(row - start) * width : (row - start + 1) * width]
            differs = self._find_changes(row, decoded)
            if len(self.changed) > self.limit:
                return None
        return differs

    def _find_changes(self, row: int, decoded: memoryview) -> bool:
        """Add the pixels of a decoded row of the second image that differ from the first's
        (blocks of pixels compared whole, then pixel by pixel); whether any do."""
        first = memoryview(self._first_row(row)).cast("I")
        if first == decoded:
            return False
        width = len(first)
        for x0 in range(0, width, BLOCK):
            x1 = min(width, x0 + BLOCK)
            if first[x0:x1] != decoded[x0:x1]:
                self.changed.extend((x, row) for x in range(x0, x1) if first[x] != decoded[x])
        return True
