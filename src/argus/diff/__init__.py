"""Image diffing: a pixelmatch-compatible kernel, density, regions, snapshots.

pixelmatch(img1, img2, output=None, **options) -> int     the pixelmatch 7.2.0 count
compare(a, b, ...) -> DiffResult                          + ratio, density, regions
compare_files(a_png, b_png, ...) -> DiffResult            decode included
is_unchanged(prev_png, curr_png) -> UnchangedResult       the loop's suppression check
compare_to_baseline(render, baseline, ...) -> SnapshotOutcome

Every name loads on first use (PEP 562): importing a light submodule (``pngcheck``,
``result``) loads neither numpy nor Pillow, so ``argus diff`` on byte-identical files answers
without them, and it never imports the spec package and its JSON Schema validator.
"""

from argus._lazy import lazy_attributes as _lazy_attributes

_TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if _TYPE_CHECKING:
    from argus.diff._kernel import pixelmatch
    from argus.diff.comparison import compare, compare_files
    from argus.diff.masks import MASK_RGBA, Box, MaskResolution, paint_masks, resolve_masks
    from argus.diff.png import decode_png, encode_png, load_png, load_png_pair, save_png
    from argus.diff.region import Region
    from argus.diff.result import DiffResult
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

# Each name loaded on first use and the module it comes from.
_SOURCES = {
    "DiffResult": "argus.diff.result",
    "compare": "argus.diff.comparison",
    "compare_files": "argus.diff.comparison",
    "pixelmatch": "argus.diff._kernel",
    "decode_png": "argus.diff.png",
    "encode_png": "argus.diff.png",
    "load_png": "argus.diff.png",
    "load_png_pair": "argus.diff.png",
    "save_png": "argus.diff.png",
    "Region": "argus.diff.region",
    "MASK_RGBA": "argus.diff.masks",
    "Box": "argus.diff.masks",
    "MaskResolution": "argus.diff.masks",
    "paint_masks": "argus.diff.masks",
    "resolve_masks": "argus.diff.masks",
    "UPDATE_MODES": "argus.diff.snapshot",
    "SnapshotOutcome": "argus.diff.snapshot",
    "UpdateMode": "argus.diff.snapshot",
    "compare_to_baseline": "argus.diff.snapshot",
    "diff_image_path": "argus.diff.snapshot",
    "Tolerance": "argus.diff.tolerance",
    "UnchangedResult": "argus.diff.unchanged",
    "is_unchanged": "argus.diff.unchanged",
    "baseline_path": "argus.spec.paths",
}


__getattr__ = _lazy_attributes(__name__, _SOURCES, globals())


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
