"""Contrast measured from the screenshot, for text whose background no style can describe.

Over a gradient or a photo the background differs under every glyph, so the worst case is
taken from the pixels inside the text's box. Those pixels include the glyphs themselves and
their anti-aliased edges, which must not count as background: a pixel is kept only when its
contrast with the text colour is close to the best contrast in its neighbourhood (a few
stroke widths). Glyph and edge pixels sit next to real background and fall away; a
background region that happens to match the text colour is wider than any stroke, so it is
its own neighbourhood's best, stays, and fails the text, as it should. The glyphs' faint
anti-aliased fringe is dropped with them (a pixel or two around every glyph pixel).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from PIL import UnidentifiedImageError

from argus.color import RGBA
from argus.diff.masks import Box
from argus.diff.png import MAX_PNG_BYTES, open_png
from argus.errors import InputError
from argus.io import read_bytes

# A kept pixel's log-contrast must reach this share of its neighbourhood's best.
KEEP_SHARE = 0.9
# Below this share of the neighbourhood's best, a pixel is part of a glyph.
CORE_SHARE = 0.5
# A neighbourhood whose best contrast with the text stays below this holds no background that
# sets glyphs apart (e.g. text drawn on its own colour, whose anti-aliasing leaves pixels a
# shade off): none of it is taken for glyphs, all of it counts as background. Anything this low
# fails every WCAG minimum, so where exactly it lies below does not change a verdict.
VAGUE_RATIO = 1.5
# Neighbourhood radius in CSS px per px of font size: about one bold stroke width.
STROKE_PER_FONT_PX = 0.15

FloatArray = NDArray[np.float64]


@dataclass(frozen=True)
class RenderImage:
    pixels: NDArray[np.uint8]  # H x W x 3, sRGB
    device_pixel_ratio: float

    @classmethod
    def load(cls, path: Path, viewport_width: float) -> RenderImage:
        data = read_bytes(path, what="render", limit=MAX_PNG_BYTES)
        try:
            with open_png(data, path) as image:
                rgb = np.asarray(image.convert("RGB"), dtype=np.uint8)
        except (OSError, UnidentifiedImageError, ValueError) as exc:
            raise InputError(
                f"{path}: cannot read the render as an image; re-sense the view"
            ) from exc
        ratio = rgb.shape[1] / viewport_width if viewport_width > 0 else 1.0
        return cls(rgb, ratio)


def worst_contrast_in_boxes(
    render: RenderImage, boxes: Sequence[Box], text: RGBA, font_size_px: float
) -> tuple[float, RGBA] | None:
    """The worst case over several boxes (a text's line fragments); None when none is in the
    render. A box partly outside the render is measured on its visible part."""
    found = [worst_contrast_in_box(render, box, text, font_size_px) for box in boxes]
    measured = [f for f in found if f is not None]
    return min(measured, key=lambda f: f[0]) if measured else None


def worst_contrast_in_box(
    render: RenderImage, box: Box, text: RGBA, font_size_px: float
) -> tuple[float, RGBA] | None:
    """The lowest contrast of ``text`` against the background inside ``box``, and that pixel.

    None when the box has no pixels in the render (off-screen or empty).
    """
    patch = crop(render, box)
    if patch is None:
        return None
    background = patch.astype(np.float64)
    shown = text.a * np.array([text.r, text.g, text.b]) + (1.0 - text.a) * background
    ratio = _contrast(_luminance(shown), _luminance(background))
    log_ratio = np.log(ratio)
    dpr = render.device_pixel_ratio
    radius = max(1, math.ceil(STROKE_PER_FONT_PX * font_size_px * dpr)) + 1
    local_best = _max_filter(log_ratio, radius)
    # Glyph cores: at least halfway to the text colour. Their anti-aliased fringe (a pixel or
    # two, more on HiDPI) is a blend of text and background and goes with them.
    vague = local_best <= math.log(VAGUE_RATIO)
    core = ~vague & (log_ratio < CORE_SHARE * local_best)
    fringe = _max_filter(core.astype(np.float64), max(1, round(dpr))) > 0
    keep = ~fringe & (vague | (log_ratio >= KEEP_SHARE * local_best - 1e-12))
    candidates = np.where(keep, ratio, np.inf)
    y, x = np.unravel_index(int(np.argmin(candidates)), candidates.shape)
    r, g, b = (float(c) for c in background[y, x])
    return float(ratio[y, x]), RGBA(r, g, b, 1.0)


def crop(render: RenderImage, box: Box) -> NDArray[np.uint8] | None:
    """The render's pixels inside ``box`` (CSS px), cut to the render; None when none are."""
    dpr = render.device_pixel_ratio
    height, width = render.pixels.shape[:2]
    x0 = max(0, math.floor(box.x * dpr))
    y0 = max(0, math.floor(box.y * dpr))
    x1 = min(width, math.ceil((box.x + box.width) * dpr))
    y1 = min(height, math.ceil((box.y + box.height) * dpr))
    if x1 <= x0 or y1 <= y0:
        return None
    return render.pixels[y0:y1, x0:x1]


def _luminance(rgb: FloatArray) -> FloatArray:
    """WCAG relative luminance per pixel (the vector form of argus.color.relative_luminance)."""
    c = rgb / 255.0
    linear = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    result: FloatArray = linear @ np.array([0.2126, 0.7152, 0.0722])
    return result


def _contrast(a: FloatArray, b: FloatArray) -> FloatArray:
    result: FloatArray = (np.maximum(a, b) + 0.05) / (np.minimum(a, b) + 0.05)
    return result


def _max_filter(values: FloatArray, radius: int) -> FloatArray:
    """Maximum over the (2r+1)² square around each pixel (separable: rows, then columns)."""
    size = 2 * radius + 1
    padded = np.pad(values, radius, mode="edge")
    rows = np.lib.stride_tricks.sliding_window_view(padded, size, axis=1).max(axis=-1)
    result: FloatArray = np.lib.stride_tricks.sliding_window_view(rows, size, axis=0).max(axis=-1)
    return result
