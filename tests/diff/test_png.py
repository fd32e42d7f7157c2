"""PNG load/save: RGBA decoding of every mode, one-line errors naming the file."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from argus.diff import load_png, load_png_pair, save_png
from argus.errors import InputError

from .conftest import FIXTURES, page


def test_round_trip(tmp_path: Path) -> None:
    img = page()
    img[0, 0] = (1, 2, 3, 4)
    save_png(tmp_path / "x.png", img)
    assert np.array_equal(load_png(tmp_path / "x.png"), img)


@pytest.mark.parametrize("mode", ["RGB", "L", "LA", "P"])
def test_other_modes_decode_to_rgba(tmp_path: Path, mode: str) -> None:
    rgba = page()
    Image.fromarray(rgba, "RGBA").convert(mode).save(tmp_path / "m.png")
    expected = np.asarray(Image.open(tmp_path / "m.png").convert("RGBA"))
    assert np.array_equal(load_png(tmp_path / "m.png"), expected)


def test_rgb_with_a_transparent_colour_honours_it(tmp_path: Path) -> None:
    rgb = page()[..., :3].copy()
    Image.fromarray(rgb, "RGB").save(tmp_path / "t.png", transparency=(250, 250, 250))
    decoded = load_png(tmp_path / "t.png")
    assert decoded[0, 0].tolist() == [250, 250, 250, 0]
    assert decoded[5, 5].tolist() == [20, 20, 20, 255]


def test_palette_fixture_matches_pillow_conversion() -> None:
    # 2a.png is a palette image in the conformance set.
    assert Image.open(FIXTURES / "2a.png").mode == "P"
    expected = np.asarray(Image.open(FIXTURES / "2a.png").convert("RGBA"))
    assert np.array_equal(load_png(FIXTURES / "2a.png"), expected)


def test_pair_decodes_both(tmp_path: Path) -> None:
    a, b = page(), page()
    b[1, 1] = 0
    save_png(tmp_path / "a.png", a)
    save_png(tmp_path / "b.png", b)
    got_a, got_b = load_png_pair(tmp_path / "a.png", tmp_path / "b.png")
    assert np.array_equal(got_a, a) and np.array_equal(got_b, b)


@pytest.mark.parametrize(("bad", "named"), [("b", "b.png"), ("a", "a.png"), ("both", "a.png")])
def test_pair_with_a_bad_file_names_it(tmp_path: Path, bad: str, named: str) -> None:
    """The second file decodes on another thread; its error still reaches the caller, and
    when both are bad the first file is the one named."""
    save_png(tmp_path / "a.png", page())
    save_png(tmp_path / "b.png", page())
    for name in ("a", "b"):
        if bad in (name, "both"):
            (tmp_path / f"{name}.png").write_bytes(b"not a png")
    with pytest.raises(InputError) as caught:
        load_png_pair(tmp_path / "a.png", tmp_path / "b.png")
    assert str(caught.value).startswith(str(tmp_path / named))


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"nope\.png: PNG image not found"):
        load_png(tmp_path / "nope.png")


def test_not_a_png(tmp_path: Path) -> None:
    Image.fromarray(page()[..., :3]).save(tmp_path / "x.jpg", format="JPEG")
    with pytest.raises(InputError, match=r"x\.jpg: not a PNG image"):
        load_png(tmp_path / "x.jpg")


def test_corrupt_png(tmp_path: Path) -> None:
    save_png(tmp_path / "x.png", page())
    data = (tmp_path / "x.png").read_bytes()
    (tmp_path / "bad.png").write_bytes(data[: len(data) // 2])
    with pytest.raises(InputError, match=r"bad\.png: corrupt or truncated PNG"):
        load_png(tmp_path / "bad.png")


def _bomb_png(width: int, height: int) -> bytes:
    """A tiny 1-bit PNG whose dimensions are over Pillow's decompression-bomb limit."""
    import struct
    import zlib

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body) & 0xFFFFFFFF
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)

    rows = (b"\x00" * (1 + (width + 7) // 8)) * height
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows, 9))
        + chunk(b"IEND", b"")
    )


def test_decompression_bomb_is_an_input_error(tmp_path: Path) -> None:
    path = tmp_path / "bomb.png"
    path.write_bytes(_bomb_png(15000, 15000))  # 225 Mpx, over twice Pillow's limit
    with pytest.raises(InputError, match=r"bomb\.png: PNG is too large to decode safely"):
        load_png(path)
