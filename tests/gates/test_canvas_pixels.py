"""canvas_colours: the distinct colours covering a canvas's box in the render, at the share
boundaries, and what is not in the render."""

from __future__ import annotations

import numpy as np

from argus.color import RGBA
from argus.diff.masks import Box
from argus.gates._canvas_pixels import CanvasColours, canvas_colours
from argus.gates.render_pixels import RenderImage

WHITE = RGBA(255.0, 255.0, 255.0, 1.0)
RED = RGBA(200.0, 0.0, 0.0, 1.0)


def render(pixels: np.ndarray, dpr: float = 1.0) -> RenderImage:
    return RenderImage(pixels.astype(np.uint8), dpr)


def canvas(size: int = 10) -> np.ndarray:
    return np.full((size, size, 3), 255, dtype=np.uint8)


def test_a_colour_at_exactly_the_minimum_share_is_listed() -> None:
    pixels = canvas()
    pixels[0, 0] = (200, 0, 0)  # 1 pixel of 100: exactly 1%
    found = canvas_colours(render(pixels), Box(0, 0, 10, 10))
    assert found is not None
    assert found.colours == ((WHITE, 0.99), (RED, 0.01))
    assert found.unlisted == 0.0 and found.measurable and not found.partial
    below = canvas_colours(render(pixels), Box(0, 0, 10, 10), min_share=0.011)
    assert below is not None and below.colours == ((WHITE, 0.99),)
    assert abs(below.unlisted - 0.01) < 1e-9


def test_half_the_pixels_unlisted_is_still_measurable_and_more_is_not() -> None:
    assert CanvasColours(((WHITE, 0.5),), 0.5, False).measurable
    assert not CanvasColours(((WHITE, 0.49),), 0.51, False).measurable
    assert not CanvasColours((), 0.0, False).measurable


def test_only_the_box_is_read_scaled_by_the_device_pixel_ratio() -> None:
    pixels = np.full((20, 40, 3), 255, dtype=np.uint8)
    pixels[:, 20:] = (200, 0, 0)  # the right half, in device pixels
    left = canvas_colours(render(pixels, 2.0), Box(0, 0, 10, 10))
    assert left is not None and left.colours == ((WHITE, 1.0),)
    right = canvas_colours(render(pixels, 2.0), Box(10, 0, 10, 10))
    assert right is not None and right.colours == ((RED, 1.0),)


def test_a_box_outside_the_render_is_none_and_one_partly_inside_is_partial() -> None:
    pixels = canvas()
    assert canvas_colours(render(pixels), Box(20, 20, 5, 5)) is None
    half = canvas_colours(render(pixels), Box(5, 0, 10, 10))
    assert half is not None and half.partial and half.colours == ((WHITE, 1.0),)


def test_one_pixel_cut_off_is_partial_and_a_one_pixel_box_is_whole() -> None:
    pixels = canvas()
    wide = canvas_colours(render(pixels), Box(0, 0, 11, 1))  # 10 of its 11 pixels in the render
    assert wide is not None and wide.partial
    dot = canvas_colours(render(pixels), Box(3, 3, 1, 1))
    assert dot is not None and not dot.partial and dot.colours == ((WHITE, 1.0),)
    speck = canvas_colours(render(pixels), Box(3, 3, 0.4, 0.4))  # less than a pixel: one read
    assert speck is not None and not speck.partial


def test_what_is_cut_off_is_counted_in_device_pixels() -> None:
    pixels = np.full((20, 40, 3), 255, dtype=np.uint8)  # 20 x 10 CSS px at 2x
    inside = canvas_colours(render(pixels, 2.0), Box(10, 0, 10, 10))
    assert inside is not None and not inside.partial
    over = canvas_colours(render(pixels, 2.0), Box(10, 0, 15, 10))  # 5 CSS px off the right
    assert over is not None and over.partial
    under = canvas_colours(render(pixels, 2.0), Box(0, 5, 10, 10))  # 5 CSS px off the bottom
    assert under is not None and under.partial


def test_equal_shares_are_listed_in_colour_order() -> None:
    """21 colours in three sizes: largest first, and colours of one size in the order of their
    value, whatever order a sort might leave ties in."""
    counts = [60, 20, 40, 20, 60, 40, 20, 40, 60, 20, 40, 40, 20, 60, 40, 20, 40, 60, 20, 40, 40]
    reds = [10 + 10 * i for i in range(len(counts))]
    flat = np.concatenate([np.tile((r, 0, 0), (n, 1)) for r, n in zip(reds, counts, strict=True)])
    found = canvas_colours(render(flat.reshape(20, 40, 3)), Box(0, 0, 40, 20))
    assert found is not None and found.unlisted == 0.0
    order = sorted(range(len(counts)), key=lambda i: (-counts[i], reds[i]))
    assert found.colours == tuple(
        (RGBA(float(reds[i]), 0.0, 0.0, 1.0), counts[i] / 800) for i in order
    )
