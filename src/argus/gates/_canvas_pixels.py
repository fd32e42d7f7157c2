"""The colours a canvas chart paints, read from the render where the page exposes its bounds.

A canvas has no marks to read: only its pixels. Inside the canvas's box in the screenshot, every
distinct colour that covers at least ``min_share`` of the pixels is listed with its share. What
no listed colour covers (anti-aliased edges, gradients, photographs) is the unlisted share; when
it is most of the canvas, the colours cannot be told and the canvas is reported unmeasured.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from argus.color import RGBA
from argus.diff.masks import Box
from argus.gates.render_pixels import RenderImage, crop

# A colour covering less than this share of the canvas is an edge blend, not a chart colour.
MIN_SHARE = 0.01
# More than this share of the canvas in colours under MIN_SHARE: no distinct colours to list.
MAX_UNLISTED = 0.5


@dataclass(frozen=True)
class CanvasColours:
    colours: tuple[tuple[RGBA, float], ...]  # (colour, share of the canvas), largest first
    unlisted: float  # share of the pixels no listed colour covers
    partial: bool  # part of the box lies outside the render

    @property
    def measurable(self) -> bool:
        return bool(self.colours) and self.unlisted <= MAX_UNLISTED


def canvas_colours(
    render: RenderImage, box: Box, min_share: float = MIN_SHARE
) -> CanvasColours | None:
    """The distinct colours covering the canvas's box; None when the box is not in the render."""
    patch = crop(render, box)
    if patch is None:
        return None
    dpr = render.device_pixel_ratio
    expected = max(1.0, round(box.width * dpr) * round(box.height * dpr))
    flat = patch.reshape(-1, 3).astype(np.uint32)
    packed = (flat[:, 0] << 16) | (flat[:, 1] << 8) | flat[:, 2]
    values, counts = np.unique(packed, return_counts=True)
    total = float(packed.size)
    order = np.argsort(-counts, kind="stable")
    colours: list[tuple[RGBA, float]] = []
    for i in order:
        share = float(counts[i]) / total
        if share < min_share:
            break
        v = int(values[i])
        colours.append((RGBA(float(v >> 16), float((v >> 8) & 255), float(v & 255), 1.0), share))
    listed = sum(share for _, share in colours)
    return CanvasColours(tuple(colours), max(0.0, 1.0 - listed), packed.size < expected - 0.5)
