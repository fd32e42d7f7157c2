"""The render against its snapshot baseline (or its reference), for the review page.

Read-only: nothing is written beside the render (the snapshot gate's own diff file is left as
the gate wrote it). The comparison options are the view's (argus.gates.comparison): the
target's masks painted in both images first and the tolerance with the palette-measured
threshold, as the snapshot gate and the pytest plugin compare, so "changed" here means what a
red snapshot gate means.
Results are kept per (files, sizes, modification times), so reloading a page costs nothing and
a file replaced on disk is compared again.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from argus.diff import compare, load_png
from argus.diff.masks import Box, newly_masked, paint_masks
from argus.diff.png import encode_png
from argus.diff.regions import Region
from argus.diff.snapshot import MAX_NEWLY_MASKED, newly_masked_message
from argus.errors import ArgusError
from argus.gates.comparison import Comparison
from argus.io import read_json
from argus.report.images import pad

CACHE_SIZE = 32


@dataclass(frozen=True)
class SnapDiff:
    """What differs between a render and the image it is held against."""

    width: int  # of the diff (the larger of the two images)
    height: int
    mismatch: int
    ratio: float
    changed: bool  # beyond the tolerance (or a different size)
    summary: str
    regions: tuple[Region, ...]
    png: bytes  # pixelmatch's diff image: red differs, faded grey the same
    size_note: str = ""


_cache: OrderedDict[tuple[object, ...], SnapDiff] = OrderedDict()
_lock = threading.Lock()


def _stamp(path: Path) -> tuple[str, int, int]:
    info = path.stat()
    return (str(path), info.st_size, info.st_mtime_ns)


def _masks(render: Path, comparison: Comparison) -> tuple[tuple[Box, ...], float]:
    """The masks' boxes (via the render's probe.json) and the render's pixel scale."""
    probe_path = render.parent / "probe.json"
    if not comparison.all_masks or not probe_path.is_file():
        return (), 1.0
    try:
        probe = read_json(probe_path, what="probe.json")
    except ArgusError:
        return (), 1.0
    if not isinstance(probe, dict):
        return (), 1.0
    return comparison.masks_on(render, probe)


def snapshot_diff(render: Path, against: Path, comparison: Comparison) -> SnapDiff:
    """Compare ``render`` with ``against`` (ArgusError when either cannot be read)."""
    key = (_stamp(render), _stamp(against), comparison)
    with _lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    found = _compute(render, against, comparison)
    with _lock:
        _cache[key] = found
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return found


def _compute(render: Path, against: Path, comparison: Comparison) -> SnapDiff:
    tolerance = comparison.tolerance
    ours, theirs = load_png(render), load_png(against)
    boxes, scale = _masks(render, comparison)
    hidden = newly_masked(theirs, boxes, scale) if ours.shape == theirs.shape else 0
    paint_masks(ours, boxes, scale)
    paint_masks(theirs, boxes, scale)
    width = max(ours.shape[1], theirs.shape[1])
    height = max(ours.shape[0], theirs.shape[0])
    result = compare(
        pad(ours, width, height),
        pad(theirs, width, height),
        threshold=tolerance.threshold,
        window=tolerance.window,
        diff_image=True,
    )
    ok, why = tolerance.judge(result)
    total = ours.shape[0] * ours.shape[1]
    if hidden > MAX_NEWLY_MASKED * total:  # as the snapshot gate: the masks hide the view
        ok, why = False, newly_masked_message(hidden, total)
    size_note = ""
    if ours.shape != theirs.shape:
        ok = False
        size_note = (
            f"sizes differ: render {ours.shape[1]}×{ours.shape[0]}, "
            f"other {theirs.shape[1]}×{theirs.shape[0]}"
        )
    assert result.diff_image is not None  # asked for with diff_image=True
    return SnapDiff(
        width=width,
        height=height,
        mismatch=result.mismatch,
        ratio=result.ratio,
        changed=not ok,
        summary=why,
        regions=result.regions,
        png=encode_png(result.diff_image, compress_level=1),
        size_note=size_note,
    )
