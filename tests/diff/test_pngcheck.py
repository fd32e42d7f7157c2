"""check_png_intact: what a byte-identical pair must prove before it is called identical
undecoded (every chunk whole with its CRC, image data, IEND last)."""

from __future__ import annotations

import struct
import zlib

import pytest

from argus.diff.png import encode_png
from argus.diff.pngcheck import PNG_SIGNATURE, check_png, check_png_intact
from argus.diff.result import same_bytes
from argus.errors import InputError

from .conftest import page


def chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def png_of(*chunks: bytes) -> bytes:
    ihdr = chunk(b"IHDR", struct.pack(">IIBBBBB", 3, 2, 8, 6, 0, 0, 0))
    return PNG_SIGNATURE + ihdr + b"".join(chunks)


IDAT = chunk(b"IDAT", zlib.compress(b"\x00" + b"\x00" * 12 + b"\x00" + b"\x00" * 12))
IEND = chunk(b"IEND", b"")


def test_a_whole_png_passes_and_gives_its_header() -> None:
    header = check_png_intact(png_of(IDAT, IEND))
    assert (header.width, header.height) == (3, 2)
    real = encode_png(page())
    assert (check_png_intact(real).width, check_png_intact(real).height) == (64, 48)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (png_of(IEND), "no image data or no IEND"),
        (png_of(IDAT), "no image data or no IEND"),
        (png_of(IDAT, IEND)[:-2], "cut short"),
        (png_of(IDAT[:-1] + bytes([IDAT[-1] ^ 1]), IEND), "CRC mismatch"),
        (png_of(chunk(b"tEXt", b"a\x00b")[:-4] + b"\x00\x00\x00\x00", IDAT, IEND), "CRC"),
    ],
)
def test_a_damaged_png_is_refused(data: bytes, message: str) -> None:
    check_png(data)  # the header check alone lets every one of these through
    with pytest.raises(InputError, match=message):
        check_png_intact(data, "x.png")


def test_same_bytes_answers_only_for_identical_whole_files() -> None:
    whole = png_of(IDAT, IEND)
    result = same_bytes(whole, bytes(whole), "x.png", window=4)
    assert result is not None
    assert (result.mismatch, result.same_bytes, result.window, result.total) == (0, True, 4, 6)
    assert same_bytes(whole, png_of(IDAT, IDAT, IEND), "x.png") is None
    damaged = whole[:-1]
    with pytest.raises(InputError):
        same_bytes(damaged, damaged, "x.png")
