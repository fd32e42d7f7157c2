"""Type roles (size, weight, line height, letter spacing, kind) from both token shapes."""

from __future__ import annotations

import json
from typing import Any

import pytest

from argus.errors import InputError
from argus.tokens import load_tokens
from argus.tokens._typeroles import TypeRole
from tests.tokens.conftest import WriteTokens


def test_seed_shape_typography_section(write_tokens: WriteTokens) -> None:
    path = write_tokens(
        {
            "colors": {"ink": "#111"},
            "typography": {
                "title": {"size": 28, "weight": "bold", "line_height": 32},
                "total": {"size": "16px", "weight": 700, "line_height": 1.5},
                "caption": {"size": 12, "letter_spacing": "0.05em", "role": "body"},
            },
        }
    )
    roles = load_tokens(path).type_roles
    assert roles["title"] == TypeRole("title", 28, "heading", 700, 32, None)
    assert roles["total"] == TypeRole("total", 16, "numeric", 700, 24, None)
    assert roles["caption"].kind == "body" and roles["caption"].letter_spacing == pytest.approx(0.6)


def test_dtcg_typography_tokens_are_roles(write_tokens: WriteTokens) -> None:
    path = write_tokens(
        {
            "font": {
                "$type": "typography",
                "heading": {
                    "$value": {
                        "fontFamily": "Inter",
                        "fontSize": "20px",
                        "fontWeight": 600,
                        "lineHeight": 1.6,
                        "letterSpacing": "-0.2px",
                    }
                },
                "body": {"$value": {"fontSize": "1rem", "fontWeight": "regular"}},
            }
        }
    )
    roles = load_tokens(path).type_roles
    assert roles["font.heading"] == TypeRole("font.heading", 20, "heading", 600, 32, -0.2)
    assert roles["font.body"] == TypeRole("font.body", 16, "body", 400, None, None)


def test_a_role_matches_a_rendered_style() -> None:
    role = TypeRole("title", 28, "heading", 700, 32, None)
    assert role.matches(28, 700, 32, 0)
    assert not role.matches(28, 400, 32, 0)  # the weight dropped
    assert not role.matches(28, 700, 40, 0)  # another line height
    assert role.matches(28, 700, None, 0.5)  # "normal" line height, any spacing: not held


@pytest.mark.parametrize(
    "entry", [{"weight": 700}, {"size": 16, "weight": "heavyish"}, {"size": 16, "role": "x"}]
)
def test_bad_roles_are_one_line_input_errors(write_tokens: WriteTokens, entry: dict) -> None:
    path = write_tokens({"colors": {"ink": "#111"}, "typography": {"t": entry}})
    with pytest.raises(InputError, match=r"typography\.t"):
        load_tokens(path)


def test_colour_roles_in_both_shapes(write_tokens: WriteTokens) -> None:
    from argus.tokens.colorroles import ColorRole

    seed = write_tokens(
        {
            "colors": {"danger": "#b3261e", "ink": "#111"},
            "color_roles": {"danger": {"only": ["role=alert", "#remove"]}},
        }
    )
    assert load_tokens(seed).color_roles == {"danger": ColorRole(("role=alert", "#remove"), ())}
    dtcg = write_tokens(
        {
            "color": {
                "$type": "color",
                "surface-light": {
                    "$value": "#ffffff",
                    "$extensions": {"argus": {"appearances": ["light"]}},
                },
            }
        },
        "dtcg.json",
    )
    roles = load_tokens(dtcg).color_roles
    assert roles == {"color.surface-light": ColorRole((), ("light",))}


@pytest.mark.parametrize(
    "doc",
    [
        {"colors": {"ink": "#111"}, "color_roles": {"nope": {"only": ["a"]}}},
        {"colors": {"ink": "#111"}, "color_roles": {"ink": {"where": ["a"]}}},
        {"colors": {"ink": "#111"}, "color_roles": {"ink": {"only": "a"}}},
    ],
)
def test_bad_colour_roles_are_input_errors(write_tokens: WriteTokens, doc: dict) -> None:
    with pytest.raises(InputError, match="color_roles"):
        load_tokens(write_tokens(doc))


def test_tokens_show_lists_the_roles(run_argus: Any) -> None:
    from tests.support.habits import HABITS_DIR

    result = run_argus(
        "tokens", "show", str(HABITS_DIR / "argus/specs/habits/tokens.json"), "--json"
    )
    assert result.returncode == 0, result.stderr
    model = json.loads(result.stdout)
    assert model["typography"]["title"] == {
        "size": 28,
        "kind": "heading",
        "weight": 700,
        "line_height": 32,
        "letter_spacing": None,
    }
    assert model["color_roles"] == {"danger": {"only": ["role=alert"], "appearances": []}}
