"""Contrast measured from the render's pixels: reading the render, cropping a box at the
device pixel ratio, the WCAG luminance per pixel, and which pixels count as background (glyph
strokes and their anti-aliased fringe do not; a region wider than a stroke does)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from argus.color import RGBA, contrast_ratio
from argus.diff.masks import Box
from argus.errors import InputError
from argus.gates.render_pixels import RenderImage, worst_contrast_in_box, worst_contrast_in_boxes

BLACK = RGBA(0.0, 0.0, 0.0)
WHITE = RGBA(255.0, 255.0, 255.0)


def canvas(value: int | tuple[int, int, int], height: int = 40, width: int = 60) -> np.ndarray:
    return np.full((height, width, 3), value, np.uint8)


def measure(pixels: np.ndarray, text: RGBA = BLACK, font_px: float = 16.0, dpr: float = 1.0):
    height, width = pixels.shape[:2]
    box = Box(0.0, 0.0, width / dpr, height / dpr)
    return worst_contrast_in_box(RenderImage(pixels, dpr), box, text, font_px)


def grey(value: float) -> RGBA:
    return RGBA(value, value, value)


def over(pixel: RGBA, text: RGBA = BLACK) -> tuple[object, RGBA]:
    """What worst_contrast_in_box returns when ``pixel`` is the worst background."""
    return pytest.approx(contrast_ratio(text, pixel), rel=1e-12), pixel


# --- reading the render -----------------------------------------------------------------------


def save(tmp_path: Path, image: Image.Image, **options: object) -> Path:
    path = tmp_path / "render.png"
    image.save(path, **options)
    return path


@pytest.mark.parametrize(
    ("image_width", "viewport", "dpr"),
    [(1280, 1280.0, 1.0), (2560, 1280.0, 2.0), (4, 1.0, 4.0), (64, 0.0, 1.0), (64, -5.0, 1.0)],
)
def test_the_device_pixel_ratio_is_the_render_width_over_the_viewport(
    tmp_path: Path, image_width: int, viewport: float, dpr: float
) -> None:
    path = save(tmp_path, Image.new("RGB", (image_width, 2), (0, 0, 0)))
    assert RenderImage.load(path, viewport).device_pixel_ratio == dpr


@pytest.mark.parametrize("mode", ["L", "RGBA", "LA"])
def test_any_png_mode_is_read_as_rgb(tmp_path: Path, mode: str) -> None:
    image = Image.new("RGB", (3, 2), (128, 128, 128)).convert(mode)
    render = RenderImage.load(save(tmp_path, image), 3.0)
    assert render.pixels.shape == (2, 3, 3)
    assert render.pixels.dtype == np.uint8
    assert (render.pixels == 128).all()


def test_a_render_over_five_mib_is_read(tmp_path: Path) -> None:
    # A HiDPI screenshot easily passes the 5 MiB cap on other inputs; renders have their own.
    path = save(tmp_path, Image.new("RGB", (1600, 1200), (200, 200, 200)), compress_level=0)
    assert path.stat().st_size > 5 * 1024 * 1024
    render = RenderImage.load(path, 800.0)
    assert render.pixels.shape == (1200, 1600, 3) and render.device_pixel_ratio == 2.0


@pytest.mark.parametrize("content", [b"", b"not a png", b"\x89PNG\r\n\x1a\n" + b"\0" * 40])
def test_a_render_that_is_not_a_png_is_refused(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "render.png"
    path.write_bytes(content)
    with pytest.raises(InputError):
        RenderImage.load(path, 1280.0)


def test_a_missing_render_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError):
        RenderImage.load(tmp_path / "missing.png", 1280.0)


# --- the box, in device pixels ----------------------------------------------------------------


def test_a_box_at_the_origin_includes_the_first_row_and_column() -> None:
    pixels = canvas(255)
    pixels[0, 0] = (40, 40, 40)
    render = RenderImage(pixels, 1.0)
    found = worst_contrast_in_box(render, Box(0.0, 0.0, 1.0, 1.0), BLACK, 16.0)
    assert found == over(grey(40.0))


@pytest.mark.parametrize("axis", ["x", "y"])
def test_a_hidpi_box_is_scaled_at_its_origin_too(axis: str) -> None:
    pixels = canvas(100)
    pixels[20:30, 20:30] = 255  # the box, at twice its CSS position and size
    render = RenderImage(pixels, 2.0)
    assert worst_contrast_in_box(render, Box(10.0, 10.0, 5.0, 5.0), BLACK, 16.0) == (21.0, WHITE)
    # Read at CSS scale, the box would start in the grey around it.
    wide = Box(5.0, 10.0, 10.0, 5.0) if axis == "x" else Box(10.0, 5.0, 5.0, 10.0)
    found = worst_contrast_in_box(render, wide, BLACK, 16.0)
    assert found is not None and found[0] < 4.0


def test_a_fractional_box_covers_every_pixel_it_touches() -> None:
    pixels = canvas(255)
    pixels[:, 3] = 40
    pixels[5, :] = 40
    render = RenderImage(pixels, 1.0)
    # x 3.9 to 4.1 touches columns 3 and 4; y 1.5 to 2.5 rows 1 and 2.
    found = worst_contrast_in_box(render, Box(3.9, 1.5, 0.2, 1.0), BLACK, 16.0)
    assert found == over(grey(40.0))
    # x 4.1 to 4.9 touches column 4 only; y 4.2 to 4.8 row 4 only.
    assert worst_contrast_in_box(render, Box(4.1, 4.2, 0.8, 0.6), BLACK, 16.0) == (21.0, WHITE)


@pytest.mark.parametrize(
    "box",
    [
        Box(10.0, 10.0, 0.0, 5.0),  # no width
        Box(10.0, 10.0, 5.0, 0.0),  # no height
        Box(100.0, 10.0, 5.0, 5.0),  # right of the render
        Box(10.0, 100.0, 5.0, 5.0),  # below it
        Box(-20.0, 10.0, 5.0, 5.0),  # left of it
    ],
)
def test_a_box_with_no_pixels_in_the_render_is_not_measured(box: Box) -> None:
    render = RenderImage(canvas(255), 1.0)
    assert worst_contrast_in_box(render, box, BLACK, 16.0) is None
    assert worst_contrast_in_boxes(render, [box], BLACK, 16.0) is None


def test_a_box_partly_outside_is_measured_on_its_visible_part() -> None:
    pixels = canvas(255)
    pixels[:, :5] = 40
    render = RenderImage(pixels, 1.0)
    found = worst_contrast_in_box(render, Box(-10.0, -10.0, 15.0, 15.0), BLACK, 16.0)
    assert found == over(grey(40.0))


# --- several boxes (a text's line fragments) --------------------------------------------------


def test_the_worst_box_counts_and_boxes_off_the_render_are_ignored() -> None:
    pixels = canvas(255)
    pixels[:, 30:] = 90
    render = RenderImage(pixels, 1.0)
    boxes = [Box(0.0, 0.0, 20.0, 20.0), Box(500.0, 0.0, 5.0, 5.0), Box(35.0, 0.0, 20.0, 20.0)]
    found = worst_contrast_in_boxes(render, boxes, BLACK, 16.0)
    assert found == over(grey(90.0))
    assert worst_contrast_in_boxes(render, [], BLACK, 16.0) is None


def test_two_fragments_exactly_as_bad_report_the_first() -> None:
    # Grey text this light is exactly as far from grey 156 as from black (the same float).
    text = grey(83.82878724290302)
    pixels = canvas(156)
    pixels[:, 30:] = 0
    render = RenderImage(pixels, 1.0)
    boxes = [Box(0.0, 0.0, 20.0, 20.0), Box(35.0, 0.0, 20.0, 20.0)]
    first = worst_contrast_in_box(render, boxes[0], text, 16.0)
    second = worst_contrast_in_box(render, boxes[1], text, 16.0)
    assert first is not None and second is not None and first[0] == second[0]
    assert worst_contrast_in_boxes(render, boxes, text, 16.0) == first
    assert worst_contrast_in_boxes(render, boxes[::-1], text, 16.0) == second


# --- the numbers per pixel --------------------------------------------------------------------


def test_every_grey_is_measured_as_wcag_defines_it() -> None:
    for value in range(256):
        assert measure(canvas(value, 4, 4)) == (
            pytest.approx(contrast_ratio(BLACK, grey(float(value))), rel=1e-12),
            grey(float(value)),
        )


@pytest.mark.parametrize("color", [(10, 20, 30), (255, 0, 0), (0, 255, 0), (0, 0, 255), (7, 9, 3)])
def test_colours_are_measured_as_wcag_defines_them(color: tuple[int, int, int]) -> None:
    found = measure(canvas(color, 4, 4), text=WHITE)
    expected = RGBA(*(float(c) for c in color))
    assert found == (pytest.approx(contrast_ratio(WHITE, expected), rel=1e-12), expected)


@pytest.mark.parametrize("alpha", [0.25, 0.5, 0.8])
def test_translucent_text_is_blended_with_each_pixel(alpha: float) -> None:
    text = RGBA(0.0, 0.0, 0.0, alpha)
    found = measure(canvas(200, 4, 4), text=text)
    assert found is not None
    assert found[0] == pytest.approx(contrast_ratio(text, grey(200.0)), rel=1e-12)


# --- which pixels are background --------------------------------------------------------------


def band(width: int, shade: int = 0) -> np.ndarray:
    """White, with a vertical band of ``shade`` ``width`` device pixels wide."""
    pixels = canvas(255, 60, 80)
    pixels[:, 20 : 20 + width] = shade
    return pixels


@pytest.mark.parametrize(
    ("font_px", "dpr", "widest_stroke"),
    [
        (4.0, 1.0, 6),  # never less than a 1 px stroke: 2 px around, 1 px of fringe
        (8.0, 1.0, 8),
        (16.0, 1.0, 10),
        (24.0, 1.0, 12),
        (16.0, 2.0, 16),  # HiDPI: wider strokes, and 2 px of fringe
        (4.0, 2.0, 10),
    ],
)
def test_a_band_of_the_text_colour_is_a_stroke_up_to_a_width_set_by_the_font_size(
    font_px: float, dpr: float, widest_stroke: int
) -> None:
    """Text-coloured pixels no wider than a stroke (and its fringe) are glyphs, not
    background; a wider region of the text's colour is background, and fails the text."""
    stroke = measure(band(widest_stroke), font_px=font_px, dpr=dpr)
    assert stroke == (21.0, WHITE)
    region = measure(band(widest_stroke + 1), font_px=font_px, dpr=dpr)
    assert region == (1.0, BLACK)


def test_background_a_little_lower_than_its_neighbourhoods_best_is_not_background() -> None:
    # Grey 180 beside white is an anti-aliased edge (10:1 where white is 21:1): not kept.
    assert measure(band(2, shade=180)) == (21.0, WHITE)


def test_the_fringe_of_a_glyph_is_dropped_one_pixel_around_it() -> None:
    for stroke in (0, 60):  # black, and a dark grey at least halfway to the text colour
        pixels = band(2, shade=stroke)
        pixels[:, 22] = 230  # right next to the stroke: fringe
        assert measure(pixels) == (21.0, WHITE)
        pixels = band(2, shade=stroke)
        pixels[:, 23] = 230  # one pixel further: background
        assert measure(pixels) == over(grey(230.0))


def test_text_on_its_own_colour_counts_every_pixel() -> None:
    # Nothing in the box reaches 1.5:1 with the text: no glyphs can be told apart, so even the
    # pixels a shade off count as background.
    pixels = canvas(30, 40, 60)
    pixels[:, 10:12] = 20
    text = grey(30.0)
    assert measure(pixels, text=text) == (1.0, text)
