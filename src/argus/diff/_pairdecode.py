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
different pixels), doubling, until the rows meet again (``argus.diff._rowspans``, whose walk
``argus diff``'s path without numpy shares).

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

from argus.diff._rowspans import BLOCK_ROWS as BLOCK_ROWS
from argus.diff._rowspans import GROW as GROW
from argus.diff._rowspans import differing_rows, walk_spans
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

_CHANNELS = {2: 3, 6: 4}  # colour type: truecolour, truecolour with alpha
_REFUSED = (b"tRNS", b"acTL", b"fcTL", b"fdAT")

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

    def span(start: int, end: int) -> bool | None:
        decoded = _decode_span(plan, pixels, start, end, decode)
        if decoded is None:
            return None
        pixels[start:end] = decoded
        return not np.array_equal(pixels[end - 1], first_pixels[end - 1])

    if not walk_spans(a.rows, length, differing, int(height * MAX_SHARE), span):
        return None
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
