"""``argus diff A B`` without numpy or ``PIL.Image`` when few pixels differ.

A process of ``argus diff`` that loads numpy and Pillow's image module spends most of its
time importing them (numpy alone 45-110 ms, against about 20 ms for a whole odiff process),
while the common changed pair of a regression run is a small edit on a large screenshot: a
few hundred pixels. ``sparse_compare`` answers such a pair as the kernel would (the count,
the density and the regions; the ratio, the exit code and every printed field follow from
them), and returns None for any pair it cannot prove it answers exactly, which the caller
then hands to the kernel:

1. Both files must be plain 8-bit RGB or RGBA PNGs that Pillow decodes without complaint,
   of the same header (``argus.diff._pairrows``, which compares their filtered rows,
   inflating each file once: two files of the same rows get ``argus.diff.samepixels``'s
   answer from it).
2. The first image is decoded by Pillow's own decoder over the rows the comparison reads,
   and the second's rows that can differ over it (``argus.diff._pairpixels``): the pixels
   Pillow decodes, with numpy or without it.
3. The pixels whose values differ are found as the rows are decoded (a memcmp of blocks of
   pixels, then pixel by pixel in the blocks that differ): past ``MAX_CHANGED`` the
   kernel runs, a few rows into a pair that differs everywhere.
4. pixelmatch's arithmetic on them, in plain Python (``argus.diff._pixelwise``), then the
   density and the regions of the counted pixels (``argus.diff._pointstats``).
"""

from __future__ import annotations

import sys
import time

from argus.diff._pairrows import plain_pair
from argus.diff.result import DiffResult

# Above this many pixels whose values differ, the kernel runs. Measured as processes
# (docs/bench.md, "Session 38"): at 4,000 changed pixels of random colour (each one tested
# for anti-aliasing in both images, the costliest kind) this path took 117 ms of CPU against
# the kernel's 194; at 8,000, 186 against 224; at 16,000, 503 against 312.
MAX_CHANGED = 4096
REGION_CELL = 8  # argus.diff.comparison.compare's default


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
    # Loaded only for a pair that differs (a tenth of the same-pixels answer's process).
    from argus.diff._coredecode import pillow_core
    from argus.diff._pairpixels import PairPixels
    from argus.diff._pixelwise import counted
    from argus.diff._pointstats import changed_regions, window_density

    core = pillow_core()
    pixels = PairPixels(core, pair, MAX_CHANGED) if core is not None else None
    if pixels is None or not pixels.decode():
        return None
    rows_a, rows_b = pixels.rows()
    decoded = time.perf_counter()
    changed = pixels.changed
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
