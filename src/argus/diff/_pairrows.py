"""Two plain PNGs' filtered rows compared, the second inflated a piece at a time.

The first step of ``argus diff``'s path without numpy (``argus.diff.sparse``). Only plain
8-bit RGB or RGBA PNGs that Pillow decodes without complaint are taken
(``argus.diff.samepixels.png_parts``: every chunk whole with its CRC, only chunks whose
contents Pillow reads), not interlaced, without PLTE or tRNS, both of the same header, their
image data inflating to exactly their rows and ending there, every filter type 0 to 4.

The first file's image data is inflated whole (its rows are decoded from it). The second's
is inflated ``PIECE_ROWS`` rows at a time and compared with the first's in place: a piece
equal to the first's rows is dropped (its rows are the first's), and of one that differs
only the differing rows are kept. Besides the inflate itself, a whole second buffer would
cost a process its fresh pages (about a thousand page faults for a 1440x900 screenshot),
while the pieces reuse the same memory.
"""

from __future__ import annotations

from collections import namedtuple

from argus.diff.pngcheck import _IHDR
from argus.diff.samepixels import PngParts, filters_valid, inflated, png_parts, zlib_module

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy takes it as True)

PIECE_ROWS = 16
CHANNELS = {2: 3, 6: 4}  # colour type: truecolour, truecolour with alpha
_MAX_FILTER = 4


# The fields as a NamedTuple for mypy; at run time the same tuple made by collections, which
# does not import typing (about 3 % of an `argus diff` process).
if TYPE_CHECKING:
    from typing import NamedTuple

    class _PairFields(NamedTuple):
        width: int
        height: int
        channels: int
        first: bytes
        second: dict[int, bytes]

else:
    _PairFields = namedtuple("PlainPair", "width height channels first second")


class PlainPair(_PairFields):
    """Two plain PNGs of one header: the first's rows, filtered (each a filter type and its
    samples), and the rows of the second whose filtered bytes differ from the first's."""

    __slots__ = ()

    @property
    def length(self) -> int:
        return 1 + self.width * self.channels

    def second_rows(self, start: int, end: int) -> bytes:
        """The second file's filtered rows ``start`` to ``end``."""
        length, view = self.length, memoryview(self.first)
        return b"".join(
            self.second.get(row) or view[row * length : (row + 1) * length]
            for row in range(start, end)
        )


def plain_pair(first: bytes, second: bytes) -> PlainPair | None:
    """The two files' rows compared, or None when either is not a plain PNG (see the
    module) or their headers differ."""
    a = _plain(first)
    b = _plain(second) if a is not None else None
    if a is None or b is None or b.ihdr != a.ihdr:
        return None
    rows = inflated(a)
    if rows is None or not filters_valid(rows, a.rows):
        return None
    width, height, _depth, colour = _IHDR.unpack(a.ihdr)[:4]
    differing = _differing_rows(b, rows, 1 + width * CHANNELS[colour])
    if differing is None:
        return None
    return PlainPair(width, height, CHANNELS[colour], rows, differing)


def _plain(data: bytes) -> PngParts | None:
    parts = png_parts(data)
    if parts is None or parts.palette is not None or parts.transparency is not None:
        return None
    _width, _height, depth, colour, _compression, _filter, interlace = _IHDR.unpack(parts.ihdr)
    if depth != 8 or colour not in CHANNELS or interlace != 0:
        return None
    return parts


def _differing_rows(image: PngParts, first: bytes, length: int) -> dict[int, bytes] | None:
    """The rows of ``image`` whose filtered bytes differ from ``first``'s (same length),
    inflated a piece at a time; None when its data does not inflate to exactly that
    length and end there, or a differing row's filter type is not 0 to 4."""
    zlib = zlib_module()
    found: dict[int, bytes] = {}
    step = PIECE_ROWS * length
    try:
        inflater = zlib.decompressobj()
        pending, done = image.data, 0
        while done < len(first):
            piece = inflater.decompress(pending, min(step, len(first) - done))
            pending = inflater.unconsumed_tail
            if len(piece) % length or not piece:
                return None  # only a stream that ends early gives less than asked
            if not first.startswith(piece, done):
                for offset in range(0, len(piece), length):
                    row = piece[offset : offset + length]
                    if not first.startswith(row, done + offset):
                        if row[0] > _MAX_FILTER:
                            return None
                        found[(done + offset) // length] = row
            done += len(piece)
        rest = inflater.decompress(pending, 1)
    except zlib.error:
        return None
    if rest or not inflater.eof or inflater.unused_data:
        return None
    return found
