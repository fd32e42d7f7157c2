"""Inflate a PNG's image data with zlib-ng ahead of Pillow.

Pillow inflates PNG data row by row through the system zlib, which is most of its decoding
time. zlib-ng inflates the whole stream several times faster. ``stored_png`` gives the same
PNG with its IDAT data inflated and re-wrapped as *stored* (uncompressed) deflate blocks,
which Pillow then only copies and unfilters. Filters, interlacing and every chunk before the
image data are kept byte for byte, so the decoded pixels are identical. Without the
``zlib-ng`` package, or for anything unusual, it returns None and Pillow decodes the
original.

The PNG is read through ``StoredPng.reader``, which inflates one stored block (64 KiB) as
Pillow reads it: no buffer of the whole image data, nor of the PNG. In a process that decodes
one file every such buffer is fresh pages (about 1,900 page faults at 1440x900 for the two,
more than the inflate costs). The inflate is bounded by the size the header gives
(``inflated_size``): data that ends before its rows, goes on past them (a bomb stops one
byte past) or is corrupt raises ``NotStored`` (a ValueError) as it is read, and the caller
decodes the original file, so the error is the one Pillow gives the file. ``pre_inflated``
is that PNG whole (bytes), and ``stored_rows`` the same PNG from rows already inflated.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from types import ModuleType

from argus.diff.pngcheck import _IHDR, ADAM7, DEPTHS, SAMPLES

fast_zlib: ModuleType | None
try:
    from zlib_ng import zlib_ng as fast_zlib
except ImportError:  # a speed-up only: plain Pillow decoding still works without it
    fast_zlib = None

# Above this many inflated bytes the three copies in memory are not worth the speed.
MAX_INFLATED = 128 * 1024 * 1024
_SIGNATURE_LENGTH = 8
_LENGTH = struct.Struct(">I")
_BLOCK_HEADER = struct.Struct("<BHH")
_STORED_BLOCK = 65535
_IEND = b"\x00\x00\x00\x00IEND\xaeB`\x82"


def inflated_size(ihdr: bytes) -> int | None:
    """The bytes a PNG's image data inflates to (each row's filter byte and its packed
    samples, pass after pass when interlaced), from its IHDR chunk's data; None for a header
    Pillow would refuse or read otherwise."""
    if len(ihdr) != _IHDR.size:
        return None
    fields: tuple[int, ...] = _IHDR.unpack(ihdr)
    width, height, depth, colour, compression, filter_method, interlace = fields
    if depth not in DEPTHS.get(colour, ()) or (compression, filter_method) != (0, 0):
        return None
    bits = depth * SAMPLES[colour]
    if interlace == 0:
        return height * (1 + (width * bits + 7) // 8)
    if interlace != 1:
        return None
    size = 0
    for x0, y0, dx, dy in ADAM7:
        columns, rows = -(-(width - x0) // dx), -(-(height - y0) // dy)
        if columns > 0 and rows > 0:  # an empty pass has no rows, not even filter bytes
            size += rows * (1 + (columns * bits + 7) // 8)
    return size


def _image_data(data: bytes) -> tuple[int, list[bytes], int] | None:
    """Where a PNG's image data begins, its IDAT chunks' data and the size they inflate to
    (``inflated_size``), or None when the header is not one IHDR chunk first or the data
    is not one run of IDAT chunks followed by IEND alone (then Pillow decodes the original)."""
    pos = _SIGNATURE_LENGTH
    head_end = 0
    idat: list[bytes] = []
    size: int | None = None
    while pos + 8 <= len(data):
        (length,) = _LENGTH.unpack_from(data, pos)
        kind = data[pos + 4 : pos + 8]
        body_end = pos + 8 + length
        if body_end + 4 > len(data):
            return None  # truncated: let Pillow report it
        if kind == b"IHDR":
            if pos != _SIGNATURE_LENGTH:
                return None  # a second header: Pillow decides which it reads
            size = inflated_size(data[pos + 8 : body_end])
        elif kind == b"IDAT":
            if not idat:
                head_end = pos
            idat.append(data[pos + 8 : body_end])
        elif kind == b"IEND":
            break
        elif idat or kind in (b"acTL", b"fdAT"):
            return None  # chunks after the image data, or an animation: keep to Pillow
        pos = body_end + 4
    if not idat or size is None:
        return None
    return head_end, idat, size


class NotStored(ValueError):
    """The image data does not inflate to what the header says (Pillow decides from the
    original file)."""


def _blocks(size: int) -> list[int]:
    """The lengths of the stored blocks holding ``size`` inflated bytes."""
    full, rest = divmod(size, _STORED_BLOCK)
    return [_STORED_BLOCK] * full + ([rest] if rest or not full else [])


def _stored_pieces(
    head: bytes, blocks: Iterator[bytes | memoryview], lengths: list[int], zlib: ModuleType
) -> Iterator[tuple[bytes | memoryview, ...]]:
    """The PNG piece by piece, each a few parts to join: ``head`` (signature and chunks before
    the image data) and the start of one IDAT chunk, each stored deflate block of ``blocks``
    (of ``lengths``), then the stream's Adler-32, the chunk's CRC (taken piece by piece) and
    IEND. The chunk's length is known before its data: the sum of ``lengths`` and headers."""
    kind = b"IDAT\x78\x01"  # zlib header: deflate, 32K window, no dict
    body_length = 2 + 5 * len(lengths) + sum(lengths) + 4
    yield (head, _LENGTH.pack(body_length), kind)
    crc, adler = zlib.crc32(kind), 1
    last = len(lengths) - 1
    for i, length in enumerate(lengths):
        block = next(blocks)
        # stored block header: BFINAL on the last, BTYPE 00, then LEN and its complement
        header = _BLOCK_HEADER.pack(i == last, length, length ^ 0xFFFF)
        crc = zlib.crc32(block, zlib.crc32(header, crc))
        adler = zlib.adler32(block, adler)
        yield (header, block)
    check = _LENGTH.pack(adler & 0xFFFFFFFF)
    yield (check, _LENGTH.pack(zlib.crc32(check, crc) & 0xFFFFFFFF), _IEND)


def _inflating(compressed: bytes, lengths: list[int], zlib: ModuleType) -> Iterator[bytes]:
    """The inflated image data, a block of each of ``lengths`` at a time (no buffer of the
    whole); NotStored as soon as the stream is corrupt, ends early, or goes on past them."""
    inflater = zlib._ZlibDecompressor()
    last = len(lengths) - 1
    try:
        for i, length in enumerate(lengths):
            block = inflater.decompress(compressed, length)
            compressed = b""
            if len(block) != length:
                raise NotStored("the image data ends before its rows do")
            # Checked before the last block is given: nothing reads past it.
            if i == last and not inflater.eof and (inflater.decompress(b"", 1) or not inflater.eof):
                raise NotStored("the image data goes on past its rows, or does not end")
            yield block
    except zlib.error as exc:
        raise NotStored(str(exc)) from exc


class StoredReader:
    """A read-only file of ``_stored_pieces``, read front to back as Pillow reads a PNG
    (seeking only within the piece read last): each piece is made when it is first read.
    NotStored from a read that cannot be served."""

    def __init__(self, pieces: Iterator[tuple[bytes | memoryview, ...]]) -> None:
        self._pieces: Iterator[bytes] = (b"".join(parts) for parts in pieces)
        self._piece = b""
        self._start = 0  # where self._piece begins in the file
        self._pos = 0

    def read(self, size: int | None = -1) -> bytes:
        out: list[bytes] = []
        want = -1 if size is None or size < 0 else size
        while want != 0:
            offset = self._pos - self._start
            if offset < 0 or offset > len(self._piece):
                raise NotStored("read out of order")
            if offset == len(self._piece):
                piece = next(self._pieces, None)
                if piece is None:
                    break
                self._start, self._piece = self._pos, piece
                continue
            taken = self._piece[offset:] if want < 0 else self._piece[offset : offset + want]
            out.append(taken)
            self._pos += len(taken)
            want = want if want < 0 else want - len(taken)
        return b"".join(out)

    def seek(self, offset: int, whence: int = 0) -> int:
        self._pos = offset if whence == 0 else self._pos + offset if whence == 1 else -1
        if self._pos < 0:
            raise NotStored("seek from the end of a stored PNG")
        return self._pos

    def tell(self) -> int:
        return self._pos

    def close(self) -> None:
        self._pieces = iter(())


class StoredPng:
    """A PNG with its image data to be stored uncompressed, each block made as it is read
    (``reader``): inflated from ``compressed``, or cut from ``rows`` already inflated. No
    buffer of the whole PNG is made, nor of the image data when it is inflated here."""

    def __init__(
        self,
        head: bytes,
        size: int,
        zlib: ModuleType,
        *,
        compressed: bytes = b"",
        rows: bytes | None = None,
    ) -> None:
        self._head, self._lengths, self._zlib = head, _blocks(size), zlib
        self._compressed, self._rows = compressed, rows

    def _pieces(self) -> Iterator[tuple[bytes | memoryview, ...]]:
        blocks: Iterator[bytes | memoryview]
        if self._rows is None:
            blocks = _inflating(self._compressed, self._lengths, self._zlib)
        else:
            view = memoryview(self._rows)
            blocks = (
                view[i * _STORED_BLOCK : (i + 1) * _STORED_BLOCK] for i in range(len(self._lengths))
            )
        return _stored_pieces(self._head, blocks, self._lengths, self._zlib)

    def reader(self) -> StoredReader:
        return StoredReader(self._pieces())

    def __bytes__(self) -> bytes:
        return b"".join(part for parts in self._pieces() for part in parts)


def stored_png(data: bytes) -> StoredPng | None:
    """``data`` (a PNG) to be read with its image data stored uncompressed, or None to decode
    it as is (no zlib-ng, or anything unusual). Its data is checked only as it is read."""
    zlib = fast_zlib
    found = _image_data(data) if zlib is not None else None
    if zlib is None or found is None or not 0 < found[2] <= MAX_INFLATED:
        return None
    head_end, idat, size = found
    return StoredPng(data[:head_end], size, zlib, compressed=b"".join(idat))


def pre_inflated(data: bytes) -> bytes | None:
    """``data`` (a PNG) with its image data stored uncompressed, or None to decode as is
    (``stored_png`` read whole; None too when its data does not inflate to its rows)."""
    stored = stored_png(data)
    try:
        return None if stored is None else bytes(stored)
    except NotStored:
        return None  # corrupt, too short or too long: Pillow decides


def stored_rows(data: bytes, rows: bytes) -> StoredPng | None:
    """``data`` (a PNG) with ``rows`` stored uncompressed in place of its image data, for a
    caller that has inflated the data already (the pair decode's ``filtered``, which takes
    only a stream that inflates to exactly its rows and ends), or None to decode as is."""
    zlib = fast_zlib
    found = _image_data(data) if zlib is not None else None
    if zlib is None or found is None:
        return None
    return StoredPng(data[: found[0]], len(rows), zlib, rows=rows)
