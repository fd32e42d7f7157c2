"""Image diffing: a pixelmatch-compatible kernel, density, regions, snapshots.

pixelmatch(img1, img2, output=None, **options) -> int     the pixelmatch 7.2.0 count
compare(a, b, ...) -> DiffResult                          + ratio, density, regions
compare_files(a_png, b_png, ...) -> DiffResult            decode included
is_unchanged(prev_png, curr_png) -> UnchangedResult       the loop's suppression check
compare_to_baseline(render, baseline, ...) -> SnapshotOutcome
"""

from argus.diff.compare import DiffResult, compare, compare_files
from argus.diff.kernel import pixelmatch
from argus.diff.masks import MASK_RGBA, Box, MaskResolution, paint_masks, resolve_masks
from argus.diff.png import decode_png, encode_png, load_png, load_png_pair, save_png
from argus.diff.regions import Region
from argus.diff.snapshot import (
    UPDATE_MODES,
    SnapshotOutcome,
    UpdateMode,
    compare_to_baseline,
    diff_image_path,
)
from argus.diff.tolerance import Tolerance
from argus.diff.unchanged import UnchangedResult, is_unchanged
from argus.spec.paths import baseline_path

__all__ = [
    "MASK_RGBA",
    "UPDATE_MODES",
    "Box",
    "DiffResult",
    "MaskResolution",
    "Region",
    "SnapshotOutcome",
    "Tolerance",
    "UnchangedResult",
    "UpdateMode",
    "baseline_path",
    "compare",
    "compare_files",
    "compare_to_baseline",
    "decode_png",
    "diff_image_path",
    "encode_png",
    "is_unchanged",
    "load_png",
    "load_png_pair",
    "paint_masks",
    "pixelmatch",
    "resolve_masks",
    "save_png",
]
