"""A scalar, pixel-by-pixel pixelmatch 7.2.0 used only as a test oracle for the vectorised
kernel (slow; for small images). Python floats are IEEE doubles, as JavaScript numbers are."""

from __future__ import annotations

import numpy as np


def _blend_bg(k: int, checkerboard: bool) -> tuple[float, float, float]:
    if not checkerboard:
        return 255.0, 255.0, 255.0
    return (
        48.0 + 159.0 * (k % 2),
        48.0 + 159.0 * (int(k / 1.618033988749895) % 2),
        48.0 + 159.0 * (int(k / 2.618033988749895) % 2),
    )


def _diffs(p1: np.ndarray, p2: np.ndarray, k: int, checkerboard: bool) -> tuple[float, ...]:
    r1, g1, b1, a1 = (int(v) for v in p1)
    r2, g2, b2, a2 = (int(v) for v in p2)
    dr, dg, db, da = float(r1 - r2), float(g1 - g2), float(b1 - b2), a1 - a2
    if a1 < 255 or a2 < 255:
        rb, gb, bb = _blend_bg(k, checkerboard)
        dr = (r1 * a1 - r2 * a2 - rb * da) / 255
        dg = (g1 * a1 - g2 * a2 - gb * da) / 255
        db = (b1 * a1 - b2 * a2 - bb * da) / 255
    return dr, dg, db


def color_delta(p1: np.ndarray, p2: np.ndarray, k: int, checkerboard: bool) -> float:
    dr, dg, db = _diffs(p1, p2, k, checkerboard)
    y = dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
    i = dr * 0.59597799 - dg * 0.27417610 - db * 0.32180189
    q = dr * 0.21147017 - dg * 0.52261711 + db * 0.31114694
    delta = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
    return -delta if y > 0 else delta


def brightness_delta(p1: np.ndarray, p2: np.ndarray, k: int, checkerboard: bool) -> float:
    if (p1 == p2).all():
        return 0.0
    dr, dg, db = _diffs(p1, p2, k, checkerboard)
    return dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223


def has_many_siblings(img: np.ndarray, x1: int, y1: int) -> bool:
    h, w = img.shape[:2]
    x0, x2, y0, y2 = max(x1 - 1, 0), min(x1 + 1, w - 1), max(y1 - 1, 0), min(y1 + 1, h - 1)
    zeroes = 1 if x1 in (x0, x2) or y1 in (y0, y2) else 0
    for x in range(x0, x2 + 1):
        for y in range(y0, y2 + 1):
            if (x, y) != (x1, y1) and (img[y, x] == img[y1, x1]).all():
                zeroes += 1
    return zeroes > 2


def antialiased(img: np.ndarray, other: np.ndarray, x1: int, y1: int, cb: bool) -> bool:
    h, w = img.shape[:2]
    x0, x2, y0, y2 = max(x1 - 1, 0), min(x1 + 1, w - 1), max(y1 - 1, 0), min(y1 + 1, h - 1)
    zeroes = 1 if x1 in (x0, x2) or y1 in (y0, y2) else 0
    lo = hi = 0.0
    lo_xy = hi_xy = (0, 0)
    k = (y1 * w + x1) * 4
    for x in range(x0, x2 + 1):
        for y in range(y0, y2 + 1):
            if (x, y) == (x1, y1):
                continue
            delta = brightness_delta(img[y1, x1], img[y, x], k, cb)
            if delta == 0:
                zeroes += 1
                if zeroes > 2:
                    return False
            elif delta < lo:
                lo, lo_xy = delta, (x, y)
            elif delta > hi:
                hi, hi_xy = delta, (x, y)
    if lo == 0 or hi == 0:
        return False
    return (has_many_siblings(img, *lo_xy) and has_many_siblings(other, *lo_xy)) or (
        has_many_siblings(img, *hi_xy) and has_many_siblings(other, *hi_xy)
    )


def reference_pixelmatch(
    a: np.ndarray,
    b: np.ndarray,
    *,
    threshold: float = 0.1,
    include_aa: bool = False,
    checkerboard: bool = True,
) -> int:
    h, w = a.shape[:2]
    max_delta = 35215 * threshold * threshold
    count = 0
    for y in range(h):
        for x in range(w):
            if (a[y, x] == b[y, x]).all():
                continue
            delta = color_delta(a[y, x], b[y, x], (y * w + x) * 4, checkerboard)
            if abs(delta) <= max_delta:
                continue
            if not include_aa and (
                antialiased(a, b, x, y, checkerboard) or antialiased(b, a, x, y, checkerboard)
            ):
                continue
            count += 1
    return count
