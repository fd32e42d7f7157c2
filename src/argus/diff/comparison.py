"""``compare``: the pixelmatch count plus what a snapshot check needs to judge a diff.

Beyond the count: the mismatch ratio, the windowed density (largest number of differing
pixels in any N x N window), the bounding boxes of changed regions, and timings.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np

from argus.diff._density import mask_density, window_density
from argus.diff._kernel import (
    MaskMatch,
    check_fraction,
    check_image,
    check_same_size,
    draw_diff,
    draw_gray,
    match,
)
from argus.diff.arrays import U8
from argus.diff.png import decode_png_pair
from argus.diff.pngcheck import read_png_bytes
from argus.diff.regions import changed_regions, mask_regions
from argus.diff.result import DEFAULT_WINDOW as DEFAULT_WINDOW
from argus.diff.result import DiffResult as DiffResult
from argus.diff.samepixels import same_without_decoding


def compare(
    img1: U8,
    img2: U8,
    *,
    threshold: float = 0.1,
    include_aa: bool = False,
    window: int = DEFAULT_WINDOW,
    diff_image: bool = False,
    alpha: float = 0.1,
    checkerboard: bool = True,
    region_cell: int = 8,
) -> DiffResult:
    """Compare two same-sized RGBA arrays; ``diff_image`` also draws pixelmatch's diff."""
    started = time.perf_counter()
    a = check_image(img1, "image 1")
    b = check_image(img2, "image 2")
    check_same_size(a, b)
    threshold = check_fraction(threshold, "threshold")
    height, width = a.shape[:2]
    found = match(a, b, threshold=threshold, include_aa=include_aa, checkerboard=checkerboard)
    timings = {"diff": (time.perf_counter() - started) * 1000}

    mark = time.perf_counter()
    if isinstance(found, MaskMatch):  # dense: the flags as they are, no positions
        counted = found.mismatched_mask().reshape(height, width)
        density = mask_density(counted, window)
        regions = mask_regions(counted, cell=region_cell)
    else:
        positions = found.mismatched()
        density = window_density(positions, width, height, window)
        regions = changed_regions(positions, width, height, cell=region_cell)
    timings["analysis"] = (time.perf_counter() - mark) * 1000

    image = None
    if diff_image:
        mark = time.perf_counter()
        image = np.empty_like(a)
        out32 = image.view(np.uint32).reshape(-1)
        draw_gray(a.view(np.uint32).reshape(-1), out32, check_fraction(alpha, "alpha"))
        draw_diff(found, out32, (255, 255, 0), (255, 0, 0), (255, 0, 0))
        timings["draw"] = (time.perf_counter() - mark) * 1000
    return DiffResult(width, height, found.mismatch, window, density, regions, timings, image)


def compare_files(first: Path, second: Path, **options: Any) -> DiffResult:
    """``compare_pngs`` on two PNG files; the read time is in the timings."""
    started = time.perf_counter()
    data_a, data_b = read_png_bytes(first), read_png_bytes(second)
    read_ms = (time.perf_counter() - started) * 1000
    result = compare_pngs(data_a, data_b, (first, second), **options)
    result.timings_ms["read"] = read_ms
    return result


def compare_pngs(
    first: bytes,
    second: bytes,
    sources: tuple[Path | str, Path | str],
    *,
    check_same: bool = True,
    **options: Any,
) -> DiffResult:
    """``compare`` on two PNGs' bytes, decoded in parallel (decode time in the timings).
    Unless a diff image is asked for, PNGs that are byte for byte the same, or proved to hold
    the same pixels from their image data (``argus.diff.samepixels``), are not decoded: no
    pixel of them can differ. ``check_same=False``: the caller has already found they are
    not."""
    if check_same and not options.get("diff_image"):
        window = options.get("window", DEFAULT_WINDOW)
        same = same_without_decoding(first, second, sources[0], window)
        if same is not None:
            return same
    started = time.perf_counter()
    a, b = decode_png_pair(first, second, sources)
    decode_ms = (time.perf_counter() - started) * 1000
    check_same_size(a, b, str(sources[0]), str(sources[1]))
    result = compare(a, b, **options)
    result.timings_ms["decode"] = decode_ms
    return result
