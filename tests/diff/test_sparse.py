"""argus.diff.sparse: a pair in which few pixels differ answered without numpy, exactly as the
kernel answers it (count, density, regions, every printed field), and never otherwise."""

from __future__ import annotations

import io
import json
import os
import random
import struct
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from PIL import Image

from argus.diff import _coredecode, sparse
from argus.diff.comparison import compare_pngs
from argus.diff.pngcheck import PNG_SIGNATURE
from argus.diff.result import DiffResult
from argus.diff.sparse import sparse_compare

from ..conftest import RunArgus
from .conftest import FIXTURES

CASES = json.loads((FIXTURES / "cases.json").read_text())["cases"]
IMAGE_CASES = [case for case in CASES if "a" in case]
PIXEL_GROUPS = [case for case in CASES if case.get("pixels")]


def encode(img: np.ndarray, mode: str = "RGBA", level: int = 6) -> bytes:
    buf = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(img[..., : len(mode)]), mode).save(
        buf, format="PNG", compress_level=level
    )
    return buf.getvalue()


def filtered_png(img: np.ndarray, mode: str, filters: list[int]) -> bytes:
    """A PNG whose rows are filtered with the filter types given (cycled), as an encoder
    that picks them row by row would write it: the rows Argus decodes from vary."""
    channels = len(mode)
    rows = img[..., :channels].astype(np.int64)
    height, width = rows.shape[:2]
    flat = rows.reshape(height, width * channels)
    out = bytearray()
    for y in range(height):
        kind = filters[y % len(filters)]
        line = flat[y]
        up = flat[y - 1] if y else np.zeros_like(line)
        left = np.concatenate([np.zeros(channels, np.int64), line[:-channels]])
        corner = np.concatenate([np.zeros(channels, np.int64), up[:-channels]])
        if kind == 0:
            predicted = np.zeros_like(line)
        elif kind == 1:
            predicted = left
        elif kind == 2:
            predicted = up
        elif kind == 3:
            predicted = (left + up) // 2
        else:
            p = left + up - corner
            pa, pb, pc = np.abs(p - left), np.abs(p - up), np.abs(p - corner)
            predicted = np.where((pa <= pb) & (pa <= pc), left, np.where(pb <= pc, up, corner))
        out.append(kind)
        out += ((line - predicted) % 256).astype(np.uint8).tobytes()
    colour = 2 if channels == 3 else 6
    header = struct.pack(">IIBBBBB", width, height, 8, colour, 0, 0, 0)
    idat = _chunk(b"IDAT", zlib.compress(bytes(out)))
    return b"".join((PNG_SIGNATURE, _chunk(b"IHDR", header), idat, _chunk(b"IEND", b"")))


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def kernel(first: bytes, second: bytes, **options: Any) -> DiffResult:
    """What ``argus diff`` answered before this path: same pixels, else the kernel."""
    return compare_pngs(first, second, ("a.png", "b.png"), **options)


def same_answer(fast: DiffResult, full: DiffResult) -> None:
    """Every field the command prints, the timings' names included (not their values)."""
    assert fast == DiffResult(
        full.width,
        full.height,
        full.mismatch,
        full.window,
        full.density,
        full.regions,
        fast.timings_ms,
        same_bytes=full.same_bytes,
    )
    fast_json, full_json = fast.to_json(), full.to_json()
    assert set(fast_json.pop("timings_ms")) == set(full_json.pop("timings_ms"))
    assert fast_json == full_json


# --- random sparse pairs: the same answer as the kernel's -------------------------------------


@st.composite
def sparse_pairs(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, str]:
    """A small page (flat areas, boxes, an anti-aliased slanted edge, translucent pixels
    where RGBA) and the same page with a few edits: pixels, a moved edge, changed alpha."""
    width, height = draw(st.integers(1, 28)), draw(st.integers(1, 28))
    mode = draw(st.sampled_from(["RGB", "RGBA"]))
    colours = st.tuples(*[st.integers(0, 255)] * 3)
    img = np.empty((height, width, 4), dtype=np.uint8)
    img[..., :3] = draw(colours)
    img[..., 3] = 255
    for _ in range(draw(st.integers(0, 3))):  # boxes
        x0, y0 = draw(st.integers(0, width - 1)), draw(st.integers(0, height - 1))
        img[y0 : y0 + draw(st.integers(1, 9)), x0 : x0 + draw(st.integers(1, 9)), :3] = draw(
            colours
        )
    ink, slope, start = draw(colours), draw(st.integers(1, 4)), draw(st.integers(-4, width))
    edge = _edge(img, np.array(ink), slope, start)
    if mode == "RGBA" and draw(st.booleans()):
        img[: draw(st.integers(1, height)), :, 3] = draw(st.integers(0, 255))
    b = img.copy()
    for _ in range(draw(st.integers(1, 12))):
        kind = draw(st.sampled_from(["pixel", "edge", "alpha", "near"]))
        x, y = draw(st.integers(0, width - 1)), draw(st.integers(0, height - 1))
        if kind == "pixel":
            b[y, x, :3] = draw(colours)
        elif kind == "edge":
            _edge(b, np.array(ink), slope, start + draw(st.sampled_from([-1, 1])), rows=edge)
        elif kind == "alpha" and mode == "RGBA":
            b[y, x, 3] = draw(st.integers(0, 255))
        else:  # a shade one step off: under or near the threshold
            b[y, x, :3] = np.clip(b[y, x, :3].astype(int) + draw(st.integers(-12, 12)), 0, 255)
    return img, b, mode


def _edge(img: np.ndarray, ink: np.ndarray, slope: int, start: int, rows: Any = None) -> Any:
    """An anti-aliased edge: left of it ink, right of it the page, the pixel across it a
    blend of the two by how much of it the edge covers."""
    height, width = img.shape[:2]
    for y in range(height) if rows is None else rows:
        edge = start * slope + y  # the edge's x, in 1/slope of a pixel
        x, part = divmod(edge, slope)
        if 0 <= x < width:
            img[y, :x, :3] = ink
            mix = part / slope
            img[y, x, :3] = (ink * (1 - mix) + img[y, x, :3] * mix).astype(np.uint8)
    return range(height)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    pair=sparse_pairs(),
    threshold=st.one_of(st.sampled_from([0.0, 0.05, 0.1, 1.0]), st.floats(0, 1)),
    include_aa=st.booleans(),
    window=st.integers(1, 40),
    filters=st.one_of(st.none(), st.lists(st.integers(0, 4), min_size=1, max_size=6)),
)
def test_random_sparse_pairs_are_answered_as_the_kernel_answers(
    pair: tuple[np.ndarray, np.ndarray, str],
    threshold: float,
    include_aa: bool,
    window: int,
    filters: list[int] | None,
) -> None:
    a, b, mode = pair
    if filters is None:  # Pillow's encoder, its own filter choices
        first, second = encode(a, mode), encode(b, mode, 1)
    else:
        first, second = filtered_png(a, mode, filters), filtered_png(b, mode, filters[::-1])
    assume(first != second)  # the same bytes are answered before this path (same_bytes)
    options = {"threshold": threshold, "include_aa": include_aa, "window": window}
    fast = sparse_compare(first, second, **options)
    assert fast is not None  # a plain pair of at most 28 x 28 changed pixels is always taken
    same_answer(fast, kernel(first, second, **options))


@given(
    sizes=st.tuples(st.integers(1, 12), st.integers(1, 12), st.integers(1, 12), st.integers(1, 12))
)
@settings(max_examples=40, deadline=None)
def test_images_of_different_sizes_are_left_to_the_kernel(
    sizes: tuple[int, int, int, int],
) -> None:
    w1, h1, w2, h2 = sizes
    first = encode(np.full((h1, w1, 4), 200, np.uint8))
    second = encode(np.full((h2, w2, 4), 100, np.uint8))
    if (w1, h1) != (w2, h2):  # the kernel's path says the sizes differ, in one line
        assert sparse_compare(first, second, threshold=0.1, include_aa=False, window=16) is None


def test_a_page_of_anti_aliased_text_is_answered_as_the_kernel_answers() -> None:
    from bench.images import sparse_pair

    pages = sparse_pair(320, 200)
    first, second = encode(pages.a, "RGB"), encode(pages.b, "RGB")
    counts = []
    for include_aa in (False, True):
        fast = sparse_compare(first, second, threshold=0.1, include_aa=include_aa, window=16)
        assert fast is not None
        same_answer(fast, kernel(first, second, threshold=0.1, include_aa=include_aa))
        counts.append(fast.mismatch)
    assert 0 < counts[0] < counts[1]  # anti-aliased pixels were found and left out


# --- the per-pixel arithmetic: the kernel's to the bit, pixelmatch's decisions -----------------

rgba = st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255)).flatmap(
    lambda rgb: st.tuples(st.just(rgb), st.sampled_from([255, 255, 0, 1, 128, 254]))
)


@settings(max_examples=300, deadline=None)
@given(
    pixels=st.lists(st.tuples(rgba, rgba, st.integers(0, 10**6)), min_size=1, max_size=20),
    checkerboard=st.booleans(),
)
def test_deltas_are_the_kernels_bit_for_bit(
    pixels: list[tuple[Any, Any, int]], checkerboard: bool
) -> None:
    from argus.diff import _pixelwise, yiq

    def value(pixel: Any) -> int:
        (r, g, b), alpha = pixel
        return r | g << 8 | b << 16 | alpha << 24

    p1 = np.array([value(p) for p, _, _ in pixels], dtype=np.uint32)
    p2 = np.array([value(q) for _, q, _ in pixels], dtype=np.uint32)
    offsets = np.array([4 * pos for _, _, pos in pixels], dtype=np.intp)
    deltas = yiq.color_delta(p1, p2, offsets, checkerboard)
    luma = yiq.brightness(*yiq.channel_differences(p1, p2, offsets, checkerboard))
    for i, (a, b, k) in enumerate(zip(p1.tolist(), p2.tolist(), offsets.tolist(), strict=True)):
        assert _pixelwise.color_delta(a, b, k, checkerboard) == deltas[i]
        assert _pixelwise.brightness_delta(a, b, k, checkerboard) == luma[i]


@settings(max_examples=200, deadline=None)
@given(
    size=st.tuples(st.integers(1, 6), st.integers(1, 6)),
    palette=st.lists(rgba, min_size=2, max_size=4),
    data=st.data(),
)
def test_antialiasing_is_decided_as_pixelmatch_decides_it(
    size: tuple[int, int], palette: list[Any], data: st.DataObject
) -> None:
    """On images of a few colours, where ties between neighbours are common: the darkest
    and the brightest neighbour are the first in pixelmatch's visiting order."""
    from argus.diff._pixelwise import _Image

    from .reference import antialiased

    width, height = size
    colours = np.array([[*rgb, alpha] for rgb, alpha in palette], dtype=np.uint8)
    shape = st.lists(
        st.integers(0, len(palette) - 1), min_size=width * height, max_size=width * height
    )
    a = colours[data.draw(shape)].reshape(height, width, 4)
    b = colours[data.draw(shape)].reshape(height, width, 4)
    rows_a, rows_b = ([row.tolist() for row in img.view(np.uint32)[..., 0]] for img in (a, b))
    for checkerboard in (True, False):
        own = _Image(rows_a, width, height, checkerboard)
        other = _Image(rows_b, width, height, checkerboard)
        for y in range(height):
            for x in range(width):
                expected = antialiased(a, b, x, y, checkerboard)
                assert own.antialiased(other, x, y) == expected, (x, y)


def test_the_checkerboard_is_the_kernels() -> None:
    from argus.diff import _pixelwise, yiq

    offsets = np.arange(0, 4 * 3840 * 2160, 4 * 97, dtype=np.intp)  # every 97th pixel of 4K
    expected = np.stack(yiq.background(offsets, True), axis=1).tolist()
    assert [list(_pixelwise.background(k, True)) for k in offsets.tolist()] == expected
    assert _pixelwise.background(4, False) == (255.0, 255.0, 255.0)


@pytest.mark.parametrize("band", ["above", "below"])
@pytest.mark.parametrize("filters", [[0], [1], [2, 0, 4]])
def test_the_rows_two_away_from_a_change_are_decoded(band: str, filters: list[int]) -> None:
    """A changed pixel whose darkest neighbour is in a flat band: the flat-area test reads
    the band's pixels two rows from the change, in both images."""
    from argus.diff._pairpixels import FOLLOW, PairPixels
    from argus.diff._pairrows import plain_pair

    a = np.full((16, 12, 4), 255, dtype=np.uint8)
    rows = slice(6, 10) if band == "below" else slice(1, 5)
    a[rows, :, :3] = 0
    b = a.copy()
    b[5, 5, :3] = 128  # between the band and the white page
    first, second = filtered_png(a, "RGB", filters), filtered_png(b, "RGB", filters)
    for include_aa in (False, True):
        fast = sparse_compare(first, second, threshold=0.1, include_aa=include_aa, window=16)
        assert fast is not None
        same_answer(fast, kernel(first, second, threshold=0.1, include_aa=include_aa))
        assert fast.mismatch == int(include_aa)  # anti-aliasing, found from the band's rows
    pair = plain_pair(first, second)
    assert pair is not None and 5 in pair.second
    pixels = PairPixels(_coredecode.pillow_core(), pair, sparse.MAX_CHANGED)
    assert pixels.decode()
    if filters != [2, 0, 4]:  # rows that do not read the row above: from two above the change
        assert sorted(pair.second) == [5]
        assert (pixels.top, pixels.decoded) == (5 - FOLLOW, 5 + 1 + FOLLOW)
    else:  # from the nearest row above them that does not (row 1, filter None)
        assert pixels.top == 1


# --- pixelmatch's own cases --------------------------------------------------------------------

# The cases this path takes: plain RGB or RGBA pairs with at most MAX_CHANGED changed pixels
# (2a and 7a are palette images; 1a/1b, 4a/4b and 8a/5b change more pixels).
TAKEN = {("3a.png", "3b.png"), ("5a.png", "5b.png")}


def test_pixelmatch_cases_are_answered_as_pixelmatch_answers_them() -> None:
    taken = set()
    for case in IMAGE_CASES:
        first, second = ((FIXTURES / case[key]).read_bytes() for key in ("a", "b"))
        if first == second:
            continue  # the same file twice: answered before this path (same_bytes)
        options = {
            "threshold": case["options"].get("threshold", 0.1),
            "include_aa": case["options"].get("includeAA", False),
            "window": 16,
        }
        fast = sparse_compare(first, second, **options)
        if fast is None:
            continue
        taken.add((case["a"], case["b"]))
        assert fast.mismatch == case["expected_mismatch"], case
        same_answer(fast, kernel(first, second, **options))
    assert taken == TAKEN


@pytest.mark.parametrize("group", PIXEL_GROUPS, ids=lambda group: group["about"][:20])
def test_the_one_pixel_cases_are_answered_on_the_checkerboard(group: dict[str, Any]) -> None:
    first = encode(np.array(group["a_rgba"], np.uint8).reshape(1, 1, 4))
    second = encode(np.array(group["b_rgba"], np.uint8).reshape(1, 1, 4))
    fast = sparse_compare(first, second, threshold=0.1, include_aa=False, window=16)
    assert fast is not None
    (expected,) = (c["expected_mismatch"] for c in group["cases"] if not c["options"])
    assert fast.mismatch == expected
    same_answer(fast, kernel(first, second))


def test_the_one_pixel_cases_without_the_checkerboard() -> None:
    from argus.diff._pixelwise import counted

    for group in PIXEL_GROUPS:
        a, b = (int.from_bytes(bytes(group[key]), "little") for key in ("a_rgba", "b_rgba"))
        for case in group["cases"]:
            checkerboard = case["options"].get("checkerboard", True)
            found = counted(
                [[a]],
                [[b]],
                (1, 1),
                [(0, 0)],
                threshold=0.1,
                include_aa=False,
                checkerboard=checkerboard,
            )
            assert len(found) == case["expected_mismatch"], case


# --- when the kernel runs instead ---------------------------------------------------------------


def conformance(name_a: str, name_b: str) -> tuple[bytes, bytes]:
    return (FIXTURES / name_a).read_bytes(), (FIXTURES / name_b).read_bytes()


def changed_count(first: bytes, second: bytes) -> int:
    a, b = (np.asarray(Image.open(io.BytesIO(data)).convert("RGBA")) for data in (first, second))
    return int(np.count_nonzero((a != b).any(axis=2)))


def test_more_changed_pixels_than_the_limit_are_left_to_the_kernel(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first, second = conformance("3a.png", "3b.png")
    changed = changed_count(first, second)
    monkeypatch.setattr(sparse, "MAX_CHANGED", changed)
    assert sparse_compare(first, second, threshold=0.05, include_aa=False, window=16)
    monkeypatch.setattr(sparse, "MAX_CHANGED", changed - 1)
    assert sparse_compare(first, second, threshold=0.05, include_aa=False, window=16) is None
    many = conformance("4a.png", "4b.png")  # 69,117 changed pixels
    assert sparse_compare(*many, threshold=0.05, include_aa=False, window=16) is None


def test_without_pillow_or_when_it_refuses_a_span_the_kernel_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from argus.diff import _pairpixels

    first, second = conformance("3a.png", "3b.png")
    options: dict[str, Any] = {"threshold": 0.05, "include_aa": False, "window": 16}
    assert sparse_compare(first, second, **options) is not None
    with monkeypatch.context() as patch:
        patch.setattr(_coredecode, "pillow_core", lambda: None)
        assert sparse_compare(first, second, **options) is None
    monkeypatch.setattr(_pairpixels, "decode_rows", lambda *args: None)
    assert sparse_compare(first, second, **options) is None


def test_a_pair_that_differs_everywhere_stops_within_its_first_rows() -> None:
    from argus.diff._pairpixels import CHUNK_ROWS, PairPixels
    from argus.diff._pairrows import plain_pair

    noise = np.random.default_rng(5).integers(0, 256, (300, 200, 4), dtype=np.uint8)
    first, second = encode(noise), encode(255 - noise)
    pair = plain_pair(first, second)
    assert pair is not None and len(pair.second) == 300  # every row, one span
    pixels = PairPixels(_coredecode.pillow_core(), pair, sparse.MAX_CHANGED)
    assert not pixels.decode()
    assert len(pixels.second) <= CHUNK_ROWS and pixels.decoded < 300  # not the whole images
    assert sparse_compare(first, second, threshold=0.1, include_aa=False, window=16) is None


def test_the_decoder_refusing_rows_is_none() -> None:
    core = _coredecode.pillow_core()
    row = b"\x00" + bytes(6)  # filter None, two RGB pixels
    assert _coredecode.decode_rows(core, 3, 2, row, None) == bytes([0, 0, 0, 255] * 2)
    assert _coredecode.decode_rows(core, 3, 2, b"\x05" + bytes(6), None) is None  # no such filter
    assert _coredecode.decode_rows(core, 3, 2, row[:-1], None) is None  # a row cut short


# --- the command ---------------------------------------------------------------------------------


def test_the_command_prints_what_the_kernel_path_prints(
    tmp_path: Path, run_argus: RunArgus, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = tmp_path / "a.png", tmp_path / "b.png"
    first, second = conformance("3a.png", "3b.png")
    a.write_bytes(first)
    b.write_bytes(second)
    answers = []
    for fast in (True, False):
        if not fast:
            monkeypatch.setattr(sparse, "sparse_compare", lambda *args, **kwargs: None)
        text = run_argus("diff", str(a), str(b), "--threshold", "0.05")
        report = run_argus("diff", str(a), str(b), "--json", "--window", "4", "--include-aa")
        parsed = json.loads(report.stdout)
        timings = parsed.pop("timings_ms")
        assert set(timings) == {"read", "decode", "diff", "analysis"}
        answers.append((text.returncode, text.stdout, text.stderr, report.returncode, parsed))
    assert answers[0] == answers[1]
    assert answers[0][:2] == (1, "212 pixels differ (0.1617% of 512x256)\n")


_LOADED = """
import sys
from argus.cli import main
code = main(sys.argv[1:])
print(code, *(name in sys.modules for name in ("numpy", "PIL.Image", "PIL._imaging")))
"""


def loaded(*args: str) -> str:
    # Without the person's passphrase the tests hold (argus.cli then loads argus.person).
    env = {k: v for k, v in os.environ.items() if k != "ARGUS_PERSON_KEY"}
    proc = subprocess.run(
        [sys.executable, "-c", _LOADED, "diff", *args],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    return proc.stdout.splitlines()[-1]


def test_a_sparse_pair_loads_neither_numpy_nor_pillows_image_module() -> None:
    a, b = (str(FIXTURES / name) for name in ("3a.png", "3b.png"))
    assert loaded(a, b) == "1 False False True"  # Pillow's decoder alone
    dense = (str(FIXTURES / name) for name in ("4a.png", "4b.png"))
    assert loaded(*dense).startswith("1 True True")  # too many changed pixels: the kernel


# --- what this path takes ------------------------------------------------------------------------


def _rows(width: int, height: int, channels: int, value: int = 0, first: int = 0) -> bytes:
    """Filtered rows (filter None) of one sample value, the first row's filter as given."""
    row = bytes([value]) * (width * channels)
    return b"".join(bytes([first if y == 0 else 0]) + row for y in range(height))


def _plain_answer(first: bytes, second: bytes) -> bool:
    from argus.diff._pairrows import plain_pair

    return plain_pair(first, second) is not None


@pytest.mark.parametrize(
    ("ihdr", "before", "taken"),
    [
        ((3, 2, 8, 2, 0), (), True),  # RGB
        ((3, 2, 8, 6, 0), (), True),  # RGBA
        ((3, 2, 8, 6, 0), ((b"gAMA", b"\x00\x00\xb1\x8f"), (b"sRGB", b"\x00")), True),
        ((3, 2, 16, 2, 0), (), False),  # 16-bit
        ((3, 2, 8, 0, 0), (), False),  # grey
        ((3, 2, 8, 4, 0), (), False),  # grey and alpha
        ((3, 2, 8, 3, 0), ((b"PLTE", bytes(3)),), False),  # palette
        ((3, 2, 8, 2, 1), (), False),  # interlaced
        ((3, 2, 8, 2, 0), ((b"tRNS", bytes(6)),), False),  # a transparent colour
        ((3, 2, 8, 2, 0), ((b"PLTE", bytes(3)),), False),  # a suggested palette
        ((3, 2, 8, 6, 0), ((b"iCCP", b"x\x00\x00"),), False),  # a chunk Pillow may refuse
    ],
)
def test_only_plain_rgb_and_rgba_pngs_are_taken(
    ihdr: tuple[int, int, int, int, int], before: tuple[tuple[bytes, bytes], ...], taken: bool
) -> None:
    from .test_samepixels import filtered_rows, png

    width, height, depth, colour, interlace = ihdr
    data = filtered_rows(random.Random(1), width, height, colour, depth, interlace)
    first = png(ihdr, data, before=before)
    second = png(ihdr, data[:-1] + bytes([data[-1] ^ 1]), before=before)
    assert _plain_answer(first, second) is taken


def test_a_second_file_the_first_would_not_match_is_left_to_the_kernel() -> None:
    from .test_samepixels import png

    ihdr = (4, 40, 8, 2, 0)
    first = png(ihdr, _rows(4, 40, 3))
    assert _plain_answer(first, png(ihdr, _rows(4, 40, 3, value=9)))
    assert not _plain_answer(first, png((4, 40, 8, 6, 0), _rows(4, 40, 4)))  # another header
    assert not _plain_answer(first, png((5, 40, 8, 2, 0), _rows(5, 40, 3)))  # another size
    assert not _plain_answer(first, png(ihdr, _rows(4, 40, 3, first=5)))  # no filter type 5
    assert not _plain_answer(first, png(ihdr, _rows(4, 40, 3)[:-13]))  # rows cut short
    assert not _plain_answer(first, png(ihdr, _rows(4, 40, 3) + b"\x00"))  # data past them
    damaged = bytearray(png(ihdr, _rows(4, 40, 3, value=9)))
    damaged[-20] ^= 1  # in the image data: its CRC no longer matches
    assert not _plain_answer(first, bytes(damaged))
    assert not _plain_answer(png(ihdr, _rows(4, 40, 3, first=5)), first)  # in the first file


def test_the_second_files_rows_are_kept_only_where_they_differ() -> None:
    from argus.diff._pairrows import PIECE_ROWS, plain_pair

    from .test_samepixels import png

    width, height = 5, 3 * PIECE_ROWS + 2
    rows = bytearray(_rows(width, height, 4))
    changed = [0, PIECE_ROWS - 1, PIECE_ROWS, height - 1]
    for row in changed:
        rows[row * (1 + 4 * width) + 3] = 7
    pair = plain_pair(
        png((width, height, 8, 6, 0), _rows(width, height, 4)),
        png((width, height, 8, 6, 0), bytes(rows), level=1),
    )
    assert pair is not None and sorted(pair.second) == changed
    assert pair.second_rows(0, height) == bytes(rows)
