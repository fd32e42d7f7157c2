"""text-shadow as Chromium computes it: parsing, and which shadows touch or surround glyphs."""

from __future__ import annotations

import pytest

from argus.color import RGBA
from argus.errors import InputError
from argus.gates._text_shadow import TextShadow, parse_text_shadows

BLACK = RGBA(0.0, 0.0, 0.0, 1.0)


def shadow(x: float, y: float, blur: float) -> TextShadow:
    return TextShadow(BLACK, x, y, blur)


def test_each_length_lands_in_its_place() -> None:
    (one,) = parse_text_shadows("rgb(255, 0, 0) 1px -2px 3.5px")
    assert one == TextShadow(RGBA(255.0, 0.0, 0.0, 1.0), 1.0, -2.0, 3.5)


@pytest.mark.parametrize("value", ["1px 2px", "rgb(255, 0, 0) 1px 2px", "1px 2px rgb(255, 0, 0)"])
def test_two_lengths_are_the_offsets_and_no_blur(value: str) -> None:
    (one,) = parse_text_shadows(value)
    assert (one.x, one.y, one.blur) == (1.0, 2.0, 0.0)


@pytest.mark.parametrize("value", ["1px 1px 2px", "  1px 1px 2px  "])
def test_a_shadow_without_a_colour_is_opaque_black(value: str) -> None:
    (one,) = parse_text_shadows(value)
    assert one.color == BLACK


def test_a_colour_at_either_end_is_read() -> None:
    first, last = parse_text_shadows("rgba(0, 0, 255, 0.5) 0px 0px 2px, 0px 0px 2px rgb(0, 128, 0)")
    assert first.color == RGBA(0.0, 0.0, 255.0, 0.5)
    assert last.color == RGBA(0.0, 128.0, 0.0, 1.0)


@pytest.mark.parametrize(
    "value",
    [
        "rgb(0, 0, 0) 1px",  # one offset only
        "1px",
        "rgb(0, 0, 0)",
        "red blue 1px 1px",  # two colours
        "red blue green 1px 1px",  # three colours
        "rgb(0, 0, 0) 1em 1px",  # not px: not an offset, and a second "colour"
        "notacolour 1px 1px",
    ],
)
def test_malformed_shadows_are_refused(value: str) -> None:
    with pytest.raises(InputError):
        parse_text_shadows(value)


@pytest.mark.parametrize("value", ["none", "", "   ", " none "])
def test_no_shadow(value: str) -> None:
    assert parse_text_shadows(value) == []


@pytest.mark.parametrize(
    ("x", "y", "blur", "font_px", "touches"),
    [
        (3, 0, 2, 12, True),  # exactly blur + one stroke (1 px at 12 px): still touching
        (3.01, 0, 2, 12, False),
        (0, -3, 2, 12, True),  # either axis, either direction
        (-3.01, 0, 2, 12, False),
        (1.5, 0, 0, 12, False),  # the stroke is 1 px at 12 px, never less
        (1.5, 0, 0, 6, False),  # ... and never less than 1 px on small text
        (1, 0, 0, 6, True),
        (2, 0, 0, 24, True),  # 24 px text: a 2 px stroke
        (2.01, 0, 0, 24, False),
        (10, 0, 0, 24, False),
    ],
)
def test_a_shadow_touches_within_its_blur_plus_one_stroke(
    x: float, y: float, blur: float, font_px: float, touches: bool
) -> None:
    assert shadow(x, y, blur).touches(font_px) is touches


@pytest.mark.parametrize(
    ("x", "y", "blur", "surrounds"),
    [
        (0, 0, 0, False),  # no blur: a copy under the glyphs, not a halo
        (0, 0, 1, True),
        (3, 4, 10, True),  # offset 5 = half the blur: still all round
        (3, 4, 9.99, False),
        (3, 0, 4, False),  # the offset counts on each axis
        (0, 3, 4, False),
        (3, 4, 6, False),
    ],
)
def test_a_halo_is_blurred_and_offset_by_at_most_half_its_blur(
    x: float, y: float, blur: float, surrounds: bool
) -> None:
    assert shadow(x, y, blur).surrounds() is surrounds


def test_commas_inside_a_colour_do_not_split_shadows() -> None:
    shadows = parse_text_shadows("rgba(1, 2, 3, 0.5) 1px 1px 0px, rgb(4, 5, 6) 2px 2px 1px")
    assert [(s.color, s.x) for s in shadows] == [
        (RGBA(1.0, 2.0, 3.0, 0.5), 1.0),
        (RGBA(4.0, 5.0, 6.0, 1.0), 2.0),
    ]
