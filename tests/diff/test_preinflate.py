"""zlib-ng pre-inflation: the same pixels as Pillow alone, and Pillow decides every oddity."""

from __future__ import annotations

import io
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from argus.diff import _preinflate as preinflate
from argus.diff import png
from argus.diff.png import decode_png
from argus.errors import InputError

from .conftest import FIXTURES, page

pytestmark = pytest.mark.skipif(preinflate.fast_zlib is None, reason="zlib-ng not installed")


@pytest.fixture(autouse=True)
def _pre_inflating(monkeypatch: pytest.MonkeyPatch) -> None:
    """Decode through the pre-inflated path even where Pillow inflates with zlib-ng itself
    (where decode_png skips it), so these tests always check it."""
    monkeypatch.setattr(png, "PRE_INFLATE", True)


def test_a_pillow_on_zlib_ng_is_not_pre_inflated_for(monkeypatch: pytest.MonkeyPatch) -> None:
    data = png_bytes(Image.fromarray(page(30, 20), "RGBA"))
    called: list[bytes] = []
    monkeypatch.setattr(png, "pre_inflated", lambda raw: called.append(raw))
    monkeypatch.setattr(png, "PRE_INFLATE", False)
    assert np.array_equal(decode_png(data), page(30, 20))
    assert called == []
    monkeypatch.setattr(png, "PRE_INFLATE", True)
    assert np.array_equal(decode_png(data), page(30, 20))
    assert called == [data]


def png_bytes(img: Image.Image, **params: object) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format="PNG", **params)
    return buf.getvalue()


def idat_body(data: bytes) -> bytes:
    pos, body = 8, b""
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        if data[pos + 4 : pos + 8] == b"IDAT":
            body += data[pos + 8 : pos + 8 + length]
            assert (
                zlib.crc32(data[pos + 4 : pos + 8 + length])
                == struct.unpack(">I", data[pos + 8 + length : pos + 12 + length])[0]
            )
        pos += 12 + length
    return body


@pytest.mark.parametrize("mode", ["RGB", "RGBA", "L", "LA", "P"])
def test_same_pixels_as_pillow_alone(monkeypatch: pytest.MonkeyPatch, mode: str) -> None:
    data = png_bytes(Image.fromarray(page(300, 200), "RGBA").convert(mode))
    assert preinflate.pre_inflated(data) is not None
    fast = decode_png(data)
    monkeypatch.setattr(preinflate, "fast_zlib", None)
    assert np.array_equal(fast, decode_png(data))


def test_large_images_span_many_stored_blocks() -> None:
    rng = np.random.default_rng(0)
    noisy = rng.integers(0, 256, (300, 400, 4), dtype=np.uint8)  # 480 KB of filtered rows
    data = png_bytes(Image.fromarray(noisy, "RGBA"))
    stored = preinflate.pre_inflated(data)
    assert stored is not None
    # A valid zlib stream for any inflater, holding exactly the original filtered rows.
    assert zlib.decompress(idat_body(stored)) == zlib.decompress(idat_body(data))
    assert np.array_equal(decode_png(data), noisy)


def test_conformance_fixtures_decode_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    files = sorted(FIXTURES.glob("*.png"))
    fast = [decode_png(p.read_bytes()) for p in files]
    monkeypatch.setattr(preinflate, "fast_zlib", None)
    for path, img in zip(files, fast, strict=True):
        assert np.array_equal(img, decode_png(path.read_bytes())), path.name


def test_corrupt_image_data_is_left_to_pillow(tmp_path: Path) -> None:
    data = bytearray(png_bytes(Image.fromarray(page(), "RGBA")))
    start = data.index(b"IDAT") + 4
    data[start + 10 : start + 30] = b"\xff" * 20
    assert preinflate.pre_inflated(bytes(data)) is None
    with pytest.raises(InputError, match=r"bad\.png: corrupt or truncated PNG"):
        decode_png(bytes(data), tmp_path / "bad.png")


def test_chunks_after_the_image_data_are_left_to_pillow() -> None:
    data = png_bytes(Image.fromarray(page(), "RGBA"))
    iend = data.index(b"IEND") - 4
    text = b"tEXtnote\x00hi"
    chunk = struct.pack(">I", len(text) - 4) + text + struct.pack(">I", zlib.crc32(text))
    with_text = data[:iend] + chunk + data[iend:]
    assert preinflate.pre_inflated(with_text) is None
    assert np.array_equal(decode_png(with_text), page())
