"""PNG files checked before anything decodes them, with the standard library only.

``check_png`` reads the header and the chunk list: dimensions over ``MAX_PNG_PIXELS`` (a
69-byte file can declare 150 million pixels) and files made of many metadata chunks (which
Pillow parses one by one, slowly) are refused in one line. Every reader of a PNG in Argus goes
through it, so Pillow never decodes, or warns about, an image that large.

``check_png_intact`` also checks every chunk's CRC and that the file ends with IEND: the proof
a byte-identical pair needs before it is called identical without being decoded (a truncated
or damaged file is still bad input, as decoding it would have said).

No numpy and no Pillow here, so ``argus diff`` on two identical files imports neither.
"""

from __future__ import annotations

import struct
import zlib
from collections import namedtuple
from pathlib import Path

from argus._readfile import read_bytes
from argus.errors import InputError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy takes it as True)

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# Screenshots of long pages are large; the cap only guards against absurd files.
MAX_PNG_BYTES = 256 * 1024 * 1024
# Pillow's own decompression-bomb warning threshold: nothing above it is ever decoded, so Pillow
# never prints its multi-line warning (about 9459 x 9459, or 2560 x 34952 at a scale of 2).
MAX_PNG_PIXELS = 89_478_485
# A browser screenshot has a handful of metadata chunks; image data may be split into many.
MAX_METADATA_CHUNKS = 1000
MAX_CHUNKS = 100_000
_CHUNK_HEAD = struct.Struct(">I4s")
_CRC = struct.Struct(">I")
_IHDR = struct.Struct(">IIBBBBB")
_IMAGE_CHUNKS = (b"IDAT", b"IHDR", b"PLTE", b"IEND")
# Samples in a pixel of each PNG colour type (grey, RGB, palette, grey and alpha, RGBA), and the
# bit depths each allows (PNG spec, table 11.1).
SAMPLES = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
DEPTHS = {0: (1, 2, 4, 8, 16), 2: (8, 16), 3: (1, 2, 4, 8), 4: (8, 16), 6: (8, 16)}
# Adam7: (first column, first row, column step, row step) of each pass.
ADAM7 = (
    (0, 0, 8, 8),
    (4, 0, 8, 8),
    (0, 4, 4, 8),
    (2, 0, 4, 4),
    (0, 2, 2, 4),
    (1, 0, 2, 2),
    (0, 1, 1, 2),
)


# The fields as a NamedTuple for mypy; at run time the same tuple made by collections, which
# does not import typing (about 3 % of an `argus diff` process).
if TYPE_CHECKING:
    from typing import NamedTuple

    class _HeaderFields(NamedTuple):
        width: int
        height: int
        bit_depth: int
        colour_type: int

else:
    _HeaderFields = namedtuple("PngHeader", "width height bit_depth colour_type")


class PngHeader(_HeaderFields):
    """A PNG's size, bit depth and colour type, from its IHDR chunk."""

    __slots__ = ()


def check_png(data: bytes, source: Path | str = "image") -> PngHeader:
    """The PNG's header, or one InputError line when it is not a PNG Argus will decode: no
    signature, no IHDR first, zero or too many pixels, or too many chunks."""
    header = _header(data, source)
    for _kind, _start, _end in _chunks(data, source):
        pass
    return header


def check_png_intact(data: bytes, source: Path | str = "image") -> PngHeader:
    """``check_png``, and every chunk complete with a matching CRC, image data present and
    IEND last: a file that decoding would not refuse as truncated or damaged."""
    header = _header(data, source)
    ended = has_data = False
    for kind, start, end in _chunks(data, source):
        if end + 4 > len(data):
            raise InputError(f"{source}: corrupt or truncated PNG ({kind!r} chunk cut short)")
        (stored,) = _CRC.unpack_from(data, end)
        if zlib.crc32(data[start - 4 : end]) != stored:
            raise InputError(f"{source}: corrupt PNG (CRC mismatch in a {kind!r} chunk)")
        has_data = has_data or kind == b"IDAT"
        ended = kind == b"IEND"
    if not (ended and has_data):
        raise InputError(f"{source}: corrupt or truncated PNG (no image data or no IEND)")
    return header


def png_chunk_kinds(data: bytes, source: Path | str = "image") -> frozenset[bytes]:
    """The kinds of chunk in a whole PNG (``check_png_intact``; InputError otherwise)."""
    check_png_intact(data, source)
    return frozenset(kind for kind, _start, _end in _chunks(data, source))


def read_png_bytes(path: Path) -> bytes:
    """The bytes of the PNG file at ``path`` (unchecked), refused in one line when the file
    is missing, unreadable, not a regular file or over ``MAX_PNG_BYTES``."""
    return read_bytes(path, what="PNG image", limit=MAX_PNG_BYTES)


def _header(data: bytes, source: Path | str) -> PngHeader:
    if not data.startswith(PNG_SIGNATURE):
        raise InputError(f"{source}: not a PNG image (no PNG signature); pass a .png file")
    pos = len(PNG_SIGNATURE)
    if len(data) < pos + 8 + _IHDR.size or data[pos + 4 : pos + 8] != b"IHDR":
        raise InputError(f"{source}: corrupt or truncated PNG (no IHDR header); re-export it")
    width, height, depth, colour, *_ = _IHDR.unpack_from(data, pos + 8)
    if width == 0 or height == 0:
        raise InputError(f"{source}: corrupt PNG (it declares {width} x {height} pixels)")
    if width * height > MAX_PNG_PIXELS:
        raise InputError(
            f"{source}: PNG is too large to decode safely ({width} x {height} pixels, over "
            f"{MAX_PNG_PIXELS:,}); pass a smaller image"
        )
    return PngHeader(width, height, depth, colour)


def _chunks(data: bytes, source: Path | str) -> list[tuple[bytes, int, int]]:
    """Each chunk as (kind, start of its data, end of its data), up to and with IEND;
    an InputError when there are too many."""
    found: list[tuple[bytes, int, int]] = []
    pos = len(PNG_SIGNATURE)
    metadata = 0
    while pos + 8 <= len(data):
        length, kind = _CHUNK_HEAD.unpack_from(data, pos)
        found.append((kind, pos + 8, pos + 8 + length))
        if kind not in _IMAGE_CHUNKS:
            metadata += 1
        if metadata > MAX_METADATA_CHUNKS or len(found) > MAX_CHUNKS:
            what = "metadata chunks" if metadata > MAX_METADATA_CHUNKS else "chunks"
            limit = MAX_METADATA_CHUNKS if metadata > MAX_METADATA_CHUNKS else MAX_CHUNKS
            raise InputError(f"{source}: PNG has more than {limit:,} {what}; re-export it")
        if kind == b"IEND":
            break
        pos += 12 + length
    return found
