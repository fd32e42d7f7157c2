"""Colour parsing and maths: every CSS Color 4 syntax, bad colours, WCAG contrast, compositing."""

from __future__ import annotations

import math

import pytest

from argus.color import (
    RGBA,
    composite,
    contrast_ratio,
    delta_e_2000,
    from_components,
    parse_color,
    relative_luminance,
    to_hex,
)
from argus.errors import InputError

WHITE = RGBA(255, 255, 255)
BLACK = RGBA(0, 0, 0)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("#abc", "#aabbcc"),
        ("#ABCD", "#aabbccdd"),
        ("#1a4dbd", "#1a4dbd"),
        ("#1a4dbd80", "#1a4dbd80"),
        ("rgb(17, 17, 20)", "#111114"),
        ("rgba(0, 0, 0, 0)", "#00000000"),
        ("rgba(17, 17, 20, 0.5)", "#11111480"),
        ("rgb(17 17 20 / 50%)", "#11111480"),
        ("rgb(100%, 0%, 50%)", "#ff0080"),
        ("RGB(255 0 0)", "#ff0000"),
        ("hsl(120 100% 25%)", "#008000"),
        ("hsl(120deg, 100%, 25%)", "#008000"),
        ("hsla(0, 100%, 50%, 0.5)", "#ff000080"),
        ("hwb(0 0% 0%)", "#ff0000"),
        ("hwb(120 20% 20%)", "#33cc33"),
        ("lab(54.2905 80.8049 69.891)", "#ff0000"),  # CSS lab() is D50
        ("lch(54.2905 106.837 40.8577)", "#ff0000"),
        ("oklab(0.62796 0.22486 0.12585)", "#ff0000"),
        ("oklch(0.62796 0.25768 29.2339)", "#ff0000"),
        ("color(srgb 0 0.5 1)", "#0080ff"),
        ("rebeccapurple", "#663399"),
        ("White", "#ffffff"),
        ("transparent", "#00000000"),
        ("  #fff  ", "#ffffff"),
        # CSS clamps out-of-range sRGB syntax values at parse time.
        ("rgb(300 -5 0)", "#ff0000"),
        # `none` components count as zero.
        ("rgb(none 255 0)", "#00ff00"),
    ],
)
def test_parse_every_css_color_syntax(text: str, expected: str) -> None:
    assert to_hex(parse_color(text)) == expected


@pytest.mark.parametrize(
    "text",
    ["oklch(0.9 0.4 30)", "color(display-p3 1 0 0)", "lab(50 150 -150)"],
)
def test_wide_gamut_colours_are_gamut_mapped_not_clipped(text: str) -> None:
    mapped = parse_color(text)
    for channel in (mapped.r, mapped.g, mapped.b):
        assert 0 <= channel <= 255
    # Clipping display-p3 red gives pure #ff0000; the CSS gamut map keeps hue and lightness by
    # reducing chroma instead, so green and blue rise above zero.
    if text.startswith("color(display-p3"):
        assert mapped.r == 255 and mapped.g > 5 and mapped.b > 5


def test_object_form() -> None:
    assert parse_color({"r": 11, "g": 11, "b": 15, "a": 1}) == RGBA(11, 11, 15, 1)
    assert parse_color({"r": 11, "g": 11, "b": 15}) == RGBA(11, 11, 15, 1)
    assert parse_color({"r": 0, "g": 0, "b": 0, "a": 0.25}).a == 0.25


@pytest.mark.parametrize(
    "value",
    [
        "",
        "#ggg",
        "#12345",
        "nope",
        "rgb(1, 2)",
        "red blah",
        "currentcolor",
        "var(--accent)",
        42,
        None,
        ["#fff"],
        {"r": 1, "g": 2},
        {"r": 1, "g": 2, "b": 3, "x": 4},
        {"r": 256, "g": 0, "b": 0},
        {"r": 0, "g": 0, "b": 0, "a": 2},
        {"r": "1", "g": 0, "b": 0},
        {"r": True, "g": 0, "b": 0},
    ],
)
def test_bad_colours_raise_input_error_naming_the_value(value: object) -> None:
    with pytest.raises(InputError) as err:
        parse_color(value)
    message = str(err.value)
    assert "\n" not in message
    assert repr(value)[:20] in message


def test_parse_is_cached_for_repeated_computed_style_strings() -> None:
    assert parse_color("rgb(1, 2, 3)") is parse_color("rgb(1, 2, 3)")


def test_from_components_uses_coloraide_spaces() -> None:
    assert to_hex(from_components("hsl", [120, 1.0, 0.25])) == "#008000"
    assert to_hex(from_components("srgb", [math.nan, 1, 0])) == "#00ff00"
    with pytest.raises(ValueError, match="unknown colour space"):
        from_components("cmyk", [0, 0, 0])


@pytest.mark.parametrize(
    ("fg", "bg", "expected"),
    [
        ("#000", "#fff", 21.0),
        ("#fff", "#fff", 1.0),
        ("#767676", "#fff", 4.54),
        ("#777777", "#fff", 4.48),
        ("#595959", "#fff", 7.0),
        ("#0000ff", "#fff", 8.59),
        ("#ff0000", "#fff", 4.0),
    ],
)
def test_contrast_ratio_matches_known_wcag_values(fg: str, bg: str, expected: float) -> None:
    ratio = contrast_ratio(parse_color(fg), parse_color(bg))
    assert ratio == pytest.approx(expected, abs=0.005)
    # Symmetric: order does not matter for the ratio.
    assert contrast_ratio(parse_color(bg), parse_color(fg)) == pytest.approx(ratio)


def test_contrast_ratio_is_not_rounded() -> None:
    # #228924 on white is 4.4951...: rounding to two places first would make it 4.50.
    ratio = contrast_ratio(parse_color("#228924"), WHITE)
    assert 4.495 < ratio < 4.4952
    assert ratio < 4.5


def test_contrast_composites_a_translucent_foreground_over_the_background() -> None:
    half_black = RGBA(0, 0, 0, 0.5)
    expected = contrast_ratio(composite(half_black, WHITE), WHITE)
    assert contrast_ratio(half_black, WHITE) == pytest.approx(expected)
    assert contrast_ratio(half_black, WHITE) < contrast_ratio(BLACK, WHITE)
    assert contrast_ratio(RGBA(0, 0, 0, 0), WHITE) == pytest.approx(1.0)


def test_contrast_refuses_a_translucent_background() -> None:
    with pytest.raises(ValueError, match="opaque background"):
        contrast_ratio(BLACK, RGBA(255, 255, 255, 0.5))


def test_composite_source_over() -> None:
    assert composite(RGBA(0, 0, 0, 0.5), WHITE) == RGBA(127.5, 127.5, 127.5, 1.0)
    assert composite(BLACK, WHITE) == BLACK
    assert composite(RGBA(10, 20, 30, 0.3), RGBA(0, 0, 0, 0)) == RGBA(10, 20, 30, 0.3)
    # Two translucent layers: alpha = a1 + a2 (1 - a1); colour weighted by coverage.
    stacked = composite(RGBA(255, 0, 0, 0.5), RGBA(0, 0, 255, 0.5))
    assert stacked.a == pytest.approx(0.75)
    assert stacked.r == pytest.approx(255 * 0.5 / 0.75)
    assert stacked.b == pytest.approx(255 * 0.25 / 0.75)
    # Over an opaque base the result is exactly opaque.
    assert composite(RGBA(1, 2, 3, 0.7), WHITE).a == 1.0


def test_relative_luminance_extremes() -> None:
    assert relative_luminance(BLACK) == 0.0
    assert relative_luminance(WHITE) == pytest.approx(1.0)


def test_delta_e_2000() -> None:
    assert delta_e_2000(WHITE, WHITE) == 0.0
    assert delta_e_2000(WHITE, BLACK) == pytest.approx(100.0)
    # A barely visible tint is a small difference; a different hue is a large one.
    assert 0 < delta_e_2000(parse_color("#111114"), parse_color("#111111")) < 2
    assert delta_e_2000(parse_color("#ff0000"), parse_color("#0000ff")) > 40


@pytest.mark.parametrize(
    ("color", "expected"),
    [
        (RGBA(255, 0, 0), "#ff0000"),
        (RGBA(0, 0, 0, 0.5), "#00000080"),
        (RGBA(1.4, 1.6, 0), "#010200"),
    ],
)
def test_to_hex(color: RGBA, expected: str) -> None:
    assert to_hex(color) == expected


@pytest.mark.parametrize(
    "kwargs",
    [{"r": -1, "g": 0, "b": 0}, {"r": 0, "g": 256, "b": 0}, {"r": 0, "g": 0, "b": 0, "a": 1.5}],
)
def test_rgba_rejects_out_of_range_channels(kwargs: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        RGBA(**kwargs)
