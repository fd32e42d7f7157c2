"""``argus diff A B`` without numpy or ``PIL.Image`` when few pixels differ.

A process of ``argus diff`` that loads numpy and Pillow's image module spends most of its
time importing them (numpy alone 45-110 ms, against about 20 ms for a whole odiff process),
while the common changed pair of a regression run is a small edit on a large screenshot: a
few hundred pixels. ``sparse_compare`` answers such a pair as the kernel would (the count,
the density and the regions; the ratio, the exit code and every printed field follow from
them), and returns None for any pair it cannot prove it answers exactly, which the caller
then hands to the kernel:

1. Both files must be plain 8-bit RGB or RGBA PNGs that Pillow decodes without complaint
   (``argus.diff.samepixels.png_parts``: every chunk whole with its CRC, only chunks whose
   contents Pillow reads), not interlaced, without PLTE or tRNS, with the same header, their
   image data inflating to exactly their rows, every filter type 0 to 4.
2. Their filtered rows are compared (``argus.diff._rowspans.differing_rows``).
3. The first image is decoded by Pillow's own decoder down to the rows the comparison needs,
   and the second's rows that can differ over it (``_rowspans.walk_spans``,
   ``argus.diff._coredecode``): the pixels Pillow decodes, with numpy or without it.
4. The pixels whose values differ are found row by row (a memcmp of blocks of pixels, then
   pixel by pixel in the blocks that differ): more than ``MAX_CHANGED`` and the kernel runs.
5. pixelmatch's arithmetic on them, in plain Python (``argus.diff._pixelwise``), then the
   density and the regions of the counted pixels (``argus.diff._pointstats``).
"""

from __future__ import annotations

import sys
import time

from argus.diff._coredecode import pillow_core
from argus.diff._pairpixels import PairPixels, Pixels
from argus.diff._pairrows import plain_pair
from argus.diff._pixelwise import counted
from argus.diff._pointstats import changed_regions, window_density
from argus.diff.result import DiffResult

# Above this many pixels whose values differ, the kernel runs: measured (docs/bench.md,
# "Session 38"), the plain-Python path costs about ... a pixel, and loading numpy and Pillow
# with the kernel's work about ... ms.
MAX_CHANGED = 4096
REGION_CELL = 8  # argus.diff.comparison.compare's default
_BLOCK = 64  # pixels of a differing row compared at once


def sparse_compare(
    first: bytes, second: bytes, *, threshold: float, include_aa: bool, window: int
) -> DiffResult | None:
    """The kernel's result for two PNGs in which few pixels differ, without numpy, or None
    when this path cannot prove it (see the module): run the kernel."""
    started = time.perf_counter()
    pair = plain_pair(first, second) if sys.byteorder == "little" else None
    if pair is None:
        return None
    width, height = pair.width, pair.height
    if not pair.second:  # the same filtered rows: argus.diff.samepixels's answer and timings
        timings = {"decode": (time.perf_counter() - started) * 1000, "diff": 0.0}
        return DiffResult(width, height, 0, window, 0, (), timings)
    core = pillow_core()
    pixels = PairPixels(core, pair) if core is not None else None
    if pixels is None or not pixels.decode():
        return None
    rows_a, rows_b = pixels.rows()
    decoded = time.perf_counter()
    changed = _changed_pixels(rows_a, rows_b, sorted(pixels.second))
    if changed is None:
        return None
    found = counted(
        rows_a, rows_b, (width, height), changed, threshold=threshold, include_aa=include_aa
    )
    compared = time.perf_counter()
    density = window_density(found, width, height, window)
    regions = changed_regions(found, width, height, cell=REGION_CELL)
    timings = {
        "decode": (decoded - started) * 1000,
        "diff": (compared - decoded) * 1000,
        "analysis": (time.perf_counter() - compared) * 1000,
    }
    return DiffResult(width, height, len(found), window, density, regions, timings)


def _changed_pixels(
    rows_a: Pixels, rows_b: Pixels, span_rows: list[int]
) -> list[tuple[int, int]] | None:
    """The pixels (x, y) whose values differ, row by row, or None past ``MAX_CHANGED``."""
    changed: list[tuple[int, int]] = []
    for y in span_rows:
        a, b = rows_a[y], rows_b[y]
        if a == b:
            continue
        width = len(a)
        for x0 in range(0, width, _BLOCK):
            x1 = min(width, x0 + _BLOCK)
            if a[x0:x1] == b[x0:x1]:
                continue
            changed.extend((x, y) for x in range(x0, x1) if a[x] != b[x])
        if len(changed) > MAX_CHANGED:
            return None
    return changed
