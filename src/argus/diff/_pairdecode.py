"""Decode the second PNG of a pair from the first: only the rows whose image data differ.

The two images of a diff are mostly the same picture, and decoding is most of a sparse
pair's time (inflating, unfiltering, RGB to RGBA: about 7 ms a 1440x900 screenshot). A PNG
row is filtered against the row above it, so a row of the second image decodes to the same
pixels as the first's when its filtered bytes are the same and the row above decoded the same
(row 0 has no row above). ``filtered`` inflates an image's data with zlib-ng (a tenth of
Pillow's inflate through the system zlib), once a file: the first's rows are also what Pillow
decodes the first image from (``argus.diff._preinflate.stored_rows``). ``plan_pair`` compares
the two files' filtered rows; ``decode_second`` then starts from a copy of the first image's
pixels and lets Pillow decode each span of rows that differ, given as a small PNG whose first
row is the decoded row above the span (filter None) and whose other rows are the second
image's filtered bytes as they are. A span whose
last row still differs is extended (a row below may hold the same filtered bytes over
different pixels), doubling, until the rows meet again.

Only what Pillow decodes exactly this way is taken: 8-bit RGB or RGBA, not interlaced, no
tRNS, no animation, one header (the first chunk) and the same in both, the image data one run
of IDAT chunks that inflates to exactly the rows and nothing after; the second file is still
opened by Pillow (whose checks of the chunks before the image data stay). Anything else, too
many differing rows, or any error returns None, and the caller decodes the file whole, so
every error the user sees is about their file as Pillow reads it.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType

import numpy as np

from argus.diff.arrays import U8
from argus.diff.pngcheck import _CHUNK_HEAD as _CHUNK
from argus.diff.pngcheck import _CRC, _IHDR, PNG_SIGNATURE

fast_zlib: ModuleType | None
try:
    from zlib_ng import zlib_ng as fast_zlib
except ImportError:  # a speed-up only: without it, both files are decoded whole
    fast_zlib = None

# Above this many inflated bytes an image is decoded whole (the filtered copy would double
# the memory of a very large screenshot for little gain).
MAX_INFLATED = 64 * 1024 * 1024
# Decode the second image whole when more than this share of its rows differ.
MAX_SHARE = 0.5
# Rows compared at once before they are compared one by one.
BLOCK_ROWS = 32
# Rows decoded at first below a span that still differs (doubled each time it still does).
GROW = 8

_CHANNELS = {2: 3, 6: 4}  # colour type: truecolour, truecolour with alpha
_REFUSED = (b"tRNS", b"acTL", b"fcTL", b"fdAT")
_NO_ABOVE = (0, 1)  # filter types None and Sub: a row that does not read the row above

Decoder = Callable[[bytes], U8]


@dataclass(frozen=True)
class Filtered:
    """One PNG's header and its image data inflated (filter byte and row, row after row)."""

    ihdr: bytes
    width: int
    height: int
    channels: int
    rows: bytes

    @property
    def row_length(self) -> int:
        return 1 + self.width * self.channels


@dataclass(frozen=True)
class PairPlan:
    """Two PNGs whose image data can be compared row by row."""

    first: Filtered
    second: Filtered
    differing: frozenset[int]  # the rows whose filtered bytes differ


def filtered(data: bytes) -> Filtered | None:
    """The PNG's inflated image data, or None when it is not a plain 8-bit RGB or RGBA PNG
    whose data inflates to exactly its rows (or zlib-ng is missing)."""
    zlib_ng = fast_zlib
    if zlib_ng is None or not data.startswith(PNG_SIGNATURE):
        return None
    pos = len(PNG_SIGNATURE)
    ihdr = previous = b""
    idat: list[bytes] = []
    ended = False
    while pos + 8 <= len(data):
        length, kind = _CHUNK.unpack_from(data, pos)
        end = pos + 8 + length
        if end + 4 > len(data):
            return None
        if kind == b"IHDR":
            if pos != len(PNG_SIGNATURE):
                return None  # a second header, whose size Pillow takes: Pillow decides
            ihdr = data[pos + 8 : end]
        elif kind == b"IDAT":
            if idat and previous != b"IDAT":
                return None  # image data split by another chunk: Pillow decides
            idat.append(data[pos + 8 : end])
        elif kind == b"IEND":
            ended = True
            break
        elif kind in _REFUSED:
            return None
        previous = kind
        pos = end + 4
    if not (ended and idat and len(ihdr) == _IHDR.size):
        return None
    width, height, depth, colour, compression, filter_method, interlace = _IHDR.unpack(ihdr)
    channels = _CHANNELS.get(colour)
    if channels is None or depth != 8 or (compression, filter_method, interlace) != (0, 0, 0):
        return None
    expected = height * (1 + width * channels)
    if not 0 < expected <= MAX_INFLATED:
        return None
    try:
        inflater = zlib_ng.decompressobj()
        rows = inflater.decompress(b"".join(idat), expected + 1)
    except zlib_ng.error:
        return None
    if len(rows) != expected or not inflater.eof or inflater.unused_data:
        return None
    return Filtered(ihdr, width, height, channels, rows)


def plan_pair(a: Filtered | None, b: Filtered | None) -> PairPlan | None:
    """A plan to decode the second image from the first's pixels, given each file's image
    data inflated (``filtered``, each file once), or None to decode both whole: either is
    not a plain PNG, their headers differ, or too many rows differ."""
    if a is None or b is None or b.ihdr != a.ihdr:
        return None
    limit = int(a.height * MAX_SHARE)
    differing = differing_rows(a.rows, b.rows, a.row_length, limit)
    if len(differing) > limit:
        return None
    return PairPlan(a, b, frozenset(differing))


def differing_rows(first: bytes, second: bytes, length: int, limit: int) -> list[int]:
    """The rows (of ``length`` bytes) in which two equally long buffers differ: blocks of
    rows compared whole (one memcmp each), and the rows of a differing block one by one;
    the search stops once more than ``limit`` are found."""
    view = memoryview(second)
    rows = len(first) // length
    found: list[int] = []
    for block in range(0, rows, BLOCK_ROWS):
        start, end = block * length, min(rows, block + BLOCK_ROWS) * length
        if first.startswith(view[start:end], start):
            continue
        found.extend(
            row
            for row in range(block, min(rows, block + BLOCK_ROWS))
            if not first.startswith(view[row * length : (row + 1) * length], row * length)
        )
        if len(found) > limit:
            break
    return found


def decode_second(plan: PairPlan, first_pixels: U8, decode: Decoder) -> U8 | None:
    """The second image's pixels (H x W x 4), built from ``first_pixels`` (the first image
    decoded) and the second's differing rows decoded by ``decode`` (PNG bytes to RGBA); None
    when more than ``MAX_SHARE`` of the rows had to be decoded after all, or ``decode``
    failed (then decode the file whole: the error is about it)."""
    a, differing = plan.first, plan.differing
    height, length = a.height, a.row_length
    if first_pixels.shape != (height, a.width, 4):
        return None
    pixels = first_pixels.copy()
    budget = int(height * MAX_SHARE)
    row = 0
    above_differs = False  # the second image's decoded row above `row` differs from the first's
    grow = GROW
    while row < height:
        if row not in differing and (not above_differs or a.rows[row * length] in _NO_ABOVE):
            above_differs = False  # the same bytes over the same row above, or no row above
            row += 1
            continue
        end = row + 1
        while end in differing:
            end += 1
        if above_differs:  # same bytes over a different row above: decode further down
            end = max(end, min(height, row + grow))
            grow *= 2
        else:
            grow = GROW
        budget -= end - row
        if budget < 0:
            return None
        span = _decode_span(plan, pixels, row, end, decode)
        if span is None:
            return None
        pixels[row:end] = span
        above_differs = not np.array_equal(pixels[end - 1], first_pixels[end - 1])
        row = end
    return pixels


def _decode_span(plan: PairPlan, pixels: U8, start: int, end: int, decode: Decoder) -> U8 | None:
    """Rows ``start`` to ``end`` of the second image, decoded by Pillow from a PNG of those
    filtered rows under the already decoded row above them (``pixels[start - 1]``)."""
    b = plan.second
    length = b.row_length
    body = memoryview(b.rows)[start * length : end * length]
    if start > 0:
        above = pixels[start - 1, :, : b.channels].tobytes()
        rows = b"\x00" + above + body  # filter type None: the row as it is
        extra = 1
    else:
        rows, extra = bytes(body), 0
    ihdr = _IHDR.pack(b.width, end - start + extra, 8, 2 if b.channels == 3 else 6, 0, 0, 0)
    zlib_ng = fast_zlib
    assert zlib_ng is not None  # a plan exists only with zlib-ng
    png = b"".join(
        (
            PNG_SIGNATURE,
            _chunk(b"IHDR", ihdr),
            _chunk(b"IDAT", zlib_ng.compress(rows, 0)),
            _chunk(b"IEND", b""),
        )
    )
    try:
        decoded = decode(png)
    except (OSError, SyntaxError, ValueError):
        return None
    if decoded.shape != (end - start + extra, b.width, 4):
        return None
    return decoded[extra:]


def _chunk(kind: bytes, body: bytes) -> bytes:
    return b"".join(
        (_CHUNK.pack(len(body), kind), body, _CRC.pack(zlib.crc32(kind + body) & 0xFFFFFFFF))
    )
