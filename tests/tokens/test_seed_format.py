"""The seed's tokens.json shape: flat and appearance-split colours, scales, fonts, bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from argus.color import RGBA, to_hex
from argus.errors import InputError
from argus.tokens import ALL_APPEARANCES, load_tokens
from tests.conftest import SHARED
from tests.tokens.conftest import WriteTokens

SEED_TEMPLATE = {
    "_comment": "generated",
    "colors": {
        "surface": {"light": "#FFFFFF", "dark": "#0B0B0F"},
        "textPrimary": {"light": "#111114", "dark": {"r": 245, "g": 245, "b": 247, "a": 1}},
        "primary": "#1A4DBD",
        "overlay": {"r": 0, "g": 0, "b": 0, "a": 0.5},
    },
    "spacing": {"xs": 4, "sm": 8, "md": 16},
    "type": {"body": 16, "title": 22, "display": "2rem"},
    "radii": {"sm": "4px"},
    "fonts": {"body": ["Inter", "Helvetica Neue", "sans-serif"], "mono": "ui-monospace"},
}


def test_seed_shape_loads(write_tokens: WriteTokens) -> None:
    tokens = load_tokens(write_tokens(SEED_TEMPLATE))
    assert tokens.format == "argus"
    assert tokens.appearances == ("light", "dark")
    assert to_hex(tokens.color("surface", "dark")) == "#0b0b0f"
    assert to_hex(tokens.color("textPrimary", "dark")) == "#f5f5f7"
    # A flat colour serves every appearance.
    assert tokens.colors["primary"] == {ALL_APPEARANCES: tokens.color("primary", "light")}
    assert tokens.color("primary", "dark") == tokens.color("primary", "light")
    assert tokens.color("overlay", "light") == RGBA(0, 0, 0, 0.5)
    assert tokens.spacing == {"xs": 4.0, "sm": 8.0, "md": 16.0}
    assert tokens.type_scale == {"body": 16.0, "title": 22.0, "display": 32.0}
    assert tokens.radii == {"sm": 4.0}
    assert tokens.font_families == {
        "body": 'Inter, "Helvetica Neue", sans-serif',
        "mono": "ui-monospace",
    }


def test_palette_per_appearance(write_tokens: WriteTokens) -> None:
    tokens = load_tokens(write_tokens(SEED_TEMPLATE))
    light = tokens.palette("light")
    assert set(light) == {"surface", "textPrimary", "primary", "overlay"}
    assert to_hex(light["surface"]) == "#ffffff"
    assert to_hex(tokens.palette("dark")["surface"]) == "#0b0b0f"
    with pytest.raises(InputError, match="no appearance 'dim'"):
        tokens.palette("dim")


def test_unsplit_file_has_no_appearances_and_serves_any(write_tokens: WriteTokens) -> None:
    tokens = load_tokens(write_tokens({"colors": {"ink": "#000", "paper": "#fff"}}))
    assert tokens.appearances == ()
    assert to_hex(tokens.color("ink", "dark")) == "#000000"
    assert set(tokens.palette("anything")) == {"ink", "paper"}


def test_unknown_token_names_the_file_and_token(write_tokens: WriteTokens) -> None:
    path = write_tokens(SEED_TEMPLATE)
    with pytest.raises(InputError, match=r"tokens\.json: no colour token 'missing'"):
        load_tokens(path).color("missing", "light")


def test_the_seed_template_loads(write_tokens: WriteTokens) -> None:
    seeds = sorted((SHARED / "seeds").glob("000_*.txt"))
    if not seeds:
        pytest.skip("the seed documents are not next to this checkout")
    text = seeds[0].read_text(encoding="utf-8")
    marker = "skills/argus/references/_template/tokens.json\n\n"
    start = text.index(marker) + len(marker)
    doc = json.loads(text[start : text.index("\n}\n", start) + 2])
    tokens = load_tokens(write_tokens(doc))
    assert tokens.appearances == ("light", "dark")
    assert to_hex(tokens.color("textMuted", "dark")) == "#8e8e93"
    assert tokens.type_scale["display"] == 34.0


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ({"colors": {"a": "#ggg"}}, "token 'colors.a': bad colour '#ggg'"),
        ({"colors": {"a": {"light": "#fff", "dark": "nope"}}}, "token 'colors.a.dark': bad colour"),
        (
            {"colors": {"a": {"light": "#fff", "dark": "#000"}, "b": {"light": "#fff"}}},
            "colour token 'b' has no 'dark' value",
        ),
        ({"colors": {"a": {}}}, "colour token 'a' has no value"),
        ({"colors": []}, "'colors' must be an object"),
        ({"colors": {}, "spacing": {"sm": "8em"}}, "token 'spacing.sm': '8em' uses unit 'em'"),
        ({"colors": {}, "spacing": {"sm": -2}}, "token 'spacing.sm'"),
        ({"colors": {}, "type": {"body": True}}, "token 'type.body'"),
        ({"colors": {}, "fonts": {"body": 12}}, "token 'fonts.body'"),
        ({"colors": {}, "colours": {}}, "unknown tokens section 'colours'"),
        ({"spacing": {}}, "not a tokens file"),
        ([], "must be a JSON object"),
    ],
)
def test_bad_seed_files_are_one_line_input_errors(
    write_tokens: WriteTokens, doc: Any, message: str
) -> None:
    path = write_tokens(doc)
    with pytest.raises(InputError) as err:
        load_tokens(path)
    assert message in str(err.value)
    assert str(path) in str(err.value)
    assert "\n" not in str(err.value)


def test_unreadable_files(write_tokens: WriteTokens, tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not found"):
        load_tokens(tmp_path / "absent.json")
    with pytest.raises(InputError, match="not valid JSON"):
        load_tokens(write_tokens("{nope"))
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (5 * 1024 * 1024 + 1))
    with pytest.raises(InputError, match="over the 5 MiB limit"):
        load_tokens(big)


def test_nearest_helpers(write_tokens: WriteTokens) -> None:
    tokens = load_tokens(write_tokens(SEED_TEMPLATE))
    name, distance = tokens.nearest_color(RGBA(0x11, 0x11, 0x14), "light") or ("", -1)
    assert (name, distance) == ("textPrimary", 0.0)
    name, distance = tokens.nearest_color(RGBA(0x0C, 0x0B, 0x0F), "dark") or ("", -1)
    assert name == "surface" and 0 < distance < 1
    # Opacity counts: opaque black is not the half-transparent overlay token.
    name, distance = tokens.nearest_color(RGBA(0, 0, 0, 0.5), "light") or ("", -1)
    assert (name, distance) == ("overlay", 0.0)
    assert tokens.nearest_color(RGBA(0, 0, 0), "light") != ("overlay", 0.0)
    assert tokens.nearest_spacing(9) == ("sm", 1.0)
    assert tokens.nearest_spacing(16) == ("md", 0.0)
    assert tokens.nearest_type_size(21) == ("title", 1.0)
    assert tokens.nearest_radius(3) == ("sm", 1.0)
    empty = load_tokens(write_tokens({"colors": {}}, "empty.json"))
    assert empty.nearest_spacing(8) is None
    assert empty.nearest_color(RGBA(0, 0, 0), "light") is None
