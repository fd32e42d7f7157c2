"""Perceptual colour difference in YIQ space, vectorised over many pixels at once.

The metric is Kotsarenko & Ramos (2010), "Measuring perceived color difference using YIQ NTSC
transmission color space in mobile applications", with the coefficients and the operation
order of pixelmatch 7.2.0, so that every float64 result is bit-for-bit the one JavaScript
computes: a delta compared against a threshold must land on the same side of it.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from argus.diff._constants import I_B, I_G, I_R, PHI, PHI_SQUARED, Q_B, Q_G, Q_R, Y_B, Y_G, Y_R
from argus.diff._constants import MAX_YIQ_DELTA as MAX_YIQ_DELTA  # re-exported for the kernel
from argus.diff.arrays import F64, U32, Index
from argus.diff.arrays import U8 as U8  # re-exported: argus.report imports it from here

# A channel difference: exact small integers for opaque pixels, blended floats otherwise.
# Either converts exactly to float64 in the YIQ products, so both give the same deltas.
Diff = F64 | npt.NDArray[np.int16]


def background(offsets: Index, checkerboard: bool) -> tuple[F64 | float, F64 | float, F64 | float]:
    """Background (r, g, b) for pixels at byte offsets ``offsets`` (pixel index * 4)."""
    if not checkerboard:
        return 255.0, 255.0, 255.0
    k = offsets.astype(np.float64)
    red = 48.0 + 159.0 * (offsets % 2)
    green = 48.0 + 159.0 * (np.trunc(k / PHI).astype(np.int64) % 2)
    blue = 48.0 + 159.0 * (np.trunc(k / PHI_SQUARED).astype(np.int64) % 2)
    return red.astype(np.float64), green.astype(np.float64), blue.astype(np.float64)


def channels(pixels: U32) -> U8:
    """RGBA bytes of uint32 pixel values, as an array with a trailing axis of 4."""
    view: U8 = pixels.view(np.uint8).reshape(*pixels.shape, 4)
    return view


def opaque(pixels: U32) -> bool:
    return bool(np.all(channels(pixels)[..., 3] == 255))


def channel_differences(
    p1: U32, p2: U32, offsets: Index, checkerboard: bool
) -> tuple[Diff, Diff, Diff]:
    """Per-channel differences of pixel values ``p1`` and ``p2`` (any shape), alpha-blended
    over the background at byte ``offsets`` (broadcastable to the pixels).

    For two opaque pixels the blended form (r1*255 - r2*255) / 255 is exactly r1 - r2 in
    IEEE arithmetic, so one formula serves every pixel; the opaque case skips the work and
    keeps the differences as int16 (a quarter of float64's memory traffic).
    """
    c1 = channels(p1)
    c2 = channels(p2)
    if opaque(p1) and opaque(p2):
        d = np.subtract(c1, c2, dtype=np.int16)
        return d[..., 0], d[..., 1], d[..., 2]
    a1 = c1[..., 3].astype(np.float64)
    a2 = c2[..., 3].astype(np.float64)
    da = a1 - a2
    bg = background(offsets, checkerboard)
    out = []
    for channel in range(3):
        num = c1[..., channel] * a1 - c2[..., channel] * a2 - bg[channel] * da
        out.append(num / 255.0)
    return out[0], out[1], out[2]


def weighted_sum(dr: Diff, dg: Diff, db: Diff, wr: float, wg: float, wb: float) -> F64:
    """dr*wr + dg*wg + db*wb in float64, added left to right as JavaScript does, in place."""
    total: F64 = np.multiply(dr, wr, dtype=np.float64)
    total += np.multiply(dg, wg, dtype=np.float64)
    total += np.multiply(db, wb, dtype=np.float64)
    return total


def brightness(dr: Diff, dg: Diff, db: Diff) -> F64:
    """The Y (luma) component of a colour difference."""
    return weighted_sum(dr, dg, db, Y_R, Y_G, Y_B)


def color_delta(p1: U32, p2: U32, offsets: Index, checkerboard: bool) -> F64:
    """Squared YIQ distance per pixel pair; negative where the second pixel is darker."""
    dr, dg, db = channel_differences(p1, p2, offsets, checkerboard)
    y = brightness(dr, dg, db)
    i = weighted_sum(dr, dg, db, I_R, -I_G, -I_B)
    q = weighted_sum(dr, dg, db, Q_R, -Q_G, Q_B)
    delta: F64 = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
    np.negative(delta, out=delta, where=y > 0)
    return delta


def gray_values(pixels: U32, alpha: float) -> U8:
    """pixelmatch's faded grayscale background for pixel values: luma blended with white."""
    c = channels(pixels)
    luma = c[..., 0] * Y_R + c[..., 1] * Y_G + c[..., 2] * Y_B
    val = 255.0 + (luma - 255.0) * alpha * c[..., 3] / 255.0
    # A JavaScript Uint8Array store truncates; val stays within [0, 255] for alpha in [0, 1].
    result: U8 = val.astype(np.uint8)
    return result
