"""Structural similarity (SSIM) of two images, after Wang, Bovik, Sheikh & Simoncelli (2004),
"Image quality assessment: from error visibility to structural similarity", IEEE TIP 13(4).

Grey levels (ITU-R BT.601 luma), an 11×11 Gaussian window with σ = 1.5, K1 = 0.01, K2 = 0.03,
L = 255, statistics over the "valid" part of the image only (no padding), as in the paper's
reference implementation. ``downsample`` averages f×f blocks first, which the paper recommends
for large images viewed at a normal distance and which makes the score about composition rather
than single-pixel rendering differences.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

Grey = NDArray[np.float64]

_K1, _K2, _L = 0.01, 0.03, 255.0
_C1, _C2 = (_K1 * _L) ** 2, (_K2 * _L) ** 2


def grey(rgb: NDArray[np.uint8]) -> Grey:
    """Luma of an H×W×3 (or ×4, alpha ignored) uint8 image as float64."""
    pixels = rgb[..., :3].astype(np.float64)
    return pixels[..., 0] * 0.299 + pixels[..., 1] * 0.587 + pixels[..., 2] * 0.114


def block_mean(image: Grey, factor: int) -> Grey:
    """Average non-overlapping factor×factor blocks (edges that do not fill a block are cut)."""
    if factor <= 1:
        return image
    h, w = (image.shape[0] // factor) * factor, (image.shape[1] // factor) * factor
    cut = image[:h, :w]
    means: Grey = cut.reshape(h // factor, factor, w // factor, factor).mean(axis=(1, 3))
    return means


def grey_block_mean(rgb: NDArray[np.uint8], factor: int) -> Grey:
    """``block_mean(grey(rgb), factor)``, computed from whole-number channel sums per block.

    The sums are exact integers, so only the factor²-times
    smaller result is converted to floats: the same means up to rounding in the last bits,
    without a full-size float copy of the image.
    """
    if factor <= 1:
        return grey(rgb)
    h, w = (rgb.shape[0] // factor) * factor, (rgb.shape[1] // factor) * factor
    pixels = rgb[:h, :w]  # every channel: contiguous pixels sum faster than a 3-channel slice
    wide = np.uint16 if factor <= 16 else np.uint32  # 16×16×255 still fits 16 bits
    rows: NDArray[np.unsignedinteger[Any]] = pixels[0::factor].astype(wide)
    for i in range(1, factor):
        np.add(rows, pixels[i::factor], out=rows)
    cells = rows[:, 0::factor].copy()
    for i in range(1, factor):
        np.add(cells, rows[:, i::factor], out=cells)
    sums = cells[..., :3].astype(np.float64)
    means: Grey = (sums[..., 0] * 0.299 + sums[..., 1] * 0.587 + sums[..., 2] * 0.114) / (
        factor * factor
    )
    return means


def _gaussian(size: int = 11, sigma: float = 1.5) -> NDArray[np.float64]:
    x = np.arange(size, dtype=np.float64) - (size - 1) / 2
    kernel: NDArray[np.float64] = np.exp(-(x**2) / (2 * sigma**2))
    normalized: NDArray[np.float64] = kernel / float(kernel.sum())
    return normalized


def _filter_valid(image: Grey, kernel: NDArray[np.float64]) -> Grey:
    """Separable 'valid' correlation: the same kernel along rows, then along columns."""
    k = len(kernel)
    h, w = image.shape
    rows = sum(kernel[i] * image[:, i : w - k + 1 + i] for i in range(k))
    out: Grey = sum(kernel[i] * rows[i : h - k + 1 + i, :] for i in range(k))
    return out


def ssim_map(a: Grey, b: Grey, *, window: int = 11, sigma: float = 1.5) -> Grey:
    """The local SSIM index at every position where the window fits in both images."""
    if a.shape != b.shape:
        raise ValueError(f"SSIM needs equal sizes, got {a.shape} and {b.shape}")
    if min(a.shape) < window:
        raise ValueError(f"SSIM needs images of at least {window}×{window}, got {a.shape}")
    kernel = _gaussian(window, sigma)
    mu_a = _filter_valid(a, kernel)
    mu_b = _filter_valid(b, kernel)
    var_a = _filter_valid(a * a, kernel) - mu_a**2
    var_b = _filter_valid(b * b, kernel) - mu_b**2
    cov = _filter_valid(a * b, kernel) - mu_a * mu_b
    numerator = (2 * mu_a * mu_b + _C1) * (2 * cov + _C2)
    denominator = (mu_a**2 + mu_b**2 + _C1) * (var_a + var_b + _C2)
    out: Grey = numerator / denominator
    return out


def ssim(a: Grey, b: Grey, *, downsample: int = 1) -> float:
    """Mean SSIM (1.0 for identical images); both images are grey levels of the same size."""
    return mean_ssim(block_mean(a, downsample), block_mean(b, downsample))


def mean_ssim(a: Grey, b: Grey) -> float:
    """Mean SSIM of two grey images already at the scale to compare (1.0 when equal)."""
    if np.array_equal(a, b):
        return 1.0
    return float(ssim_map(a, b).mean())
