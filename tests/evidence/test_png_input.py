"""PNG input: high bit depths are converted, bombs are refused before decoding (issue 12)."""

from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from argus.diff import decode_png, load_png
from argus.diff.png import MAX_METADATA_CHUNKS, check_png
from argus.errors import InputError
from tests.conftest import RunArgus


def _chunk(kind: bytes, body: bytes) -> bytes:
    crc = zlib.crc32(kind + body) & 0xFFFFFFFF
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)


def _png(width: int, height: int, idat: bytes, *, extra: bytes = b"", depth: int = 1) -> bytes:
    header = struct.pack(">IIBBBBB", width, height, depth, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + extra
        + _chunk(b"IDAT", idat)
        + _chunk(b"IEND", b"")
    )


def _grey16(path: Path, value: int, *, transparency: int | None = None) -> Path:
    image = Image.fromarray(np.full((4, 6), value, dtype=np.uint16))
    assert image.mode == "I;16"
    options = {} if transparency is None else {"transparency": transparency}
    image.save(path, **options)
    return path


def test_16_bit_greyscale_is_scaled_not_clipped(tmp_path: Path) -> None:
    dark = load_png(_grey16(tmp_path / "dark.png", 1000))
    light = load_png(_grey16(tmp_path / "light.png", 60000))
    assert dark[0, 0].tolist() == [3, 3, 3, 255]  # 1000 >> 8
    assert light[0, 0].tolist() == [234, 234, 234, 255]  # 60000 >> 8
    assert load_png(_grey16(tmp_path / "max.png", 65535))[0, 0].tolist() == [255] * 4


def test_16_bit_greyscale_transparency_is_honoured(tmp_path: Path) -> None:
    decoded = load_png(_grey16(tmp_path / "t.png", 1000, transparency=1000))
    assert decoded[0, 0].tolist() == [3, 3, 3, 0]


def test_argus_diff_sees_16_bit_greyscale_differences(tmp_path: Path, run_argus: RunArgus) -> None:
    a = _grey16(tmp_path / "a.png", 1000)
    b = _grey16(tmp_path / "b.png", 60000)
    done = run_argus("diff", str(a), str(b), "--json", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout)["mismatch"] == 24


@pytest.fixture
def no_pillow(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pillow must not even be asked to open what the header check refuses."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("Pillow was asked to open a PNG the header check should refuse")

    monkeypatch.setattr(Image, "open", refuse)


def test_a_tall_tiny_png_is_refused_before_decoding(tmp_path: Path, no_pillow: None) -> None:
    path = tmp_path / "tall.png"
    path.write_bytes(_png(1, 150_000_000, zlib.compress(b"\x00\x00" * 1000)))
    assert path.stat().st_size < 200
    with pytest.raises(InputError, match=r"tall\.png: PNG is too large to decode safely"):
        load_png(path)


def test_many_metadata_chunks_are_refused_before_pillow_parses_them(
    tmp_path: Path, no_pillow: None
) -> None:
    text = _chunk(b"tEXt", b"k\x00v")
    path = tmp_path / "chatty.png"
    path.write_bytes(_png(1, 1, zlib.compress(b"\x00\x00"), extra=text * (MAX_METADATA_CHUNKS + 1)))
    with pytest.raises(InputError, match="more than 1,000 metadata chunks"):
        load_png(path)


def test_a_few_metadata_chunks_are_fine(tmp_path: Path) -> None:
    text = _chunk(b"tEXt", b"k\x00v")
    data = _png(1, 1, zlib.compress(b"\x00\x00"), extra=text * 10)
    assert check_png(data).width == 1
    (tmp_path / "ok.png").write_bytes(data)
    assert load_png(tmp_path / "ok.png").shape == (1, 1, 4)


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        (b"\x89PNG\r\n\x1a\n", "no IHDR"),
        (b"\x89PNG\r\n\x1a\n" + _chunk(b"IEND", b""), "no IHDR"),
        (_png(0, 10, b""), "0 x 10"),
        (_png(12000, 12000, b""), "too large"),
    ],
)
def test_header_problems_are_one_line(data: bytes, needle: str) -> None:
    with pytest.raises(InputError, match=needle) as info:
        check_png(data, "x.png")
    assert "\n" not in str(info.value)


def test_a_large_png_never_prints_pillows_warning(tmp_path: Path, run_argus: RunArgus) -> None:
    rows = zlib.compress((b"\x00" + b"\x00" * (12000 // 8)) * 12000, 9)
    big = tmp_path / "big.png"
    big.write_bytes(_png(12000, 12000, rows))
    done = run_argus("diff", str(big), str(big), cwd=tmp_path)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "Warning" not in done.stderr and "too large" in done.stderr


@pytest.mark.parametrize(("colour", "samples"), [(0, 1), (2, 3), (4, 2), (6, 4)])
def test_every_16_bit_colour_type_keeps_its_high_byte(colour: int, samples: int) -> None:
    """Grey, RGB, grey+alpha and RGBA at 16 bits: 1000 and 60000 stay apart (3 and 234)."""
    row = b"\x00" + b"".join(struct.pack(">H", v) * samples for v in (1000, 60000))
    header = struct.pack(">IIBBBBB", 2, 1, 16, colour, 0, 0, 0)
    data = (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(row))
        + _chunk(b"IEND", b"")
    )
    decoded = decode_png(data)
    assert decoded[0, 0, :3].tolist() == [3, 3, 3]
    assert decoded[0, 1, :3].tolist() == [234, 234, 234]
