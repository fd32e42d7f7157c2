"""pixelmatch 7.2.0, vectorised: count the pixels two same-sized RGBA images differ in.

Same options, defaults, mismatch count and diff image as the JavaScript original
(https://github.com/mapbox/pixelmatch, ISC): a YIQ colour delta against a threshold,
anti-aliased pixels excluded after Vyšniauskas (2009), and a diff image drawing unchanged
pixels as faded grayscale, differences red (or an alternative colour where the second image
is darker) and anti-aliasing yellow. Work is done only on the pixels whose bytes differ.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from argus.diff.antialias import SiblingCounter, antialiased
from argus.diff.yiq import MAX_YIQ_DELTA, U8, color_delta, gray_values
from argus.errors import InputError

Color = tuple[int, int, int]

# Pixels drawn per block when painting the grayscale background: small enough that the
# float temporaries stay in cache.
GRAY_BLOCK = 1 << 15


def describe_size(img: npt.NDArray[np.generic]) -> str:
    return f"{img.shape[1]}x{img.shape[0]}" if img.ndim >= 2 else f"shape {img.shape}"


def check_image(img: object, name: str) -> U8:
    """An H x W x 4 uint8 C-contiguous array, or an InputError saying what is wrong."""
    if not isinstance(img, np.ndarray):
        raise InputError(f"{name}: expected an H x W x 4 uint8 array, got {type(img).__name__}")
    if img.dtype != np.uint8 or img.ndim != 3 or img.shape[2] != 4:
        raise InputError(
            f"{name}: expected an H x W x 4 uint8 RGBA array, got {img.dtype} {img.shape}"
        )
    if img.shape[0] == 0 or img.shape[1] == 0:
        raise InputError(f"{name}: image is empty ({describe_size(img)})")
    checked: U8 = np.ascontiguousarray(img)
    return checked


def check_same_size(a: U8, b: U8, name_a: str = "image 1", name_b: str = "image 2") -> None:
    if a.shape != b.shape:
        raise InputError(
            f"image sizes do not match: {name_a} is {describe_size(a)}, "
            f"{name_b} is {describe_size(b)}; compare renders of the same size"
        )


def check_color(value: Sequence[int], name: str) -> Color:
    if len(value) != 3 or not all(isinstance(c, int | np.integer) and 0 <= c <= 255 for c in value):
        raise InputError(f"{name}: expected three integers 0-255, got {list(value)!r}")
    return (int(value[0]), int(value[1]), int(value[2]))


def check_fraction(value: float, name: str) -> float:
    if not 0.0 <= value <= 1.0:
        raise InputError(f"{name}: expected a number from 0 to 1, got {value!r}")
    return float(value)


def draw_gray(img: U8, output: U8, alpha: float) -> None:
    """Paint every pixel of ``output`` as ``img``'s faded grayscale, block by block."""
    src = img.reshape(-1, 4)
    dst = output.reshape(-1, 4)
    for start in range(0, src.shape[0], GRAY_BLOCK):
        block = src[start : start + GRAY_BLOCK]
        gray = gray_values(block, alpha)
        dst[start : start + GRAY_BLOCK, :3] = gray[:, None]
        dst[start : start + GRAY_BLOCK, 3] = 255


def pixelmatch(
    img1: U8,
    img2: U8,
    output: U8 | None = None,
    *,
    threshold: float = 0.1,
    include_aa: bool = False,
    alpha: float = 0.1,
    aa_color: Sequence[int] = (255, 255, 0),
    diff_color: Sequence[int] = (255, 0, 0),
    diff_color_alt: Sequence[int] | None = None,
    diff_mask: bool = False,
    checkerboard: bool = True,
) -> int:
    """Number of mismatched pixels between two H x W x 4 uint8 RGBA images.

    ``output``, when given, is an H x W x 4 uint8 array the diff image is drawn into (with
    ``diff_mask`` only differing pixels are written; the rest is left as it was).
    """
    a = check_image(img1, "image 1")
    b = check_image(img2, "image 2")
    check_same_size(a, b)
    if output is not None:
        out = check_image(output, "output")
        check_same_size(a, out, "image 1", "output")
        if out is not output or not output.flags.writeable:
            raise InputError("output: expected a writable C-contiguous H x W x 4 uint8 array")
    threshold = check_fraction(threshold, "threshold")
    alpha = check_fraction(alpha, "alpha")
    aa_rgb = check_color(aa_color, "aa_color")
    diff_rgb = check_color(diff_color, "diff_color")
    alt_rgb = check_color(diff_color_alt, "diff_color_alt") if diff_color_alt else diff_rgb

    height, width = a.shape[:2]
    a32 = a.view(np.uint32).reshape(height, width)
    b32 = b.view(np.uint32).reshape(height, width)

    # Only pixels whose bytes differ can differ at all; none means identical images.
    changed = np.flatnonzero(a32 != b32)
    if output is not None and not diff_mask:
        draw_gray(a, output, alpha)
    if changed.size == 0:
        return 0

    # Squared YIQ distance of each changed pixel; beyond the threshold it is a candidate.
    pa = a.reshape(-1, 4)
    pb = b.reshape(-1, 4)
    delta = color_delta(pa[changed], pb[changed], changed * 4, checkerboard)
    max_delta = MAX_YIQ_DELTA * threshold * threshold
    over = np.abs(delta) > max_delta
    candidates = changed[over]
    delta = delta[over]
    if candidates.size == 0:
        return 0

    # A candidate that is anti-aliasing in either image is excluded (drawn, not counted).
    excluded = np.zeros(candidates.size, dtype=bool)
    if not include_aa:
        count_a = SiblingCounter(a32)
        count_b = SiblingCounter(b32)
        excluded = antialiased(pa, count_a, count_b, candidates, checkerboard)
        rest = np.flatnonzero(~excluded)
        excluded[rest] = antialiased(pb, count_b, count_a, candidates[rest], checkerboard)

    if output is not None:
        flat = output.reshape(-1, 4)
        if not diff_mask:
            flat[candidates[excluded]] = (*aa_rgb, 255)
        real = ~excluded
        darker = real & (delta < 0)
        flat[candidates[darker]] = (*alt_rgb, 255)
        flat[candidates[real & ~darker]] = (*diff_rgb, 255)
    return int(candidates.size - np.count_nonzero(excluded))
