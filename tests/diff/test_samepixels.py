"""same_pixels: two PNGs answered as identical from their inflated image data, without numpy or
Pillow, only when decoding both (the kernel's path) answers the same, and never otherwise."""

from __future__ import annotations

import json
import os
import random
import struct
import subprocess
import sys
import zlib
from pathlib import Path
from types import SimpleNamespace

import pytest

from argus.diff import samepixels, sparse
from argus.diff.comparison import compare_pngs
from argus.diff.pngcheck import PNG_SIGNATURE
from argus.diff.result import DiffResult
from argus.diff.samepixels import same_pixels
from argus.errors import InputError

from ..conftest import RunArgus
from .conftest import FIXTURES

COMBOS = [(0, d) for d in (1, 2, 4, 8, 16)] + [(2, 8), (2, 16), (4, 8), (4, 16), (6, 8), (6, 16)]
COMBOS += [(3, d) for d in (1, 2, 4, 8)]
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
PASSES = ((0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2))
PASSES += ((0, 1, 1, 2),)


def chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def filtered_rows(
    rng: random.Random, width: int, height: int, colour: int, depth: int, interlace: int
) -> bytes:
    """Random image data as a PNG holds it: each row a filter type (0 to 4) and its bytes."""
    passes = PASSES if interlace else ((0, 0, 1, 1),)
    out = bytearray()
    for x0, y0, dx, dy in passes:
        columns, rows = len(range(x0, width, dx)), len(range(y0, height, dy))
        if not columns:
            continue
        length = (columns * CHANNELS[colour] * depth + 7) // 8
        for _ in range(rows):
            out.append(rng.randrange(5))
            out += rng.randbytes(length)
    return bytes(out)


def png(
    ihdr: tuple[int, int, int, int, int],
    data: bytes,
    *,
    before: tuple[tuple[bytes, bytes], ...] = (),
    after: tuple[tuple[bytes, bytes], ...] = (),
    level: int = 6,
    pieces: int = 1,
) -> bytes:
    """A PNG of ``data`` (already filtered) compressed at ``level``, its stream split into
    ``pieces`` IDAT chunks, with the chunks ``before`` and ``after`` the image data."""
    width, height, depth, colour, interlace = ihdr
    stream = zlib.compress(data, level)
    step = -(-len(stream) // pieces)
    idat = [chunk(b"IDAT", stream[i : i + step]) for i in range(0, len(stream), step)]
    header = struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, interlace)
    return b"".join(
        (
            PNG_SIGNATURE,
            chunk(b"IHDR", header),
            *(chunk(k, b) for k, b in before),
            *idat,
            *(chunk(k, b) for k, b in after),
            chunk(b"IEND", b""),
        )
    )


def colour_chunks(rng: random.Random, colour: int, depth: int) -> tuple[tuple[bytes, bytes], ...]:
    """A palette (fewer entries than the indices may reach) and tRNS where the type has one."""
    if colour == 3:
        entries = rng.randrange(1, 1 << depth) if depth < 8 else rng.randrange(1, 200)
        return ((b"PLTE", rng.randbytes(3 * entries)), (b"tRNS", rng.randbytes(entries // 2)))
    if colour in (0, 2):
        sample = rng.randbytes(2 * CHANNELS[colour])
        return ((b"tRNS", sample),)
    return ()


def kernel(first: bytes, second: bytes) -> DiffResult:
    return compare_pngs(first, second, ("a.png", "b.png"), threshold=0.0)


def same_answer(fast: DiffResult, full: DiffResult) -> None:
    assert (fast.width, fast.height, fast.mismatch, fast.density, fast.regions) == (
        full.width,
        full.height,
        full.mismatch,
        full.density,
        full.regions,
    )
    assert (fast.window, fast.same_bytes) == (full.window, full.same_bytes)


@pytest.mark.parametrize("interlace", [0, 1])
@pytest.mark.parametrize(("colour", "depth"), COMBOS)
def test_recompressed_pairs_are_answered_as_the_kernel_answers(
    colour: int, depth: int, interlace: int
) -> None:
    rng = random.Random(colour * 100 + depth * 2 + interlace)
    for width, height in ((1, 1), (3, 2), (9, 11), (17, 5)):
        ihdr = (width, height, depth, colour, interlace)
        data = filtered_rows(rng, width, height, colour, depth, interlace)
        extra = colour_chunks(rng, colour, depth)
        first = png(ihdr, data, before=((b"gAMA", b"\x00\x00\xb1\x8f"), *extra))
        second = png(
            ihdr,
            data,
            before=(*extra, (b"sRGB", b"\x00"), (b"pHYs", bytes(9))),
            after=((b"tEXt", b"Comment\x00other encoder"), (b"tIME", bytes(7))),
            level=1,
            pieces=3,
        )
        assert first != second
        fast = same_pixels(first, second, 16)
        assert fast is not None, (ihdr, extra)
        same_answer(fast, kernel(first, second))


@pytest.mark.parametrize("interlace", [0, 1])
@pytest.mark.parametrize(("colour", "depth"), COMBOS)
def test_a_changed_byte_of_image_data_is_left_to_the_kernel(
    colour: int, depth: int, interlace: int
) -> None:
    rng = random.Random(colour * 7 + depth + interlace)
    ihdr = (9, 7, depth, colour, interlace)
    data = bytearray(filtered_rows(rng, 9, 7, colour, depth, interlace))
    extra = colour_chunks(rng, colour, depth)
    first = png(ihdr, bytes(data), before=extra)
    data[-1] ^= 0x01  # the last pixel's last byte: the rows differ only at the very end
    assert same_pixels(first, png(ihdr, bytes(data), before=extra, level=1), 16) is None


def variants(rng: random.Random) -> dict[str, tuple[bytes, bytes]]:
    """Pairs of files whose image data inflate the same but which decoding may refuse or
    read differently: none may be answered without decoding."""
    ihdr = (6, 4, 8, 2, 0)
    data = filtered_rows(rng, 6, 4, 2, 8, 0)
    good = png(ihdr, data)
    bad_filter = bytearray(data)
    bad_filter[0] = 5
    bad = png(ihdr, bytes(bad_filter))
    stream = zlib.compress(data)
    header = struct.pack(">IIBBBBB", 6, 4, 8, 2, 0, 0, 0)

    def raw(*chunks: bytes) -> bytes:
        return PNG_SIGNATURE + chunk(b"IHDR", header) + b"".join(chunks) + chunk(b"IEND", b"")

    indices = filtered_rows(rng, 6, 4, 3, 8, 0)
    crc_broken = bytearray(png(ihdr, data, before=((b"gAMA", b"\x00\x00\xb1\x8f"),)))
    crc_broken[8 + 25 + 8] ^= 1  # a byte of gAMA's value
    return {
        "unknown filter type": (bad, png(ihdr, bytes(bad_filter), level=1)),
        "rows missing in one": (good, png(ihdr, data[:-3])),
        "rows missing in both": (png(ihdr, data[:-3]), png(ihdr, data[:-3], level=1)),
        "tRNS after the image data": (good, png(ihdr, data, after=((b"tRNS", bytes(6)),))),
        "tRNS only in one": (good, png(ihdr, data, before=((b"tRNS", bytes(6)),))),
        "different tRNS": (
            png(ihdr, data, before=((b"tRNS", bytes(6)),)),
            png(ihdr, data, before=((b"tRNS", b"\x00\x01" * 3),)),
        ),
        "short tRNS": (good, png(ihdr, data, before=((b"tRNS", bytes(4)),))),
        "iCCP": (good, png(ihdr, data, before=((b"iCCP", b"p\x00\x00" + zlib.compress(b"x")),))),
        "short gAMA": (good, png(ihdr, data, before=((b"gAMA", b"\x00"),))),
        "broken CRC": (good, bytes(crc_broken)),
        "unknown chunk": (good, png(ihdr, data, before=((b"abCd", b""),))),
        "animation": (good, png(ihdr, data, before=((b"acTL", bytes(8)),))),
        "data split by a chunk": (
            good,
            raw(
                chunk(b"IDAT", stream[:10]),
                chunk(b"tEXt", b"a\x00b"),
                chunk(b"IDAT", stream[10:]),
            ),
        ),
        "bytes after the stream": (good, raw(chunk(b"IDAT", stream + b"\x00"))),
        "data after the rows": (good, raw(chunk(b"IDAT", zlib.compress(data + b"\x00")))),
        "stream cut short": (good, raw(chunk(b"IDAT", stream[:-4]))),
        "no IEND": (good, png(ihdr, data)[:-12]),
        "palette image without a palette": (
            png((6, 4, 8, 3, 0), indices),
            png((6, 4, 8, 3, 0), indices, level=1),
        ),
    }


def test_what_decoding_could_refuse_or_read_otherwise_is_left_to_the_kernel() -> None:
    for name, (first, second) in variants(random.Random(5)).items():
        assert same_pixels(first, second, 16) is None, name
        assert same_pixels(second, first, 16) is None, name


@pytest.mark.parametrize("name", ["unknown filter type", "rows missing in both"])
def test_what_decoding_refuses_is_an_error_of_the_kernel_path(name: str) -> None:
    first, second = variants(random.Random(5))[name]
    with pytest.raises(InputError, match=r"a\.png"):
        kernel(first, second)


def recompressed(data: bytes) -> bytes:
    """The same PNG with its image data compressed anew (level 1, in chunks of 100 bytes)."""
    pos, kept, idat = 8, [], []
    while pos < len(data):
        (length,) = struct.unpack_from(">I", data, pos)
        kind = data[pos + 4 : pos + 8]
        if kind == b"IDAT":
            idat.append(data[pos + 8 : pos + 8 + length])
        else:
            if idat:  # the run of image data is over: write it anew
                stream = zlib.compress(zlib.decompress(b"".join(idat)), 1)
                kept += [chunk(b"IDAT", stream[i : i + 100]) for i in range(0, len(stream), 100)]
                idat = []
            kept.append(data[pos : pos + 12 + length])
        pos += 12 + length
    return PNG_SIGNATURE + b"".join(kept)


def test_the_conformance_images_recompressed_are_answered_as_the_kernel_answers() -> None:
    cases = [c for c in json.loads((FIXTURES / "cases.json").read_text())["cases"] if "a" in c]
    names = sorted({case[key] for case in cases for key in ("a", "b")})
    for name in names:
        data = (FIXTURES / name).read_bytes()
        again = recompressed(data)
        assert again != data
        fast = same_pixels(data, again, 16)
        assert fast is not None, name
        same_answer(fast, kernel(data, again))
    for case in cases:
        first, second = ((FIXTURES / case[key]).read_bytes() for key in ("a", "b"))
        fast = same_pixels(first, second, 16)
        assert fast is None or fast.mismatch == kernel(first, second).mismatch == 0


def pixel_twins(tmp_path: Path) -> tuple[Path, Path]:
    """1a.png and the same image with its data compressed anew: the same pixels, other bytes."""
    a, b = tmp_path / "a.png", tmp_path / "b.png"
    data = (FIXTURES / "1a.png").read_bytes()
    a.write_bytes(data)
    b.write_bytes(recompressed(data))
    return a, b


def test_the_command_answers_as_the_kernel_path_does(
    tmp_path: Path, run_argus: RunArgus, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = pixel_twins(tmp_path)
    answers = []
    for fast in (True, False):
        if not fast:  # neither this module nor argus.diff.sparse (which answers it first)
            monkeypatch.setattr(samepixels, "same_pixels", lambda *args: None)
            monkeypatch.setattr(sparse, "sparse_compare", lambda *args, **kwargs: None)
        text = run_argus("diff", str(a), str(b))
        report = run_argus("diff", str(a), str(b), "--json", "--window", "4")
        parsed = json.loads(report.stdout)
        timings = set(parsed.pop("timings_ms"))
        assert {"decode", "diff", "read"} <= timings
        assert ("analysis" in timings) is not fast  # the kernel ran only without the fast path
        answers.append((text.returncode, text.stdout, text.stderr, report.returncode, parsed))
        assert not list(tmp_path.glob("*diff*"))  # no diff image without --out
    assert answers[0] == answers[1]
    assert answers[0][:2] == (0, "0 pixels differ (0.0000% of 512x256)\n")


def test_with_out_the_diff_image_is_still_drawn(tmp_path: Path, run_argus: RunArgus) -> None:
    a, b = pixel_twins(tmp_path)
    proc = run_argus("diff", str(a), str(b), "--out", str(tmp_path / "d.png"), "--json")
    assert proc.returncode == 0 and "decode" in json.loads(proc.stdout)["timings_ms"]
    assert (tmp_path / "d.png").stat().st_size > 0


_LOADED = """
import sys
from argus.cli import main
code = main(sys.argv[1:])
print(code, *(name in sys.modules for name in ("numpy", "PIL", "inspect", "tempfile")))
"""


def test_the_command_loads_neither_numpy_nor_pillow_for_pixel_twins(tmp_path: Path) -> None:
    a, b = pixel_twins(tmp_path)
    changed = tmp_path / "c.png"
    changed.write_bytes((FIXTURES / "1b.png").read_bytes())
    # Without the person's passphrase the tests hold (argus.cli then loads argus.person).
    env = {k: v for k, v in os.environ.items() if k != "ARGUS_PERSON_KEY"}
    got = []
    for second in (b, changed):
        proc = subprocess.run(
            [sys.executable, "-c", _LOADED, "diff", str(a), str(second)],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        got.append(proc.stdout.splitlines()[-1])
    # Nor dataclasses' inspect or argus.io's writers: a tenth of the process each.
    assert got[0] == "0 False False False False"
    assert got[1].startswith("1 True True")  # the kernel still loads for a real diff


# --- each rule of the module at its edge: the pair is answered only when every rule holds ----


def pair(
    ihdr: tuple[int, int, int, int, int],
    before: tuple[tuple[bytes, bytes], ...] = (),
    after: tuple[tuple[bytes, bytes], ...] = (),
) -> tuple[bytes, bytes]:
    """The same rows (all 0) in two encodings, with the same extra chunks in both."""
    width, height, depth, colour, _ = ihdr
    rows = bytes(height * (1 + (width * CHANNELS.get(colour, 1) * depth + 7) // 8))
    first = png(ihdr, rows, before=before, after=after)
    return first, png(ihdr, rows, before=before, after=after, level=1, pieces=2)


def answered(first: bytes, second: bytes) -> bool:
    fast = same_pixels(first, second, 16)
    if fast is not None:
        same_answer(fast, kernel(first, second))
    return fast is not None


PALETTE = (3, 4, 8, 3, 0)  # 3 x 4, 8-bit indices (all 0)


@pytest.mark.parametrize(
    ("chunks", "taken"),
    [
        (((b"PLTE", bytes(768)),), True),  # 256 entries
        (((b"PLTE", bytes(771)),), False),  # 257
        (((b"PLTE", bytes(4)),), False),  # not whole entries
        (((b"PLTE", b""),), False),
        (((b"PLTE", bytes(12)), (b"tRNS", bytes(4))), True),  # a byte for every entry
        (((b"PLTE", bytes(12)), (b"tRNS", bytes(5))), False),  # more than the entries
        (((b"PLTE", bytes(12)), (b"PLTE", bytes(12))), False),  # two palettes
        (((b"PLTE", bytes(12)), (b"tRNS", b"\x00"), (b"tRNS", b"\x00")), False),
    ],
)
def test_a_palette_image_is_answered_only_with_one_whole_palette_and_tRNS(
    chunks: tuple[tuple[bytes, bytes], ...], taken: bool
) -> None:
    assert answered(*pair(PALETTE, chunks)) is taken


@pytest.mark.parametrize(("colour", "taken"), [(0, False), (4, False), (2, True), (6, True)])
def test_a_suggested_palette_is_taken_in_truecolour_images_only(colour: int, taken: bool) -> None:
    assert answered(*pair((3, 4, 8, colour, 0), ((b"PLTE", bytes(12)),))) is taken


def test_palette_images_with_other_palettes_are_left_to_the_kernel() -> None:
    first = png(PALETTE, bytes(4 * 4), before=((b"PLTE", bytes(12)),))
    second = png(PALETTE, bytes(4 * 4), before=((b"PLTE", b"\xff" * 12),), level=1)
    assert same_pixels(first, second, 16) is None
    assert kernel(first, second).mismatch == 12


@pytest.mark.parametrize(
    "chunks",
    [
        ((b"tRNS", bytes(4)),),  # grey and truecolour: 2 and 6 bytes
        ((b"tRNS", bytes(6)), (b"tRNS", bytes(6))),
    ],
)
def test_a_bad_tRNS_in_both_files_is_left_to_the_kernel(
    chunks: tuple[tuple[bytes, bytes], ...],
) -> None:
    assert not answered(*pair((3, 4, 8, 2, 0), chunks))
    assert not answered(*pair((3, 4, 8, 2, 0), after=((b"tRNS", bytes(6)),)))


@pytest.mark.parametrize(
    "ihdr",
    [
        (3, 4, 4, 2, 0),  # truecolour has no 4-bit samples
        (3, 4, 8, 5, 0),  # no colour type 5
        (3, 4, 8, 7, 0),
    ],
)
def test_a_header_pillow_does_not_read_is_left_to_the_kernel(
    ihdr: tuple[int, int, int, int, int],
) -> None:
    assert same_pixels(*pair(ihdr), 16) is None


def test_a_header_with_another_method_or_length_is_left_to_the_kernel() -> None:
    first, second = pair((3, 4, 8, 2, 0))
    header = struct.pack(">IIBBBBB", 3, 4, 8, 2, 1, 0, 0)  # compression method 1
    other = first.replace(first[8:33], chunk(b"IHDR", header))
    assert same_pixels(other, other, 16) is None
    longer = first.replace(first[8:33], chunk(b"IHDR", first[16:29] + b"\x00"))
    assert same_pixels(longer, second, 16) is None
    assert same_pixels(second, longer, 16) is None


@pytest.mark.parametrize(("sizes", "taken"), [((1024 * 1024,), True), ((1024 * 1024, 1), False)])
def test_text_chunks_are_taken_up_to_1_mib_in_all(sizes: tuple[int, ...], taken: bool) -> None:
    texts = tuple((b"tEXt", b"k\x00" + bytes(n - 2) if n > 2 else b"k\x00") for n in sizes)
    gamma = ((b"gAMA", b"\x00\x00\xb1\x8f"),) * 3
    first, second = pair((3, 4, 8, 2, 0), before=gamma, after=texts)
    assert (same_pixels(first, second, 16) is not None) is taken


def test_a_stream_ending_exactly_at_a_step_is_answered() -> None:
    # 511 x 512 grey: the rows inflate to exactly 256 KiB, the size of a step.
    width, height = 511, 512
    assert height * (1 + width) == samepixels._STEP
    assert answered(*pair((width, height, 8, 0, 0)))


def test_a_second_stream_with_a_bad_checksum_is_left_to_the_kernel() -> None:
    rows = bytes(4 * (1 + 3 * 3))
    header = struct.pack(">IIBBBBB", 3, 4, 8, 2, 0, 0, 0)
    stream = bytearray(zlib.compress(rows, 1))
    stream[-1] ^= 1  # the Adler-32 of the stream
    second = PNG_SIGNATURE + b"".join(
        (chunk(b"IHDR", header), chunk(b"IDAT", bytes(stream)), chunk(b"IEND", b""))
    )
    assert same_pixels(png((3, 4, 8, 2, 0), rows), second, 16) is None


def test_each_part_is_timed_in_milliseconds(monkeypatch: pytest.MonkeyPatch) -> None:
    ticks = iter([100.0, 101.0, 103.0])  # read and the first inflated, then the second
    monkeypatch.setattr(samepixels, "time", SimpleNamespace(perf_counter=lambda: next(ticks)))
    fast = same_pixels(*pair((3, 4, 8, 2, 0)), 16)
    assert fast is not None and fast.timings_ms == {"decode": 1000.0, "diff": 2000.0}


def test_byte_identical_files_are_answered_with_the_window_asked() -> None:
    first, _ = pair((3, 4, 8, 2, 0))
    same = samepixels.same_without_decoding(first, first, "a.png", 4)
    assert same is not None and (same.same_bytes, same.window) == (True, 4)
