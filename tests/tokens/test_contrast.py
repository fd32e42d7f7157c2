"""The declared-pair contrast gate: unrounded ratios, compositing, surfaces, whitelists."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from argus.color import RGBA, composite, contrast_ratio, parse_color
from argus.errors import InputError
from argus.tokens import Tokens, load_tokens
from argus.tokens.contrast import check_pairs, format_ratio, load_pairs

TOKENS = {
    "colors": {
        "surface": {"light": "#ffffff", "dark": "#0b0b0f"},
        "text": {"light": "#111114", "dark": "#f5f5f7"},
        "almost": "#228924",  # 4.4951:1 on white
        "grey": "#767676",  # 4.54:1 on white
        "ink50": "rgba(0, 0, 0, 0.5)",
        "scrim": "rgba(0, 0, 0, 0.6)",
        "muted": {"light": "#595959", "dark": "#3a3a3e"},
    }
}


def setup(tmp_path: Path, pairs: Any, tokens: Any = None) -> tuple[Tokens, Path]:
    tokens_path = tmp_path / "tokens.json"
    tokens_path.write_text(json.dumps(TOKENS if tokens is None else tokens), encoding="utf-8")
    pairs_path = tmp_path / "contrast-pairs.json"
    pairs_path.write_text(json.dumps(pairs), encoding="utf-8")
    return load_tokens(tokens_path), pairs_path


def test_passing_pairs_pass_in_every_appearance(tmp_path: Path) -> None:
    tokens, pairs = setup(tmp_path, {"pairs": [{"fg": "text", "bg": "surface", "min": 4.5}]})
    report = check_pairs(tokens, pairs)
    assert [(r.appearance, r.passed) for r in report.rows] == [("light", True), ("dark", True)]
    assert report.passed
    assert report.rows[0].ratio == pytest.approx(
        contrast_ratio(parse_color("#111114"), parse_color("#fff"))
    )


def test_a_ratio_just_under_the_minimum_fails_unrounded(tmp_path: Path) -> None:
    tokens, pairs = setup(
        tmp_path,
        {"pairs": [{"fg": "almost", "bg": "surface", "min": 4.5}, {"fg": "grey", "bg": "surface"}]},
    )
    report = check_pairs(tokens, pairs, appearances=("light",))
    almost, grey = report.rows
    # Rounded to two places (as the seed does) 4.4951 would be 4.50 and pass.
    assert round(almost.ratio, 2) == 4.5
    assert 4.495 < almost.ratio < 4.5
    assert not almost.passed and almost.status == "fail"
    assert grey.passed and grey.minimum == 4.5  # default minimum
    assert not report.passed
    assert report.failures == (almost,)


def test_translucent_foreground_is_composited_over_the_background(tmp_path: Path) -> None:
    tokens, pairs = setup(tmp_path, {"pairs": [{"fg": "ink50", "bg": "surface", "min": 3}]})
    light, dark = check_pairs(tokens, pairs).rows
    white, ink = RGBA(255, 255, 255), RGBA(0x0B, 0x0B, 0x0F)
    assert light.ratio == pytest.approx(contrast_ratio(composite(RGBA(0, 0, 0, 0.5), white), white))
    assert dark.ratio == pytest.approx(contrast_ratio(composite(RGBA(0, 0, 0, 0.5), ink), ink))
    # Half-transparent black on white is mid grey: about 3.9, not black's 21.
    assert 3.5 < light.ratio < 4.5
    assert light.passed and not dark.passed


@pytest.mark.parametrize(
    ("surface", "light_base", "dark_base"),
    [
        (None, "#ffffff", "#ffffff"),  # default: white
        ("surface", "#ffffff", "#0b0b0f"),  # a token, per appearance
        ("#808080", "#808080", "#808080"),  # a colour
    ],
)
def test_translucent_background_is_composited_over_the_pairs_surface(
    tmp_path: Path, surface: str | None, light_base: str, dark_base: str
) -> None:
    pair: dict[str, Any] = {"fg": "text", "bg": "scrim", "min": 1}
    if surface is not None:
        pair["surface"] = surface
    tokens, pairs = setup(tmp_path, {"pairs": [pair]})
    light, dark = check_pairs(tokens, pairs).rows
    scrim = RGBA(0, 0, 0, 0.6)
    for row, base, fg in ((light, light_base, "#111114"), (dark, dark_base, "#f5f5f7")):
        background = composite(scrim, parse_color(base))
        assert row.ratio == pytest.approx(contrast_ratio(parse_color(fg), background))


def test_whitelist_as_a_list_of_appearances(tmp_path: Path) -> None:
    # muted on surface: 7.0 in light, about 1.7 in dark.
    pair = {"fg": "muted", "bg": "surface", "min": 4.5, "whitelist": ["dark"], "note": "decorative"}
    tokens, pairs = setup(tmp_path, {"pairs": [pair]})
    light, dark = check_pairs(tokens, pairs).rows
    assert light.passed and not light.whitelisted
    assert not dark.passed and dark.whitelisted and dark.status == "whitelisted"
    assert dark.note == "decorative"
    assert check_pairs(tokens, pairs).passed
    # Without the whitelist the same pair fails.
    _, plain = setup(tmp_path, {"pairs": [{"fg": "muted", "bg": "surface", "min": 4.5}]})
    assert not check_pairs(tokens, plain).passed


def test_whitelist_true_covers_every_appearance(tmp_path: Path) -> None:
    pair = {"fg": "almost", "bg": "surface", "min": 7, "whitelist": True}
    tokens, pairs = setup(tmp_path, {"pairs": [pair]})
    report = check_pairs(tokens, pairs)
    assert all(r.whitelisted and not r.passed for r in report.rows)
    assert report.passed
    # The ratio is still measured and reported.
    assert all(r.ratio > 1 for r in report.rows)


def test_unsplit_tokens_give_one_row_per_pair(tmp_path: Path) -> None:
    tokens, pairs = setup(
        tmp_path,
        {"pairs": [{"fg": "a", "bg": "b", "min": 4.5}]},
        tokens={"colors": {"a": "#000", "b": "#fff"}},
    )
    (row,) = check_pairs(tokens, pairs).rows
    assert row.appearance == "*" and row.ratio == pytest.approx(21.0)


def test_appearance_filter_and_unknown_appearance(tmp_path: Path) -> None:
    tokens, pairs = setup(tmp_path, {"pairs": [{"fg": "text", "bg": "surface"}]})
    assert [r.appearance for r in check_pairs(tokens, pairs, appearances=("dark",)).rows] == [
        "dark"
    ]
    with pytest.raises(InputError, match="no appearance 'dim'"):
        check_pairs(tokens, pairs, appearances=("dim",))


@pytest.mark.parametrize(
    ("pair", "message"),
    [
        ({"fg": "nope", "bg": "surface"}, "pairs[0].fg names colour token 'nope', which"),
        ({"fg": "text", "bg": "nope"}, "pairs[0].bg names colour token 'nope', which"),
        ({"fg": "text", "bg": "surface", "surface": "nope"}, "pairs[0].surface 'nope' is neither"),
    ],
)
def test_a_pair_naming_an_unknown_token_names_the_file_and_token(
    tmp_path: Path, pair: dict[str, Any], message: str
) -> None:
    tokens, pairs = setup(tmp_path, {"pairs": [pair]})
    with pytest.raises(InputError) as err:
        check_pairs(tokens, pairs)
    assert str(err.value).startswith(str(pairs))
    assert message in str(err.value)
    assert str(tokens.source) in str(err.value)


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ([], "must be a JSON object with a 'pairs' list"),
        ({}, "pairs: Field required"),
        ({"pairs": []}, "pairs: List should have at least 1 item"),
        ({"pairs": [{"fg": "a"}]}, "pairs[0].bg: Field required"),
        (
            {"pairs": [{"fg": "a", "bg": "b", "min": "4.5"}]},
            "pairs[0].min: Input should be a valid number",
        ),
        (
            {"pairs": [{"fg": "a", "bg": "b", "min": 0.5}]},
            "pairs[0].min: Input should be greater than or equal to 1",
        ),
        (
            {"pairs": [{"fg": "a", "bg": "b", "min": 22}]},
            "pairs[0].min: Input should be less than or equal to 21",
        ),
        (
            {"pairs": [{"fg": "a", "bg": "b", "whitelist": "dark"}]},
            "pairs[0].whitelist: must be true, false or a list",
        ),
        ({"pairs": [{"fg": "a", "bg": "b", "minimum": 3}]}, "pairs[0].minimum: unknown key"),
        ({"pairs": [{"fg": "", "bg": "b"}]}, "pairs[0].fg"),
    ],
)
def test_bad_pairs_files(tmp_path: Path, doc: Any, message: str) -> None:
    path = tmp_path / "contrast-pairs.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_pairs(path)
    assert str(err.value).startswith(f"{path}: ")
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_comments_are_ignored_and_the_seed_template_shape_is_accepted(tmp_path: Path) -> None:
    doc = {
        "_comment": "declared pairs",
        "pairs": [
            {"fg": "text", "bg": "surface", "min": 4.5},
            {"fg": "muted", "bg": "surface", "min": 3.0, "note": "AA-large", "whitelist": ["dark"]},
            {"fg": "text", "bg": "surface", "_why": "a comment inside a pair"},
        ],
    }
    tokens, pairs = setup(tmp_path, doc)
    assert len(check_pairs(tokens, pairs).rows) == 6


@pytest.mark.parametrize(
    ("ratio", "shown"), [(4.4951, "4.49"), (4.5, "4.50"), (21.0, "21.00"), (4.539999, "4.53")]
)
def test_format_ratio_truncates(ratio: float, shown: str) -> None:
    assert format_ratio(ratio) == shown


def test_a_whitelist_naming_an_unknown_appearance_names_the_file_and_it(tmp_path: Path) -> None:
    pair = {"fg": "muted", "bg": "surface", "min": 4.5, "whitelist": ["drak"]}
    tokens, pairs = setup(tmp_path, {"pairs": [pair]})
    with pytest.raises(InputError) as err:
        check_pairs(tokens, pairs)
    message = str(err.value)
    assert message.startswith(str(pairs)) and "appearance 'drak'" in message
    assert "pairs[0].whitelist" in message and "light, dark" in message


def test_lint_reports_a_whitelist_naming_an_unknown_appearance(tmp_path: Path) -> None:
    from argus.spec import lint_spec
    from tests.spec.project import PAIRS, make_project, write_json

    spec = make_project(tmp_path / "repo")
    pairs = spec.parent / "contrast-pairs.json"
    write_json(pairs, {"pairs": [{**PAIRS["pairs"][0], "whitelist": ["drak"]}]})
    (issue,) = lint_spec(spec).errors
    assert "appearance 'drak'" in issue.message and "contrast-pairs.json" in issue.message


@pytest.mark.parametrize(
    ("minimum", "accepted"), [(1, True), (21, True), (0.99, False), (21.01, False)]
)
def test_a_minimum_is_a_contrast_ratio_from_1_to_21(
    tmp_path: Path, minimum: float, accepted: bool
) -> None:
    path = tmp_path / "contrast-pairs.json"
    path.write_text(json.dumps({"pairs": [{"fg": "a", "bg": "b", "min": minimum}]}), "utf-8")
    if accepted:
        (pair,) = load_pairs(path)
        assert pair.minimum == minimum
    else:
        with pytest.raises(InputError):
            load_pairs(path)


def test_the_report_names_each_row_and_both_files(tmp_path: Path) -> None:
    tokens, pairs = setup(
        tmp_path,
        {
            "_comment": "ignored",
            "pairs": [
                {"fg": "text", "bg": "surface", "min": 4.5, "note": "body", "$x": 1},
                {"fg": "almost", "bg": "surface", "whitelist": ["dark"]},
            ],
        },
    )
    report = check_pairs(tokens, pairs, appearances=("light",))
    data = report.as_json()
    assert data["tokens"] == str(tokens.source) and data["pairs_file"] == str(pairs)
    assert (data["passed"], data["failures"]) == (False, 1)
    first, second = data["pairs"]
    assert {k: first[k] for k in ("fg", "bg", "appearance", "min", "note", "status")} == {
        "fg": "text",
        "bg": "surface",
        "appearance": "light",
        "min": 4.5,
        "note": "body",
        "status": "pass",
    }
    assert (second["fg"], second["status"], second["whitelisted"]) == ("almost", "fail", False)


@pytest.mark.parametrize(
    ("doc", "where"),
    [
        ({"pairs": [{"fg": "a", "bg": "b", "min": "x"}]}, "pairs[0].min"),
        ({"pairs": [{"fg": "a", "bg": "b"}, {"fg": "a"}]}, "pairs[1].bg"),
        ({"pairs": [{"fg": "a", "bg": "b", "min": 1}], "extra": {"a": 1}}, "extra"),
    ],
)
def test_bad_pairs_name_where_in_the_file(tmp_path: Path, doc: Any, where: str) -> None:
    path = tmp_path / "contrast-pairs.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_pairs(path)
    assert str(err.value).startswith(f"{path}: {where}")


def test_a_row_in_json_has_every_field(tmp_path: Path) -> None:
    tokens, pairs = setup(tmp_path, {"pairs": [{"fg": "grey", "bg": "surface", "min": 4.5}]})
    (row,) = check_pairs(tokens, pairs, appearances=("light",)).as_json()["pairs"]
    assert row == {
        "fg": "grey",
        "bg": "surface",
        "appearance": "light",
        "ratio": pytest.approx(contrast_ratio(parse_color("#767676"), parse_color("#fff"))),
        "min": 4.5,
        "passed": True,
        "whitelisted": False,
        "surface": "white",
        "note": "",
        "status": "pass",
    }


def test_a_ratio_exactly_at_the_minimum_passes(tmp_path: Path) -> None:
    tokens, pairs = setup(tmp_path, {"pairs": [{"fg": "grey", "bg": "surface", "min": 1}]})
    (row,) = check_pairs(tokens, pairs, appearances=("light",)).rows
    pairs.write_text(json.dumps({"pairs": [{"fg": "grey", "bg": "surface", "min": row.ratio}]}))
    (exact,) = check_pairs(tokens, pairs, appearances=("light",)).rows
    assert exact.minimum == exact.ratio and exact.passed


def test_a_translucent_surface_sits_on_white(tmp_path: Path) -> None:
    doc = {"pairs": [{"fg": "grey", "bg": "ink50", "surface": "rgba(255, 255, 255, 0.5)"}]}
    tokens, pairs = setup(tmp_path, doc)
    (row,) = check_pairs(tokens, pairs, appearances=("light",)).rows
    grey_on_mid = contrast_ratio(
        parse_color("#767676"), composite(parse_color("rgba(0, 0, 0, 0.5)"), parse_color("#fff"))
    )
    assert row.ratio == pytest.approx(grey_on_mid)
