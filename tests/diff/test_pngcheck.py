"""check_png_intact: what a byte-identical pair must prove before it is called identical
undecoded (every chunk whole with its CRC, image data, IEND last)."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import pytest

from argus.diff import pngcheck
from argus.diff.png import encode_png
from argus.diff.pngcheck import (
    MAX_CHUNKS,
    MAX_METADATA_CHUNKS,
    MAX_PNG_PIXELS,
    PNG_SIGNATURE,
    PngHeader,
    check_png,
    check_png_intact,
    png_chunk_kinds,
    read_png_bytes,
)
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


def png_sized(width: int, height: int, *chunks: bytes) -> bytes:
    ihdr = chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 16, 2, 0, 0, 0))
    return PNG_SIGNATURE + ihdr + b"".join(chunks)


def refusal(data: bytes) -> str:
    with pytest.raises(InputError) as caught:
        check_png(data, "x.png")
    return str(caught.value)


def test_the_header_gives_every_field() -> None:
    assert check_png(png_sized(5, 7, IEND)) == PngHeader(5, 7, 16, 2)


def test_the_pixel_cap_is_inclusive() -> None:
    assert check_png(png_sized(MAX_PNG_PIXELS, 1)).width == MAX_PNG_PIXELS
    assert refusal(png_sized(MAX_PNG_PIXELS + 1, 1)) == (
        "x.png: PNG is too large to decode safely (89478486 x 1 pixels, over 89,478,485); "
        "pass a smaller image"
    )


def test_a_zero_side_and_a_missing_signature_or_header_are_refused_exactly() -> None:
    assert refusal(png_sized(4, 0)) == "x.png: corrupt PNG (it declares 4 x 0 pixels)"
    assert refusal(png_sized(0, 4)) == "x.png: corrupt PNG (it declares 0 x 4 pixels)"
    assert refusal(b"GIF89a" + png_sized(1, 1)[6:]) == (
        "x.png: not a PNG image (no PNG signature); pass a .png file"
    )
    with pytest.raises(InputError) as caught:
        check_png(b"")
    assert str(caught.value) == "image: not a PNG image (no PNG signature); pass a .png file"
    whole = png_sized(1, 1)
    assert check_png(whole[:29]).height == 1  # signature, chunk head and the 13 header bytes
    assert refusal(whole[:28]) == ("x.png: corrupt or truncated PNG (no IHDR header); re-export it")
    renamed = whole[:12] + b"IHDX" + whole[16:]
    assert "(no IHDR header)" in refusal(renamed)


def test_the_metadata_chunk_cap_is_inclusive_and_image_chunks_do_not_count() -> None:
    text = chunk(b"tEXt", b"k\x00v")
    assert check_png(png_sized(1, 1, text * MAX_METADATA_CHUNKS, IDAT, IEND)).width == 1
    palette = chunk(b"PLTE", b"\x00\x00\x00")
    assert check_png(png_sized(1, 1, palette * (MAX_METADATA_CHUNKS + 5), IEND)).width == 1
    over = png_sized(1, 1, text * (MAX_METADATA_CHUNKS + 1), IEND)
    assert refusal(over) == "x.png: PNG has more than 1,000 metadata chunks; re-export it"


def test_the_chunk_cap_is_inclusive() -> None:
    empty = chunk(b"IDAT", b"")
    # the header is one chunk: MAX_CHUNKS in all is fine, one more is not
    assert check_png(png_sized(1, 1, empty * (MAX_CHUNKS - 1))).width == 1
    over = png_sized(1, 1, empty * MAX_CHUNKS)
    assert refusal(over) == "x.png: PNG has more than 100,000 chunks; re-export it"


def test_nothing_after_iend_is_read() -> None:
    text = chunk(b"tEXt", b"k\x00v")
    data = png_of(IDAT, IEND, text * (MAX_METADATA_CHUNKS + 1))
    assert check_png(data).width == 3
    assert png_chunk_kinds(data) == {b"IHDR", b"IDAT", b"IEND"}
    assert png_chunk_kinds(png_of(text, IDAT, IEND)) == {b"IHDR", b"tEXt", b"IDAT", b"IEND"}


def test_a_chunk_whose_crc_is_cut_off_is_named() -> None:
    data = png_of(IDAT, IEND)
    with pytest.raises(InputError) as caught:
        check_png_intact(data[:-1], "x.png")
    assert str(caught.value) == "x.png: corrupt or truncated PNG (b'IEND' chunk cut short)"
    with pytest.raises(InputError) as caught:
        check_png_intact(png_of(IDAT) + IEND[:8], "x.png")  # its head only, ending the file
    assert str(caught.value) == "x.png: corrupt or truncated PNG (b'IEND' chunk cut short)"
    with pytest.raises(InputError) as caught:
        check_png_intact(png_of(IDAT[:-1] + b"\x00", IEND), "x.png")
    assert str(caught.value) == "x.png: corrupt PNG (CRC mismatch in a b'IDAT' chunk)"
    with pytest.raises(InputError) as caught:
        check_png_intact(png_of(IEND))
    assert str(caught.value) == "image: corrupt or truncated PNG (no image data or no IEND)"


def test_read_png_bytes_keeps_to_the_size_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "a.png"
    path.write_bytes(b"x" * 2_000_000)
    assert read_png_bytes(path) == b"x" * 2_000_000
    monkeypatch.setattr(pngcheck, "MAX_PNG_BYTES", 1024 * 1024)
    with pytest.raises(InputError) as caught:
        read_png_bytes(path)
    assert str(caught.value) == f"{path}: PNG image is 2000000 bytes, over the 1 MiB limit"


def test_the_chunk_cap_is_named_even_with_exactly_the_metadata_cap_reached() -> None:
    text = chunk(b"tEXt", b"k\x00v")
    empty = chunk(b"IDAT", b"")
    data = png_sized(1, 1, text * MAX_METADATA_CHUNKS, empty * (MAX_CHUNKS - MAX_METADATA_CHUNKS))
    assert refusal(data) == "x.png: PNG has more than 100,000 chunks; re-export it"


def test_every_refusal_of_a_whole_file_check_names_the_file() -> None:
    text = chunk(b"tEXt", b"k\x00v")
    chatty = png_of(text * (MAX_METADATA_CHUNKS + 1), IDAT, IEND)
    cases = [
        (b"", "not a PNG image (no PNG signature); pass a .png file"),
        (chatty, "PNG has more than 1,000 metadata chunks; re-export it"),
    ]
    for data, message in cases:
        for check in (check_png_intact, png_chunk_kinds):
            with pytest.raises(InputError) as caught:
                check(data, "x.png")
            assert str(caught.value) == f"x.png: {message}", check
        with pytest.raises(InputError) as caught:
            png_chunk_kinds(data)
        assert str(caught.value) == f"image: {message}"
