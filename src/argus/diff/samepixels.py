"""Two PNGs proved to hold the same pixels from their image data alone: no numpy, no Pillow.

The common pair of a regression run is two screenshots of the same pixels. When the files are
byte for byte the same, ``argus.diff.result.same_bytes`` answers; when they differ only in
how the pixels were compressed (another zlib level, the image data split into other chunks,
other metadata), ``same_pixels`` answers: a PNG's pixels are a function of its header, its
palette and transparency chunks and its inflated image data (filter byte and filtered row,
row after row), so two files equal in all of these decode to the same image, and the kernel
would count no differing pixel at any threshold. Inflating both (zlib-ng, about 0.5 ms a
1440x900 screenshot) and comparing costs a few ms; importing numpy and Pillow about 100.

The answer must be the one decoding would give, errors included, so a file is taken only
when Pillow is known to decode it without complaint, and anything else returns None (the
caller then decodes both files): every chunk whole with a matching CRC and IEND last
(``check_png_intact``); a header Pillow reads (a valid bit depth and colour type, filter
method 0, compression method 0, interlace 0 or 1); only the chunks below, each with the
contents Pillow's reader accepts (``_ANCILLARY``); PLTE and tRNS before the image data, at
most one of each, a palette for a palette image, a tRNS of the length its colour type reads;
the image data one run of IDAT chunks whose zlib stream ends exactly after the rows the header
declares (Adam7 passes included), each row's filter type 0 to 4. The pixels' colour is never
looked at, so gAMA, cHRM, sRGB and the like only need to be readable: Pillow does not apply
them (and iCCP, whose parsing can fail, is not taken).
"""

from __future__ import annotations

import time
from collections import namedtuple
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from argus.diff.pngcheck import _IHDR, ADAM7, DEPTHS, SAMPLES, _chunks, check_png_intact
from argus.diff.result import DiffResult, same_bytes
from argus.errors import InputError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy takes it as True)

# tRNS lengths Pillow reads for each colour type (palette: up to one byte an entry).
_TRNS_LENGTH = {0: 2, 2: 6}
_MAX_TEXT = 1024 * 1024  # text chunks' bytes taken in all (Pillow refuses past 64 MB)
_MAX_FILTER = 4
# Inflated bytes compared at a time: the comparison stops at the first difference.
_STEP = 256 * 1024

# Ancillary chunks taken, each with the test its contents must pass for Pillow's reader to
# accept them (gAMA and cHRM are unpacked as 32-bit integers, sRGB and pHYs indexed; the
# others are read as they are or skipped).
_ANCILLARY: dict[bytes, Callable[[int], bool]] = {
    b"gAMA": lambda length: length >= 4,
    b"cHRM": lambda length: length % 4 == 0,
    b"sRGB": lambda length: length >= 1,
    b"pHYs": lambda length: length >= 9,
    b"tEXt": lambda length: True,
    b"tIME": lambda length: True,
    b"bKGD": lambda length: True,
    b"sBIT": lambda length: True,
    b"hIST": lambda length: True,
    b"eXIf": lambda length: True,
}

_zlib: ModuleType
try:
    from zlib_ng import zlib_ng as _zlib
except ImportError:  # a speed-up only
    import zlib as _zlib


# The fields as a NamedTuple for mypy; at run time the same tuple made by collections, which
# does not import typing (about 3 % of an `argus diff` process).
if TYPE_CHECKING:
    from typing import NamedTuple

    class _PartsFields(NamedTuple):
        ihdr: bytes
        palette: bytes | None
        transparency: bytes | None
        data: bytes  # the IDAT chunks' contents, joined
        size: int  # the inflated data's length the header declares
        rows: tuple[tuple[int, int, int], ...]  # each pass's (offset, row length, rows)

else:
    _PartsFields = namedtuple("PngParts", "ihdr palette transparency data size rows")


class PngParts(_PartsFields):
    """What decides a PNG's pixels, besides its inflated image data."""

    __slots__ = ()


def zlib_module() -> ModuleType:
    """zlib-ng's zlib-compatible module where it is installed (a speed-up only), else zlib."""
    return _zlib


def same_without_decoding(
    first: bytes, second: bytes, source: Path | str, window: int
) -> DiffResult | None:
    """The result of two PNGs that are byte for byte the same (``same_bytes``) or proved to
    hold the same pixels (``same_pixels``), or None: decode them."""
    same = same_bytes(first, second, source, window)
    return same if same is not None else same_pixels(first, second, window)


def same_pixels(first: bytes, second: bytes, window: int) -> DiffResult | None:
    """The result of two PNGs whose pixels are proved the same without decoding them (no
    pixel differs), or None when that is not proved: decode them (see the module)."""
    started = time.perf_counter()
    a = png_parts(first)
    if a is None:
        return None
    b = png_parts(second)
    if b is None or (a.ihdr, a.palette, a.transparency) != (b.ihdr, b.palette, b.transparency):
        return None
    rows = inflated(a)
    if rows is None:
        return None
    compared = time.perf_counter()
    if not (_inflates_to(b, rows) and filters_valid(rows, a.rows)):
        return None
    width, height = _IHDR.unpack(a.ihdr)[:2]
    timings = {
        "decode": (compared - started) * 1000,  # both files read, the first inflated
        "diff": (time.perf_counter() - compared) * 1000,  # the second inflated and compared
    }
    return DiffResult(width, height, 0, window, 0, (), timings)


def png_parts(data: bytes) -> PngParts | None:
    """The parts of a PNG that decide its pixels, or None when the file is not one this
    module answers for."""
    try:
        check_png_intact(data)
        chunks = _chunks(data, "image")
    except InputError:
        return None
    kind, start, end = chunks[0]
    if kind != b"IHDR" or end - start != _IHDR.size:
        return None
    ihdr = data[start:end]
    width, height, depth, colour, compression, filter_method, interlace = _IHDR.unpack(ihdr)
    if depth not in DEPTHS.get(colour, ()) or (compression, filter_method) != (0, 0):
        return None
    if interlace not in (0, 1):
        return None
    palette = transparency = None
    idat: list[bytes] = []
    ended = False  # the run of IDAT chunks is over
    text = 0
    for kind, start, end in chunks[1:]:
        length = end - start
        if kind == b"IDAT":
            if ended:
                return None  # image data split by another chunk
            idat.append(data[start:end])
            continue
        if idat:
            ended = True
        if kind == b"IEND":
            break
        if kind in (b"PLTE", b"tRNS"):
            if idat or (palette if kind == b"PLTE" else transparency) is not None:
                return None
            if kind == b"PLTE":
                palette = data[start:end]
            else:
                transparency = data[start:end]
            continue
        valid = _ANCILLARY.get(kind)
        if valid is None or not valid(length):
            return None
        if kind == b"tEXt":
            text += length
            if text > _MAX_TEXT:
                return None
    if not _colour_chunks_valid(colour, palette, transparency):
        return None
    channels = SAMPLES[colour] * depth
    passes = ADAM7 if interlace else ((0, 0, 1, 1),)
    rows: list[tuple[int, int, int]] = []
    offset = 0
    for x0, y0, dx, dy in passes:
        columns, count = -(-(width - x0) // dx), -(-(height - y0) // dy)
        if columns <= 0 or count <= 0:
            continue  # an empty pass has no rows, not even filter bytes
        length = 1 + (columns * channels + 7) // 8
        rows.append((offset, length, count))
        offset += length * count
    return PngParts(ihdr, palette, transparency, b"".join(idat), offset, tuple(rows))


def _colour_chunks_valid(colour: int, palette: bytes | None, transparency: bytes | None) -> bool:
    """A palette image has a palette of 1 to 256 entries and at most one transparency byte
    an entry; grey and truecolour images a tRNS of the length Pillow reads, if any; images
    with an alpha channel no tRNS."""
    if colour == 3:
        if palette is None or not (0 < len(palette) <= 768 and len(palette) % 3 == 0):
            return False
        return transparency is None or len(transparency) <= len(palette) // 3
    if palette is not None and colour != 2 and colour != 6:
        return False
    return transparency is None or len(transparency) == _TRNS_LENGTH.get(colour)


def inflated(image: PngParts) -> bytes | None:
    """The image data inflated, when its zlib stream ends exactly after the declared rows."""
    try:
        inflater = _zlib.decompressobj()
        rows: bytes = inflater.decompress(image.data, image.size + 1)
    except _zlib.error:
        return None
    if len(rows) != image.size or not inflater.eof or inflater.unused_data:
        return None
    return rows


def _inflates_to(image: PngParts, rows: bytes) -> bool:
    """Whether the image data inflates to exactly ``rows``, its zlib stream ending there;
    inflated a piece at a time, it stops at the first difference."""
    try:
        inflater = _zlib.decompressobj()
        pending, done = image.data, 0
        while done < len(rows):
            piece = inflater.decompress(pending, _STEP)
            if not piece or not rows.startswith(piece, done):
                return False
            done += len(piece)
            pending = inflater.unconsumed_tail
        rest = inflater.decompress(pending, 1)
    except _zlib.error:
        return False
    return not rest and inflater.eof and not inflater.unused_data


def filters_valid(rows: bytes, layout: tuple[tuple[int, int, int], ...]) -> bool:
    """Whether every row's filter type is one Pillow's decoder knows (0 to 4)."""
    for offset, length, count in layout:
        if max(rows[offset : offset + length * count : length]) > _MAX_FILTER:
            return False
    return True
