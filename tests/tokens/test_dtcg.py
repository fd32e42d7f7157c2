"""W3C DTCG token files: groups, $type inheritance, aliases, cycles, appearances, scales."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from argus.color import RGBA, to_hex
from argus.errors import InputError
from argus.tokens import ALL_APPEARANCES, load_tokens
from tests.tokens.conftest import WriteTokens


def hexes(colors: Any) -> dict[str, dict[str, str]]:
    return {name: {a: to_hex(c) for a, c in by.items()} for name, by in colors.items()}


def test_groups_type_inheritance_and_flattened_names(write_tokens: WriteTokens) -> None:
    doc = {
        "$description": "brand",
        "color": {
            "$type": "color",
            "brand": {"blue": {"$value": "#1a4dbd", "$description": "primary"}},
            "neutral": {"0": {"$value": "#ffffff"}, "900": {"$value": "rgb(17 17 20)"}},
        },
        "space": {"$type": "dimension", "sm": {"$value": "8px"}, "md": {"$value": "1rem"}},
    }
    tokens = load_tokens(write_tokens(doc))
    assert tokens.format == "dtcg"
    assert tokens.appearances == ()
    assert hexes(tokens.colors) == {
        "color.brand.blue": {"*": "#1a4dbd"},
        "color.neutral.0": {"*": "#ffffff"},
        "color.neutral.900": {"*": "#111114"},
    }
    assert tokens.spacing == {"space.sm": 8.0, "space.md": 16.0}


def test_a_tokens_own_type_beats_the_groups(write_tokens: WriteTokens) -> None:
    doc = {
        "size": {
            "$type": "color",
            "inner": {"font-size": {"body": {"$type": "dimension", "$value": "15px"}}},
            "tint": {"$value": "#abcdef"},
        }
    }
    tokens = load_tokens(write_tokens(doc))
    assert tokens.type_scale == {"size.inner.font-size.body": 15.0}
    assert list(tokens.colors) == ["size.tint"]


@pytest.mark.parametrize(
    ("value", "px"),
    [
        ("16px", 16.0),
        ("1.5rem", 24.0),
        ({"value": 12, "unit": "px"}, 12.0),
        ({"value": 0.5, "unit": "rem"}, 8.0),
        (4, 4.0),
    ],
)
def test_dimension_forms(write_tokens: WriteTokens, value: Any, px: float) -> None:
    doc = {"spacing": {"x": {"$type": "dimension", "$value": value}}}
    assert load_tokens(write_tokens(doc)).spacing == {"spacing.x": px}


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ({"colorSpace": "srgb", "components": [1, 0, 0]}, "#ff0000"),
        (
            {"colorSpace": "srgb", "components": [0, 0, 1], "alpha": 0.5, "hex": "#0000ff"},
            "#0000ff80",
        ),
        ({"colorSpace": "hsl", "components": [120, 100, 25]}, "#008000"),
        ({"colorSpace": "hsl", "components": ["none", 0, 100]}, "#ffffff"),
        ({"colorSpace": "hwb", "components": [0, 0, 0]}, "#ff0000"),
        ({"colorSpace": "oklch", "components": [0.62796, 0.25768, 29.2339]}, "#ff0000"),
        ({"colorSpace": "display-p3", "components": [1, 1, 1]}, "#ffffff"),
        ("oklch(0.62796 0.25768 29.2339)", "#ff0000"),
    ],
)
def test_colour_value_forms(write_tokens: WriteTokens, value: Any, expected: str) -> None:
    doc = {"c": {"$type": "color", "$value": value}}
    assert to_hex(load_tokens(write_tokens(doc)).color("c", "light")) == expected


def test_aliases_resolve_transitively_and_untyped_aliases_take_the_targets_type(
    write_tokens: WriteTokens,
) -> None:
    doc = {
        "base": {"blue": {"$type": "color", "$value": "#1a4dbd"}},
        "color": {
            "accent": {"$value": "{base.blue}"},
            "link": {"$type": "color", "$value": "{color.accent}"},
            "focus": {"$value": "{color.link}"},
        },
        "size": {"base": {"$type": "dimension", "$value": "4px"}},
        "spacing": {"xs": {"$value": "{size.base}"}},
    }
    tokens = load_tokens(write_tokens(doc))
    for name in ("color.accent", "color.link", "color.focus"):
        assert to_hex(tokens.color(name, "light")) == "#1a4dbd"
    assert tokens.spacing == {"spacing.xs": 4.0}


def test_aliases_inside_a_typography_token(write_tokens: WriteTokens) -> None:
    doc = {
        "font": {
            "family": {"sans": {"$type": "fontFamily", "$value": ["Inter", "sans-serif"]}},
            "size": {"lg": {"$type": "dimension", "$value": "20px"}},
        },
        "typography": {
            "heading": {
                "$type": "typography",
                "$value": {
                    "fontFamily": "{font.family.sans}",
                    "fontSize": "{font.size.lg}",
                    "fontWeight": 700,
                },
            }
        },
    }
    tokens = load_tokens(write_tokens(doc))
    assert tokens.type_scale == {"font.size.lg": 20.0, "typography.heading": 20.0}
    assert tokens.font_families == {
        "font.family.sans": "Inter, sans-serif",
        "typography.heading": "Inter, sans-serif",
    }


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ({"a": {"$type": "color", "$value": "{a}"}}, "alias cycle {a} -> {a}"),
        (
            {"c": {"$type": "color", "a": {"$value": "{c.b}"}, "b": {"$value": "{c.a}"}}},
            "alias cycle {c.a} -> {c.b} -> {c.a}",
        ),
        (
            {
                "x": {"$type": "color", "$value": "{y}"},
                "y": {"$value": "{z}"},
                "z": {"$value": "{y}"},
            },
            "alias cycle {y} -> {z} -> {y}",
        ),
        (
            {"c": {"$type": "color", "link": {"$value": "{color.text.primary}"}}},
            "token 'c.link' refers to {color.text.primary}, which is not defined",
        ),
        (
            {"c": {"$type": "color", "a": {"$value": "{c}"}}},
            "token 'c.a' refers to {c}, which is not defined",
        ),
        ({"c": {"$type": "color", "$value": "#12"}}, "token 'c': bad colour '#12'"),
        (
            {"c": {"$type": "color", "$value": {"colorSpace": "cmyk", "components": [0, 0, 0]}}},
            "colorSpace 'cmyk'",
        ),
        (
            {"c": {"$type": "color", "$value": {"colorSpace": "srgb", "components": [0, 0]}}},
            "components",
        ),
        (
            {"s": {"$type": "dimension", "space": {"$value": "1em"}}},
            "token 's.space': '1em' uses unit 'em'",
        ),
        (
            {"c": {"$value": "#fff", "child": {"$value": "#000"}}},
            "token 'c' has $value and a child 'child'",
        ),
        ({"c": {"a.b": {"$value": "#fff"}}}, "name 'a.b' in 'c' contains"),
        ({"c": {"x": "#fff", "y": {"$value": "#000"}}}, "'c.x' is neither a token"),
        ({"c": {"$value": "#fff", "$extensions": {"mode": "dark"}}}, "$extensions.mode must map"),
    ],
)
def test_bad_dtcg_files_are_one_line_input_errors(
    write_tokens: WriteTokens, doc: Any, message: str
) -> None:
    path = write_tokens(doc)
    with pytest.raises(InputError) as err:
        load_tokens(path)
    assert message in str(err.value)
    assert str(err.value).startswith(str(path))
    assert "\n" not in str(err.value)


def test_appearances_from_extensions_mode_with_aliases_per_mode(write_tokens: WriteTokens) -> None:
    doc = {
        "color": {
            "$type": "color",
            "white": {"$value": "#ffffff"},
            "ink": {"$value": "#0b0b0f"},
            "surface": {
                "$value": "{color.white}",
                "$extensions": {"mode": {"light": "{color.white}", "dark": "{color.ink}"}},
            },
            "text": {"$value": "#111114", "$extensions": {"mode": {"dark": "#f5f5f7"}}},
            # A shared alias follows the appearance being resolved.
            "card": {"$value": "{color.surface}"},
        }
    }
    tokens = load_tokens(write_tokens(doc))
    assert tokens.appearances == ("light", "dark")
    assert hexes(tokens.colors) == {
        "color.white": {"*": "#ffffff"},
        "color.ink": {"*": "#0b0b0f"},
        "color.surface": {"light": "#ffffff", "dark": "#0b0b0f"},
        # `$value` is the fallback for appearances `mode` does not list.
        "color.text": {"light": "#111114", "dark": "#f5f5f7"},
        "color.card": {"light": "#ffffff", "dark": "#0b0b0f"},
    }


def test_appearances_from_top_level_groups(write_tokens: WriteTokens) -> None:
    doc = {
        "light": {"color": {"$type": "color", "bg": {"$value": "#fff"}, "fg": {"$value": "#111"}}},
        "dark": {"color": {"$type": "color", "bg": {"$value": "#000"}, "fg": {"$value": "#eee"}}},
        "dark-high-contrast": {
            "color": {"$type": "color", "bg": {"$value": "#000"}, "fg": {"$value": "#fff"}}
        },
        "shared": {
            "$type": "color",
            "button": {"$value": "{color.fg}"},
            "brand": {"$value": "#1a4dbd"},
        },
        "spacing": {"$type": "dimension", "md": {"$value": "16px"}},
    }
    tokens = load_tokens(write_tokens(doc))
    assert tokens.appearances == ("light", "dark", "dark-high-contrast")
    assert hexes(tokens.colors)["color.bg"] == {
        "light": "#ffffff",
        "dark": "#000000",
        "dark-high-contrast": "#000000",
    }
    assert hexes(tokens.colors)["shared.button"] == {
        "light": "#111111",
        "dark": "#eeeeee",
        "dark-high-contrast": "#ffffff",
    }
    assert tokens.colors["shared.brand"] == {ALL_APPEARANCES: RGBA(0x1A, 0x4D, 0xBD)}
    assert tokens.spacing == {"spacing.md": 16.0}


def test_an_appearance_group_that_lacks_an_alias_target_is_named(write_tokens: WriteTokens) -> None:
    doc = {
        "light": {"c": {"$type": "color", "fg": {"$value": "#111"}}},
        "dark": {"c": {"$type": "color", "bg": {"$value": "#000"}}},
        "button": {"$type": "color", "$value": "{c.fg}"},
    }
    with pytest.raises(
        InputError, match=r"refers to \{c.fg\}, which is not defined in appearance 'dark'"
    ):
        load_tokens(write_tokens(doc))


def test_sizes_may_not_differ_between_appearances(write_tokens: WriteTokens) -> None:
    doc = {
        "light": {"space": {"$type": "dimension", "md": {"$value": "16px"}}},
        "dark": {"space": {"$type": "dimension", "md": {"$value": "12px"}}},
    }
    with pytest.raises(InputError, match=r"token 'space\.md' differs between appearances"):
        load_tokens(write_tokens(doc))


def test_sizes_are_sorted_into_scales_by_name_or_type(write_tokens: WriteTokens) -> None:
    doc = {
        "$type": "dimension",
        "space": {"sm": {"$value": "8px"}},
        "layout": {"gap": {"lg": {"$value": "24px"}}},
        "font": {"size": {"body": {"$value": "16px"}}},
        "border": {"radius": {"md": {"$value": "6px"}}},
        "icon": {"lg": {"$value": "32px"}},
        "studio": {
            "pad": {"$type": "spacing", "$value": "12"},
            "round": {"$type": "borderRadius", "$value": "3px"},
            "h1": {"$type": "fontSizes", "$value": "40px"},
            "body": {"$type": "fontFamilies", "$value": "Inter"},
            "weight": {"$type": "fontWeight", "$value": 700},
        },
    }
    tokens = load_tokens(write_tokens(doc))
    assert tokens.spacing == {"space.sm": 8.0, "layout.gap.lg": 24.0, "studio.pad": 12.0}
    assert tokens.type_scale == {"font.size.body": 16.0, "studio.h1": 40.0}
    assert tokens.radii == {"border.radius.md": 6.0, "studio.round": 3.0}
    assert tokens.font_families == {"studio.body": "Inter"}
    # `icon.lg` is a size on no scale the gates check: it is not forced onto one.
    assert 32.0 not in {
        *tokens.spacing.values(),
        *tokens.type_scale.values(),
        *tokens.radii.values(),
    }


def test_root_token_names_its_group(write_tokens: WriteTokens) -> None:
    doc = {
        "color": {
            "$type": "color",
            "accent": {"$root": {"$value": "#1a4dbd"}, "hover": {"$value": "#163f9b"}},
        }
    }
    tokens = load_tokens(write_tokens(doc))
    assert set(tokens.colors) == {"color.accent", "color.accent.hover"}


def test_untyped_literals_are_inferred(write_tokens: WriteTokens) -> None:
    doc = {
        "color": {"bg": {"$value": "#ffffff"}},
        "spacing": {"md": {"$value": "16px"}},
        "misc": {"$value": "hello"},
    }
    tokens = load_tokens(write_tokens(doc))
    assert set(tokens.colors) == {"color.bg"}
    assert tokens.spacing == {"spacing.md": 16.0}


def test_a_dtcg_file_with_a_colors_group_is_read_as_dtcg(write_tokens: WriteTokens) -> None:
    doc = {"colors": {"$type": "color", "bg": {"$value": "#fff"}}}
    tokens = load_tokens(write_tokens(doc))
    assert tokens.format == "dtcg"
    assert set(tokens.colors) == {"colors.bg"}


def test_modes_naming_only_dark_keep_the_value_as_light(write_tokens: WriteTokens) -> None:
    doc = {
        "color": {
            "$type": "color",
            "surface": {"$value": "#ffffff", "$extensions": {"mode": {"dark": "#121418"}}},
            "text": {"$value": "#1b1d22", "$extensions": {"mode": {"dark": "#eceef2"}}},
            "accent": {"$value": "#2453c4"},
        }
    }
    tokens = load_tokens(write_tokens(doc))
    # `$value` is the default appearance: without it the light colours would be lost.
    assert tokens.appearances == ("light", "dark")
    assert hexes(tokens.colors) == {
        "color.surface": {"light": "#ffffff", "dark": "#121418"},
        "color.text": {"light": "#1b1d22", "dark": "#eceef2"},
        "color.accent": {"*": "#2453c4"},
    }


def test_contrast_measures_the_value_colours_of_a_dark_only_mode_file(
    write_tokens: WriteTokens, tmp_path: Path
) -> None:
    from argus.tokens.contrast import check_pairs

    doc = {
        "color": {
            "$type": "color",
            "surface": {"$value": "#ffffff", "$extensions": {"mode": {"dark": "#000000"}}},
            # Passes in dark; in the default (light) appearance it is pale grey on white.
            "text": {"$value": "#dddddd", "$extensions": {"mode": {"dark": "#ffffff"}}},
        }
    }
    pairs = tmp_path / "pairs.json"
    pairs.write_text(json.dumps({"pairs": [{"fg": "color.text", "bg": "color.surface"}]}))
    report = check_pairs(load_tokens(write_tokens(doc)), pairs)
    by_appearance = {row.appearance: row.passed for row in report.rows}
    assert by_appearance == {"light": False, "dark": True}
