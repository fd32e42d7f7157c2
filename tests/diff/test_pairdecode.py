"""The second PNG of a pair decoded from the first's pixels and its own differing rows: the
same pixels as decoding it whole, on every filter type, and the whole decode whenever the
file is anything but a plain RGB or RGBA PNG (so every error is the one it always was)."""

from __future__ import annotations

import io
import struct
import zlib

import numpy as np
import pytest
from PIL import Image

from argus.diff import _pairdecode as pairdecode
from argus.diff import _preinflate as preinflate
from argus.diff import png
from argus.diff.png import decode_png, decode_png_pair
from argus.diff.pngcheck import check_png_intact
from argus.errors import InputError

from .conftest import page

pytestmark = pytest.mark.skipif(pairdecode.fast_zlib is None, reason="zlib-ng not installed")


def _paeth(left: np.ndarray, up: np.ndarray, corner: np.ndarray) -> np.ndarray:
    p = left + up - corner
    pa, pb, pc = np.abs(p - left), np.abs(p - up), np.abs(p - corner)
    return np.where((pa <= pb) & (pa <= pc), left, np.where(pb <= pc, up, corner))


def _filter_row(raw: np.ndarray, prior: np.ndarray, kind: int, bpp: int) -> bytes:
    """One row filtered with PNG filter ``kind`` (0 None .. 4 Paeth), prefixed by its type."""
    row, up = raw.astype(np.int32), prior.astype(np.int32)
    left = np.concatenate([np.zeros(bpp, np.int32), row[:-bpp]])
    corner = np.concatenate([np.zeros(bpp, np.int32), up[:-bpp]])
    predictor = [0 * row, left, up, (left + up) // 2, _paeth(left, up, corner)][kind]
    return bytes([kind]) + ((row - predictor) % 256).astype(np.uint8).tobytes()


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def png_with_filters(
    img: np.ndarray, filters: list[int], extra: bytes = b"", level: int = 6
) -> bytes:
    """An 8-bit PNG of ``img`` (H x W x 3 or 4) whose row y is filtered with
    ``filters[y % len(filters)]``; ``extra`` chunks go before the image data."""
    height, width, channels = img.shape
    flat = img.reshape(height, width * channels)
    prior = np.zeros(width * channels, np.uint8)
    rows = []
    for y in range(height):
        rows.append(_filter_row(flat[y], prior, filters[y % len(filters)], channels))
        prior = flat[y]
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2 if channels == 3 else 6, 0, 0, 0)
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", ihdr),
            extra,
            _chunk(b"IDAT", zlib.compress(b"".join(rows), level)),
            _chunk(b"IEND", b""),
        )
    )


def _plan(first: bytes, second: bytes) -> pairdecode.PairPlan | None:
    """The plan of a pair of files, each file's image data inflated once."""
    return pairdecode.plan_pair(pairdecode.filtered(first), pairdecode.filtered(second))


def _rgba(img: np.ndarray) -> np.ndarray:
    if img.shape[2] == 4:
        return img
    return np.dstack([img, np.full(img.shape[:2], 255, np.uint8)])


def _assert_fast_pair(first: bytes, second: bytes, a: np.ndarray, b: np.ndarray) -> None:
    """The pair takes the row path and decodes to exactly what each file decodes to alone."""
    assert _plan(first, second) is not None
    got_a, got_b = decode_png_pair(first, second)
    assert np.array_equal(got_a, decode_png(first)) and np.array_equal(got_a, _rgba(a))
    assert np.array_equal(got_b, decode_png(second)) and np.array_equal(got_b, _rgba(b))


CHANNELS = [3, 4]
FILTER_SETS = [[0], [1], [2], [3], [4], [4, 2, 1, 3, 0], [2, 2, 4, 1]]


@pytest.mark.parametrize("channels", CHANNELS)
@pytest.mark.parametrize("filters", FILTER_SETS)
def test_a_changed_box_decodes_as_the_whole_file(channels: int, filters: list[int]) -> None:
    rng = np.random.default_rng(len(filters) * 10 + channels)
    a = page(70, 60)[..., :channels].copy()
    a[40:50, 5:60] = rng.integers(0, 256, (10, 55, channels), dtype=np.uint8)  # noisy rows
    b = a.copy()
    b[22:31, 12:40] = rng.integers(0, 256, (9, 28, channels), dtype=np.uint8)
    b[45, 7] = 255 - b[45, 7]
    _assert_fast_pair(png_with_filters(a, filters), png_with_filters(b, filters), a, b)


@pytest.mark.parametrize("channels", CHANNELS)
@pytest.mark.parametrize("rows", [slice(0, 1), slice(59, 60), slice(0, 60, 7), slice(10, 60)])
def test_changes_at_the_edges_and_to_the_last_row(channels: int, rows: slice) -> None:
    a = page(40, 60)[..., :channels].copy()
    b = a.copy()
    b[rows, 3:9] = 7
    _assert_fast_pair(png_with_filters(a, [4, 2]), png_with_filters(b, [4, 2]), a, b)


@pytest.mark.parametrize("channels", CHANNELS)
@pytest.mark.parametrize("filters", [[2], [4]])
def test_same_filtered_bytes_over_a_different_row_above(channels: int, filters: list[int]) -> None:
    """A flat black box on white, filtered Up (or Paeth): below its first row, its rows'
    filtered bytes are the same zeros as the white page's, yet they decode to black. The
    decoding must go on below the differing rows until the pixels agree again."""
    a = np.full((80, 30, channels), 255, np.uint8)
    b = a.copy()
    b[10:60, 4:20, :3] = 0
    first, second = png_with_filters(a, filters), png_with_filters(b, filters)
    plan = _plan(first, second)
    assert plan is not None
    if filters == [2]:  # Up: only the box's first row and the row under it differ as bytes
        assert plan.differing == frozenset({10, 60})
    _assert_fast_pair(first, second, a, b)


def test_a_box_down_to_the_last_row_under_same_bytes() -> None:
    a = np.full((50, 20, 3), 255, np.uint8)
    b = a.copy()
    b[5:, 2:9] = 0
    _assert_fast_pair(png_with_filters(a, [2]), png_with_filters(b, [2]), a, b)


def test_the_same_pixels_in_other_bytes_decode_from_the_first() -> None:
    img = page(50, 40)[..., :3].copy()
    first, second = png_with_filters(img, [4, 1], level=1), png_with_filters(img, [4, 1], level=9)
    assert first != second
    _assert_fast_pair(first, second, img, img)


def test_pillow_screenshots_take_the_row_path() -> None:
    a = page(120, 90)
    b = a.copy()
    b[50:53, 30:80, :3] = (200, 10, 10)
    first, second = (_pillow_png(x[..., :3]) for x in (a, b))
    plan = _plan(first, second)
    assert plan is not None and 0 < len(plan.differing) < 90
    _assert_fast_pair(first, second, a[..., :3], b[..., :3])


def _pillow_png(img: np.ndarray) -> bytes:
    return _saved(Image.fromarray(img))


def test_rows_are_decoded_only_where_they_differ(monkeypatch: pytest.MonkeyPatch) -> None:
    a = page(64, 200)[..., :3].copy()
    b = a.copy()
    b[100:104, 10:20] = 0
    spans: list[int] = []
    real = png._decode

    def counting(data: bytes) -> np.ndarray:
        decoded = real(data)
        spans.append(decoded.shape[0])
        return decoded

    monkeypatch.setattr(png, "_decode", counting)
    first, second = png_with_filters(a, [1]), png_with_filters(b, [1])
    got_b = decode_png_pair(first, second)[1]
    assert np.array_equal(got_b, _rgba(b))
    # the first file whole (200 rows), then one span: the row above and rows 100-103; row 104
    # is filtered Sub (it does not read the row above), so it is the first's
    assert sorted(spans) == [5, 200]
    spans.clear()
    first, second = png_with_filters(a, [2]), png_with_filters(b, [2])  # Up
    assert np.array_equal(decode_png_pair(first, second)[1], _rgba(b))
    # Up: rows 100 and 104 differ as bytes, 101-103 are the same zeros over a black row
    # above: row 100 alone, then eight rows from 101 (GROW) until they agree again at 108
    assert sorted(spans) == [2, 1 + pairdecode.GROW, 200]


def test_too_many_differing_rows_decode_the_second_whole() -> None:
    a = np.random.default_rng(3).integers(0, 256, (40, 30, 3), dtype=np.uint8)
    b = 255 - a
    first, second = png_with_filters(a, [2]), png_with_filters(b, [2])
    assert _plan(first, second) is None
    got_b = decode_png_pair(first, second)[1]
    assert np.array_equal(got_b, _rgba(b))


def test_growth_past_the_budget_gives_up() -> None:
    """Same filtered bytes over a box that runs to the bottom: the span grows past half the
    rows, so the second image is decoded whole instead (the same pixels)."""
    a = np.full((40, 10, 3), 255, np.uint8)
    b = a.copy()
    b[1:, :] = 0
    first, second = png_with_filters(a, [2]), png_with_filters(b, [2])
    plan = _plan(first, second)
    assert plan is not None and plan.differing == frozenset({1})
    assert pairdecode.decode_second(plan, decode_png(first), png._decode) is None
    assert np.array_equal(decode_png_pair(first, second)[1], _rgba(b))


def _saved(img: Image.Image, **options: object) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format="PNG", **options)
    return buf.getvalue()


OTHER_PNGS = {
    "tRNS": lambda a: _saved(Image.fromarray(a), transparency=(250, 250, 250)),
    "palette": lambda a: _saved(Image.fromarray(a).convert("P")),
    "grey": lambda a: _saved(Image.fromarray(a[..., 0])),
    "grey16": lambda a: _saved(Image.fromarray(a[..., 0].astype(np.uint16) * 257)),
    "interlaced": lambda a: png_with_filters(a, [0]).replace(
        _chunk(b"IHDR", struct.pack(">IIBBBBB", 40, 30, 8, 2, 0, 0, 0)),
        _chunk(b"IHDR", struct.pack(">IIBBBBB", 40, 30, 8, 2, 0, 0, 1)),
    ),
}


@pytest.mark.parametrize("kind", sorted(OTHER_PNGS))
def test_other_pngs_are_decoded_whole(kind: str) -> None:
    a = page(40, 30)[..., :3].copy()
    first, second = _saved(Image.fromarray(a)), OTHER_PNGS[kind](a)
    assert pairdecode.filtered(second) is None
    assert _plan(first, second) is None
    assert _plan(second, first) is None
    try:
        alone = decode_png(second, "image 2")
    except InputError as exc:  # an interlaced file of filter-None rows is not one Pillow reads
        with pytest.raises(InputError) as paired:
            decode_png_pair(first, second)
        assert str(paired.value) == str(exc)
        return
    assert np.array_equal(decode_png_pair(first, second)[1], alone)
    assert np.array_equal(decode_png_pair(second, first)[0], alone)


def test_pngs_of_other_sizes_are_decoded_whole() -> None:
    a = page(40, 30)[..., :3].copy()
    first, second = png_with_filters(a, [1]), png_with_filters(a[2:], [1])
    assert _plan(first, second) is None
    got_b = decode_png_pair(first, second)[1]
    assert got_b.shape == (28, 40, 4) and np.array_equal(got_b, _rgba(a[2:]))


def test_plain_pngs_only() -> None:
    img = page(20, 10)[..., :3].copy()
    good = png_with_filters(img, [0])
    assert pairdecode.filtered(good) is not None
    assert pairdecode.filtered(b"GIF89a") is None
    split = good
    idat_at = split.index(b"IDAT") - 4
    (length,) = struct.unpack(">I", split[idat_at : idat_at + 4])
    idat = split[idat_at : idat_at + 12 + length]
    body = idat[8:-4]
    parts = _chunk(b"IDAT", body[:10]) + _chunk(b"tEXt", b"k\x00v") + _chunk(b"IDAT", body[10:])
    assert pairdecode.filtered(split.replace(idat, parts)) is None  # data split by a chunk
    two = _chunk(b"IDAT", body[:10]) + _chunk(b"IDAT", body[10:])
    assert pairdecode.filtered(split.replace(idat, two)) is not None  # split, in a row
    trailing = _chunk(b"IDAT", zlib.compress(zlib.decompress(body)) + b"junk")
    assert pairdecode.filtered(split.replace(idat, trailing)) is None
    short = _chunk(b"IDAT", zlib.compress(zlib.decompress(body)[:-1]))
    assert pairdecode.filtered(split.replace(idat, short)) is None
    assert pairdecode.filtered(good[:-12]) is None  # no IEND
    assert pairdecode.filtered(good[: idat_at + 20]) is None  # cut inside the image data


def test_a_bad_second_file_raises_its_own_error() -> None:
    """A row that differs holds an unknown filter type: the span does not decode, and the
    whole decode of the second file raises what decoding it alone raises."""
    a = page(30, 20)[..., :3].copy()
    first = png_with_filters(a, [1])
    rows = bytearray(zlib.decompress(_idat_body(first)))
    rows[5 * (1 + 30 * 3)] = 9  # row 5's filter type
    second = first.replace(_idat_chunk(first), _chunk(b"IDAT", zlib.compress(bytes(rows))))
    assert _plan(first, second) is not None
    with pytest.raises(InputError) as alone:
        decode_png(second, "b.png")
    with pytest.raises(InputError) as paired:
        decode_png_pair(first, second, ("a.png", "b.png"))
    assert str(paired.value) == str(alone.value)


def test_a_bad_header_chunk_in_the_second_is_still_refused() -> None:
    """Pillow checks the CRCs of the chunks before the image data; the row path opens the
    second file with Pillow too, so a damaged one is refused as before."""
    a = page(30, 20)[..., :3].copy()
    first = png_with_filters(a, [1], extra=_chunk(b"tEXt", b"key\x00value"))
    second = first.replace(b"key\x00value", b"kex\x00value")  # CRC no longer matches
    with pytest.raises(InputError) as alone:
        decode_png(second, "b.png")
    with pytest.raises(InputError) as paired:
        decode_png_pair(first, second, ("a.png", "b.png"))
    assert str(paired.value) == str(alone.value)


def _idat_chunk(data: bytes) -> bytes:
    at = data.index(b"IDAT") - 4
    (length,) = struct.unpack(">I", data[at : at + 4])
    return data[at : at + 12 + length]


def _idat_body(data: bytes) -> bytes:
    return _idat_chunk(data)[8:-4]


def test_a_second_header_is_left_to_pillow() -> None:
    """Pillow takes the size of a file's last IHDR: a file with two is decoded whole, as it
    is alone (the row path read the first header and gave the first image's 30 rows)."""
    a = page(40, 30)[..., :3].copy()
    good = png_with_filters(a, [1])
    header = _chunk(b"IHDR", struct.pack(">IIBBBBB", 40, 30, 8, 2, 0, 0, 0))
    shorter = _chunk(b"IHDR", struct.pack(">IIBBBBB", 40, 20, 8, 2, 0, 0, 0))
    twice = good.replace(header, header + shorter)
    assert pairdecode.filtered(twice) is None
    assert _plan(good, twice) is None
    alone = decode_png(twice)
    assert alone.shape == (20, 40, 4)
    assert np.array_equal(decode_png_pair(good, twice)[1], alone)
    late = good.replace(header, _chunk(b"tEXt", b"k\x00v") + header)  # not the first chunk
    assert pairdecode.filtered(late) is None
    assert pairdecode.filtered(good.replace(header, b"")) is None  # no header at all


def test_only_whole_pngs_with_rows_are_read() -> None:
    img = page(20, 10)[..., :3].copy()
    good = png_with_filters(img, [0])
    assert pairdecode.filtered(b"\x88" + good[1:]) is None  # no PNG signature
    assert pairdecode.filtered(good[:-4]) is None  # IEND without its CRC
    empty = _chunk(b"IHDR", struct.pack(">IIBBBBB", 20, 0, 8, 2, 0, 0, 0))
    no_rows = b"".join((good[:8], empty, _chunk(b"IDAT", zlib.compress(b"")), _chunk(b"IEND", b"")))
    assert pairdecode.filtered(no_rows) is None  # 0 rows: Pillow refuses it


def test_the_inflated_size_limit_is_inclusive(monkeypatch: pytest.MonkeyPatch) -> None:
    img = page(20, 10)[..., :3].copy()
    good = png_with_filters(img, [0])
    size = 10 * (1 + 20 * 3)
    monkeypatch.setattr(pairdecode, "MAX_INFLATED", size)
    found = pairdecode.filtered(good)
    assert found is not None and len(found.rows) == size
    monkeypatch.setattr(pairdecode, "MAX_INFLATED", size - 1)
    assert pairdecode.filtered(good) is None


def test_a_stream_longer_than_the_rows_is_not_inflated_whole() -> None:
    """Image data that inflates to far more than its rows (a decompression bomb) is refused
    after one byte past them, never inflated whole."""
    import tracemalloc

    img = page(20, 10)[..., :3].copy()
    good = png_with_filters(img, [0])
    rows = zlib.decompress(_idat_body(good))
    bomb = _chunk(b"IDAT", zlib.compress(rows + bytes(64 * 1024 * 1024), 9))
    data = good.replace(_idat_chunk(good), bomb)
    tracemalloc.start()
    try:
        assert pairdecode.filtered(data) is None
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 * 1024 * 1024


def _rows(*values: int, length: int = 3) -> bytes:
    return b"".join(bytes([v]) * length for v in values)


def test_differing_rows_are_found_in_place_and_once() -> None:
    same = list(range(70))
    first = _rows(*same)
    assert pairdecode.differing_rows(first, first, 3, 70) == []
    assert pairdecode.differing_rows(first, _rows(99, *same[1:]), 3, 70) == [0]  # row 0
    changed = [*same]
    for row in (1, 5, 40, 69):
        changed[row] = 200
    assert pairdecode.differing_rows(first, _rows(*changed), 3, 70) == [1, 5, 40, 69]
    # The second block repeats the first image's first block: still compared where it is.
    repeat = [*same[:32], *same[:32], *same[64:]]
    assert pairdecode.differing_rows(first, _rows(*repeat), 3, 70) == list(range(32, 64))


def test_the_search_stops_only_past_the_limit() -> None:
    same = list(range(70))
    changed = [*same]
    for row in (1, 2, 40):
        changed[row] = 200
    first, second = _rows(*same), _rows(*changed)
    assert pairdecode.differing_rows(first, second, 3, 2) == [1, 2, 40]  # two, then a third
    assert pairdecode.differing_rows(first, second, 3, 1) == [1, 2]  # past it: stop


def _spans(plan: pairdecode.PairPlan, first: bytes) -> tuple[np.ndarray | None, list[int]]:
    """decode_second's result and the height of each PNG it had decoded, each a whole PNG
    (every chunk's CRC, IEND empty and last) with the second's header but for its height."""
    heights: list[int] = []

    def decode(data: bytes) -> np.ndarray:
        check_png_intact(data)
        assert data.endswith(_chunk(b"IEND", b""))
        header = plan.second.ihdr
        assert data[16:29] == header[:4] + data[20:24] + header[8:]
        decoded = png._decode(data)
        heights.append(decoded.shape[0])
        return decoded

    return pairdecode.decode_second(plan, decode_png(first), decode), heights


def _planned(a: np.ndarray, b: np.ndarray, filters: list[int]) -> tuple[pairdecode.PairPlan, bytes]:
    first, second = png_with_filters(a, filters), png_with_filters(b, filters)
    plan = _plan(first, second)
    assert plan is not None
    return plan, first


@pytest.mark.parametrize("channels", CHANNELS)
def test_only_the_differing_rows_are_decoded(channels: int) -> None:
    a = page(40, 60)[..., :channels].copy()
    b = a.copy()
    b[0, 3:9] = 7  # row 0 (filtered Sub: the row below does not read it): no row above
    plan, first = _planned(a, b, [1])
    assert plan.differing == frozenset({0})
    got, heights = _spans(plan, first)
    assert got is not None and np.array_equal(got, _rgba(b)) and heights == [1]
    b = a.copy()
    b[1, 3:9] = 7  # row 1, filtered Up: rows 1 and 2 differ, decoded under row 0
    plan, first = _planned(a, b, [2])
    assert plan.differing == frozenset({1, 2})
    got, heights = _spans(plan, first)
    assert got is not None and np.array_equal(got, _rgba(b)) and heights == [3]


def test_a_changed_row_of_a_noisy_page_is_decoded_alone() -> None:
    """Rows unlike their neighbours: after rows 20 and 21 (the change, and the row that reads
    it, filtered Up), row 21 decodes as the first's row 21, so row 22 is the first's."""
    a = np.random.default_rng(5).integers(0, 256, (40, 12, 3), dtype=np.uint8)
    b = a.copy()
    b[20, 2:5] = 255 - b[20, 2:5]
    plan, first = _planned(a, b, [2])
    assert plan.differing == frozenset({20, 21})
    got, heights = _spans(plan, first)
    assert got is not None and np.array_equal(got, _rgba(b)) and heights == [3]


def test_a_span_grows_doubling_until_the_rows_agree() -> None:
    """A black box (rows 10 to 59) on white, filtered Up: its rows below the first are the
    same zeros as the white page's. Row 10 decodes alone (under row 9), then 8 rows, 16, and
    32 (rows 35 to 66, past the box: the last is white, as in the first image)."""
    a = np.full((200, 10, 3), 255, np.uint8)
    b = a.copy()
    b[10:60] = 0
    plan, first = _planned(a, b, [2])
    assert plan.differing == frozenset({10, 60})
    got, heights = _spans(plan, first)
    assert got is not None and np.array_equal(got, _rgba(b))
    assert heights == [2, 1 + 8, 1 + 16, 1 + 32]


def test_half_of_the_rows_may_be_decoded() -> None:
    a = page(16, 40)[..., :3].copy()
    b = a.copy()
    b[10:30, 2:4] = 9  # 20 of 40 rows, filtered Sub: the budget exactly
    plan, first = _planned(a, b, [1])
    assert len(plan.differing) == 20
    got, heights = _spans(plan, first)
    assert got is not None and np.array_equal(got, _rgba(b)) and heights == [21]
    b[30, 2] = 9  # 21 rows: the second is decoded whole
    assert _plan(first, png_with_filters(b, [1])) is None


class _CountingZlib:
    """zlib-ng as the pair decode sees it, recording every stream it is asked to inflate."""

    def __init__(self, real: object) -> None:
        self.real = real
        self.inflated: list[bytes] = []

    def __getattr__(self, name: str) -> object:
        return getattr(self.real, name)

    def decompress(self, data: bytes, *args: object) -> bytes:
        self.inflated.append(bytes(data))
        return self.real.decompress(data, *args)  # type: ignore[attr-defined,no-any-return]

    def decompressobj(self, *args: object) -> object:
        return _CountingInflater(self, self.real.decompressobj(*args))  # type: ignore[attr-defined]

    def _ZlibDecompressor(self) -> object:  # zlib-ng's name
        return _CountingInflater(self, self.real._ZlibDecompressor())  # type: ignore[attr-defined]


class _CountingInflater:
    def __init__(self, owner: _CountingZlib, real: object) -> None:
        self.owner, self.real = owner, real

    def __getattr__(self, name: str) -> object:
        return getattr(self.real, name)

    def decompress(self, data: bytes, *args: object) -> bytes:
        if data:  # not the calls that go on inflating what it was given
            self.owner.inflated.append(bytes(data))
        return self.real.decompress(data, *args)  # type: ignore[attr-defined,no-any-return]


def _stored_only(data: bytes) -> bool:
    """Whether a PNG's image data is deflate's stored blocks alone (Pillow only copies it)."""
    body = _idat_body(data)
    pos = 2  # past the zlib header
    while True:
        head = body[pos]
        if head & 0b110:  # BTYPE other than 00: compressed
            return False
        (length,) = struct.unpack("<H", body[pos + 1 : pos + 3])
        pos += 5 + length
        if head & 1:  # BFINAL
            return pos + 4 == len(body)


def _count_inflations(monkeypatch: pytest.MonkeyPatch) -> tuple[_CountingZlib, list[bytes]]:
    """zlib-ng's inflations, and every PNG given to Pillow, from now on."""
    counting = _CountingZlib(pairdecode.fast_zlib)
    monkeypatch.setattr(pairdecode, "fast_zlib", counting)
    monkeypatch.setattr(preinflate, "fast_zlib", counting)
    decoded: list[bytes] = []
    real = png._decode

    def recording(data: bytes) -> np.ndarray:
        decoded.append(data)
        return real(data)

    monkeypatch.setattr(png, "_decode", recording)
    return counting, decoded


@pytest.mark.parametrize("pre_inflate", [False, True])
@pytest.mark.parametrize("channels", CHANNELS)
def test_each_file_of_a_sparse_pair_is_inflated_once(
    monkeypatch: pytest.MonkeyPatch, pre_inflate: bool, channels: int
) -> None:
    """zlib-ng inflates each file's image data once; Pillow decodes the first from those rows
    and the second's differing span from its own, each as stored blocks it only copies (so it
    inflates neither file again), whether or not decode_png would pre-inflate a file alone."""
    a = page(120, 90)[..., :channels].copy()
    b = a.copy()
    b[50:53, 30:80, :3] = (200, 10, 10)
    first, second = _pillow_png(a), _pillow_png(b)
    monkeypatch.setattr(png, "PRE_INFLATE", pre_inflate)
    counting, decoded = _count_inflations(monkeypatch)
    got_a, got_b = decode_png_pair(first, second)
    assert sorted(counting.inflated) == sorted([_idat_body(first), _idat_body(second)])
    given = [bytes(data) for data in decoded]  # a StoredPng as the PNG Pillow read from it
    assert all(_stored_only(data) for data in given)
    assert given[0] == preinflate.pre_inflated(first)  # the first whole, from its rows
    assert isinstance(decoded[0], preinflate.StoredPng)  # read a block at a time
    spans = [png._decode(data).shape[0] for data in decoded[1:]]  # then the second's spans
    assert len(spans) > 0 and sum(spans) < 20
    assert np.array_equal(got_a, _rgba(a)) and np.array_equal(got_b, _rgba(b))


@pytest.mark.parametrize("pre_inflate", [False, True])
def test_the_first_is_decoded_from_its_one_inflation_beside_any_second(
    monkeypatch: pytest.MonkeyPatch, pre_inflate: bool
) -> None:
    """A second file that is not a plain PNG (a palette) is decoded whole, as decode_png
    decodes it alone (pre-inflated or not); the first is still decoded from the rows its one
    inflation gave."""
    a = page(40, 30)[..., :3].copy()
    first, second = _pillow_png(a), OTHER_PNGS["palette"](a)
    monkeypatch.setattr(png, "PRE_INFLATE", pre_inflate)
    alone = decode_png(second)
    counting, decoded = _count_inflations(monkeypatch)
    got_a, got_b = decode_png_pair(first, second)
    inflated = [_idat_body(first), _idat_body(second)] if pre_inflate else [_idat_body(first)]
    assert sorted(counting.inflated) == sorted(inflated)
    given = [bytes(data) for data in decoded]  # a StoredPng as the PNG Pillow read from it
    whole = preinflate.pre_inflated(second) if pre_inflate else second
    assert sorted(given) == sorted([preinflate.pre_inflated(first), whole])
    assert np.array_equal(got_a, _rgba(a)) and np.array_equal(got_b, alone)


def _with_bad_filter(data: bytes, row: int, width: int) -> bytes:
    rows = bytearray(zlib.decompress(_idat_body(data)))
    rows[row * (1 + width * 3)] = 9  # no such filter type
    return data.replace(_idat_chunk(data), _chunk(b"IDAT", zlib.compress(bytes(rows))))


@pytest.mark.parametrize("second_bad", [False, True])
def test_a_first_file_bad_in_its_rows_raises_its_own_error(second_bad: bool) -> None:
    """The first file's rows inflate (so its stored copy is what Pillow is given first) but
    one holds an unknown filter type: its error is the one decoding it alone raises, naming
    it, beside a good second file or a bad one."""
    a = page(30, 20)[..., :3].copy()
    good = png_with_filters(a, [1])
    first = _with_bad_filter(good, 5, 30)
    second = _with_bad_filter(good, 7, 30) if second_bad else good
    assert pairdecode.filtered(first) is not None
    with pytest.raises(InputError) as alone:
        decode_png(first, "a.png")
    with pytest.raises(InputError) as paired:
        decode_png_pair(first, second, ("a.png", "b.png"))
    assert str(paired.value) == str(alone.value) and str(alone.value).startswith("a.png: ")


def test_a_first_file_with_chunks_after_its_rows_is_decoded_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Chunks after the image data are left to Pillow (``pre_inflated`` would not take them
    either): the first is decoded from the file, and the second still from the first."""
    a = page(40, 30)[..., :3].copy()
    b = a.copy()
    b[10, 3:9] = 0
    plain = png_with_filters(a, [1])
    iend = plain.index(b"IEND") - 4
    first = plain[:iend] + _chunk(b"tEXt", b"k\x00v") + plain[iend:]
    second = png_with_filters(b, [1])
    assert pairdecode.filtered(first) is not None and preinflate.stored_rows(first, b"") is None
    counting, decoded = _count_inflations(monkeypatch)
    got_a, got_b = decode_png_pair(first, second)
    assert sorted(counting.inflated) == sorted([_idat_body(first), _idat_body(second)])
    assert decoded[0] == first and len(decoded) == 2 and _stored_only(decoded[1])
    assert np.array_equal(got_a, _rgba(a)) and np.array_equal(got_b, _rgba(b))
