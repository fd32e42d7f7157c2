"""Did the render change since the last iteration? The loop's hash suppression asks this.

Byte-identical files are unchanged without decoding. Otherwise the kernel decides: under
0.5% differing pixels at the default threshold is unchanged. Images of different sizes are
always changed (comparing them is meaningless, and failing open there would suppress a real
layout change), and so is a render with no previous one.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from argus.diff._kernel import match
from argus.diff.png import MAX_PNG_BYTES, decode_png
from argus.io import read_bytes

UNCHANGED_RATIO = 0.005
DEFAULT_THRESHOLD = 0.1


@dataclass(frozen=True)
class UnchangedResult:
    unchanged: bool
    method: str  # no-previous | identical-bytes | size-changed | pixelmatch
    diff_ratio: float | None  # share of differing pixels, when the kernel measured it
    detail: str = ""


def is_unchanged(
    prev_png: Path | None,
    curr_png: Path,
    *,
    max_ratio: float = UNCHANGED_RATIO,
    threshold: float = DEFAULT_THRESHOLD,
) -> UnchangedResult:
    """Compare the previous render (None or a missing file: there is none) with the current."""
    if prev_png is None or not prev_png.exists():
        return UnchangedResult(False, "no-previous", None, "no previous render to compare")
    prev_bytes = read_bytes(prev_png, what="PNG image", limit=MAX_PNG_BYTES)
    curr_bytes = read_bytes(curr_png, what="PNG image", limit=MAX_PNG_BYTES)
    if prev_bytes == curr_bytes:
        return UnchangedResult(True, "identical-bytes", 0.0, "files are byte-identical")
    prev = decode_png(prev_bytes, prev_png)
    curr = decode_png(curr_bytes, curr_png)
    if prev.shape != curr.shape:
        return UnchangedResult(
            False,
            "size-changed",
            None,
            f"size changed from {prev.shape[1]}x{prev.shape[0]} to {curr.shape[1]}x{curr.shape[0]}",
        )
    found = match(prev, curr, threshold=threshold, include_aa=False, checkerboard=True)
    ratio = found.mismatch / (prev.shape[0] * prev.shape[1])
    return UnchangedResult(
        ratio < max_ratio,
        "pixelmatch",
        ratio,
        f"{found.mismatch} pixels differ ({ratio:.3%}; unchanged below {max_ratio:.1%})",
    )
