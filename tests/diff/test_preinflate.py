"""zlib-ng pre-inflation: the same pixels as Pillow alone, and Pillow decides every oddity."""

from __future__ import annotations

import ctypes
import io
import random
import struct
import sys
import zlib
from pathlib import Path
from types import ModuleType, SimpleNamespace

import numpy as np
import pytest
from PIL import Image

from argus.diff import _preinflate as preinflate
from argus.diff import png
from argus.diff.png import decode_png
from argus.errors import InputError

from .conftest import FIXTURES, page
from .test_samepixels import COMBOS, colour_chunks, filtered_rows
from .test_samepixels import png as png_of

pytestmark = pytest.mark.skipif(preinflate.fast_zlib is None, reason="zlib-ng not installed")


@pytest.fixture(autouse=True)
def _pre_inflating(monkeypatch: pytest.MonkeyPatch) -> None:
    """Decode through the pre-inflated path even where Pillow inflates with zlib-ng itself
    (where decode_png skips it), so these tests always check it."""
    monkeypatch.setattr(png, "PRE_INFLATE", True)


def test_a_pillow_on_zlib_ng_is_not_pre_inflated_for(monkeypatch: pytest.MonkeyPatch) -> None:
    data = png_bytes(Image.fromarray(page(30, 20), "RGBA"))
    called: list[bytes] = []
    monkeypatch.setattr(png, "stored_png", lambda raw: called.append(raw))
    monkeypatch.setattr(png, "PRE_INFLATE", False)
    assert np.array_equal(decode_png(data), page(30, 20))
    assert called == []
    monkeypatch.setattr(png, "PRE_INFLATE", True)
    assert np.array_equal(decode_png(data), page(30, 20))
    assert called == [data]


@pytest.mark.parametrize(
    ("versions", "zlib_ng"),
    [
        ({"zlib_version": "1.2.13", "zlib_ng_version": "2.3.3"}, False),  # this machine's wheel
        ({"zlib_version": "1.3.1.zlib-ng", "zlib_ng_version": "2.2.4"}, True),
        ({"zlib_version": "1.3.1"}, False),
        ({"zlib_ng_version": "2.3.3"}, False),  # no run-time version: pre-inflating is safe
    ],
)
def test_zlib_ng_is_what_pillow_runs_not_what_it_was_built_for(
    versions: dict[str, str], zlib_ng: bool
) -> None:
    assert png.inflates_with_zlib_ng(SimpleNamespace(**versions)) is zlib_ng


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="dlopen of Pillow's module")
def test_the_decision_matches_the_zlib_pillow_loaded() -> None:
    """zlibVersion() looked up through Pillow's own _imaging (so in the zlib it loaded, not
    the one it was compiled against) says zlib-ng exactly when PRE_INFLATE is off."""
    imaging = ctypes.CDLL(Image.core.__file__)  # type: ignore[attr-defined]
    imaging.zlibVersion.restype = ctypes.c_char_p
    loaded = imaging.zlibVersion().decode()
    assert loaded == Image.core.zlib_version  # type: ignore[attr-defined]
    assert png.PRE_INFLATE is ("zlib-ng" not in loaded)


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


def _without_zlib_ng(monkeypatch: pytest.MonkeyPatch, data: bytes) -> np.ndarray | str:
    """What Pillow alone makes of ``data``: its pixels, or its error."""
    with monkeypatch.context() as m:
        m.setattr(preinflate, "fast_zlib", None)
        try:
            return decode_png(data, "x.png")
        except InputError as exc:
            return str(exc)


def _decoded(data: bytes) -> np.ndarray | str:
    try:
        return decode_png(data, "x.png")
    except InputError as exc:
        return str(exc)


@pytest.mark.parametrize("interlace", [0, 1])
@pytest.mark.parametrize(("colour", "depth"), COMBOS)
def test_the_bound_is_the_size_the_header_gives(
    monkeypatch: pytest.MonkeyPatch, colour: int, depth: int, interlace: int
) -> None:
    """Every colour type, depth and interlacing, at sizes with empty Adam7 passes: the data
    inflates to exactly ``inflated_size``, so it is pre-inflated, to Pillow's own pixels."""
    rng = random.Random(colour * 100 + depth * 2 + interlace)
    for width, height in ((1, 1), (2, 1), (1, 5), (3, 3), (9, 2), (17, 11)):
        rows = filtered_rows(rng, width, height, colour, depth, interlace)
        ihdr = struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, interlace)
        assert preinflate.inflated_size(ihdr) == len(rows)
        data = png_of((width, height, depth, colour, interlace), rows)
        data = png_of(
            (width, height, depth, colour, interlace),
            rows,
            before=colour_chunks(rng, colour, depth) if colour == 3 else (),
        )
        stored = preinflate.pre_inflated(data)
        assert stored is not None
        assert zlib.decompress(idat_body(stored)) == rows
        fast, alone = _decoded(data), _without_zlib_ng(monkeypatch, data)
        assert isinstance(fast, np.ndarray) and isinstance(alone, np.ndarray)
        assert np.array_equal(fast, alone)


class _Recording:
    """zlib-ng, recording each output limit asked of an inflater and each output size."""

    def __init__(self, real: ModuleType) -> None:
        self.real, self.limits, self.sizes = real, list[int](), list[int]()

    def __getattr__(self, name: str) -> object:
        return getattr(self.real, name)

    def _ZlibDecompressor(self) -> object:
        return _RecordingInflater(self, self.real._ZlibDecompressor())

    def decompressobj(self) -> object:
        return _RecordingInflater(self, self.real.decompressobj())


class _RecordingInflater:
    def __init__(self, owner: _Recording, real: object) -> None:
        self.owner, self.real = owner, real

    def __getattr__(self, name: str) -> object:
        return getattr(self.real, name)

    def decompress(self, data: bytes, limit: int = -1) -> bytes:
        self.owner.limits.append(limit)
        out: bytes = self.real.decompress(data, limit)  # type: ignore[attr-defined]
        self.owner.sizes.append(len(out))
        return out


def test_a_lone_file_is_inflated_a_block_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Never a buffer of the whole image data (whose fresh pages cost a lone decode more than
    the inflate), nor an output limit beyond the rows the header gives: each call asks for
    one stored block, and the data is inflated once."""
    rng = np.random.default_rng(1)
    noisy = rng.integers(0, 256, (300, 400, 4), dtype=np.uint8)  # 480 KB of filtered rows
    data = png_bytes(Image.fromarray(noisy, "RGBA"))
    assert preinflate.fast_zlib is not None
    recording = _Recording(preinflate.fast_zlib)
    monkeypatch.setattr(preinflate, "fast_zlib", recording)
    assert np.array_equal(decode_png(data), noisy)
    assert 0 < max(recording.limits) <= 65535 and max(recording.sizes) <= 65535
    assert sum(recording.sizes) == 300 * (1 + 400 * 4)


@pytest.mark.parametrize("extra", [1, 10_000_000])
def test_data_that_inflates_past_its_rows_is_left_to_pillow(
    monkeypatch: pytest.MonkeyPatch, extra: int
) -> None:
    """A stream that goes on past the rows (up to a bomb) is not pre-inflated, and zlib-ng
    stops a byte past the rows; Pillow decodes the file as it would alone."""
    rows = zlib.decompress(idat_body(png_bytes(Image.fromarray(page(30, 20), "RGBA"))))
    data = png_of((30, 20, 8, 6, 0), rows + bytes(extra))
    assert preinflate.fast_zlib is not None
    recording = _Recording(preinflate.fast_zlib)
    monkeypatch.setattr(preinflate, "fast_zlib", recording)
    assert preinflate.pre_inflated(data) is None
    assert sum(recording.sizes) <= len(rows) + 1
    fast, alone = _decoded(data), _without_zlib_ng(monkeypatch, data)
    assert isinstance(fast, np.ndarray) and isinstance(alone, np.ndarray)
    assert np.array_equal(fast, alone) and np.array_equal(fast, page(30, 20))


@pytest.mark.parametrize("cut", [1, 400, 2401])
def test_data_that_ends_before_its_rows_fails_as_pillow_alone(
    monkeypatch: pytest.MonkeyPatch, cut: int
) -> None:
    rows = zlib.decompress(idat_body(png_bytes(Image.fromarray(page(30, 20), "RGBA"))))
    data = png_of((30, 20, 8, 6, 0), rows[:-cut])
    assert preinflate.pre_inflated(data) is None
    fast = _decoded(data)
    assert isinstance(fast, str) and fast.startswith("x.png: ")
    assert fast == _without_zlib_ng(monkeypatch, data)


def test_corrupt_data_fails_as_pillow_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Corrupt past the first stored block: the stored PNG fails while Pillow reads it, and
    the error is the one the file gives alone."""
    rng = np.random.default_rng(2)
    noisy = rng.integers(0, 256, (300, 400, 4), dtype=np.uint8)
    data = bytearray(png_bytes(Image.fromarray(noisy, "RGBA"), compress_level=1))
    start = data.index(b"IDAT") + 4
    data[start + 300_000 : start + 300_040] = b"\xff" * 40
    fast = _decoded(bytes(data))
    assert isinstance(fast, str) and "corrupt or truncated PNG" in fast
    assert fast == _without_zlib_ng(monkeypatch, bytes(data))


def test_a_stored_png_is_read_as_pre_inflated_gives_it() -> None:
    data = png_bytes(Image.fromarray(page(300, 200), "RGBA"))
    stored = preinflate.stored_png(data)
    assert stored is not None
    whole = preinflate.pre_inflated(data)
    rows = zlib.decompress(idat_body(data))
    from_rows = preinflate.stored_rows(data, rows)
    assert from_rows is not None and whole == bytes(stored) == bytes(from_rows)
    reader = stored.reader()
    pieces = [reader.read(n) for n in (8, 100, 65536, 1)]
    assert reader.tell() == 8 + 100 + 65536 + 1
    assert b"".join(pieces) + reader.read() == whole
    reader.seek(5)
    with pytest.raises(preinflate.NotStored):
        reader.read(1)  # before the piece read last: Pillow never reads back so far
