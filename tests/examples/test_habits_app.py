"""The Habits example keeps its own rules: tokens mirrored exactly, every value a token,
deterministic fixtures, and seeded defects that each change exactly one thing."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from argus.color import parse_color
from argus.tokens import load_tokens
from tests.support.habits import HABITS_DIR, Defect, copy_habits, defect, load_defects

TOKENS_JSON = HABITS_DIR / "argus/specs/habits/tokens.json"
BLOCK = re.compile(r"(:root(?:\[data-appearance=\"dark\"\])?)\s*\{(.*?)\}", re.S)
PROPERTY = re.compile(r"--([a-z0-9-]+):\s*([^;]+);")
CATEGORIES = {"color": "colors", "space": "spacing", "font-size": "type", "radius": "radii"}


def css_tokens(directory: Path = HABITS_DIR) -> dict[str, dict[str, str]]:
    """tokens.css as {':root' or dark selector: {custom property: value}}."""
    text = (directory / "tokens.css").read_text()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return {sel: dict(PROPERTY.findall(body)) for sel, body in BLOCK.findall(text)}


def test_tokens_json_mirrors_tokens_css_exactly() -> None:
    assert_tokens_mirrored(HABITS_DIR, TOKENS_JSON)


def assert_tokens_mirrored(directory: Path, tokens_json: Path) -> None:
    """An example's tokens.json holds exactly its tokens.css, light and dark."""
    blocks = css_tokens(directory)
    light, dark = blocks[":root"], blocks[':root[data-appearance="dark"]']
    mirror = json.loads(tokens_json.read_text())
    expected: dict[str, dict[str, object]] = {"colors": {}, "spacing": {}, "type": {}, "radii": {}}
    for prop, value in light.items():
        if prop.startswith("font-family-"):
            expected.setdefault("fonts", {})[prop.removeprefix("font-family-")] = value
            continue
        prefix = next(p for p in CATEGORIES if prop.startswith(p + "-"))
        name = prop.removeprefix(prefix + "-")
        if prefix == "color":
            expected["colors"][name] = {"light": value, "dark": dark[prop]}
        else:
            expected[CATEGORIES[prefix]][name] = int(value.removesuffix("px"))
    assert set(dark) == {p for p in light if p.startswith("color-")}, "dark overrides colours only"
    # The type roles (weights, line heights) are checked against app.css below.
    mirrored = {
        k: v
        for k, v in mirror.items()
        if not k.startswith("_") and k not in ("typography", "color_roles")
    }
    assert mirrored == expected
    load_tokens(tokens_json)  # and Argus reads it


def test_spacing_is_on_the_4_8_scale() -> None:
    spacing = json.loads(TOKENS_JSON.read_text())["spacing"]
    assert all(value % 4 == 0 for value in spacing.values())


@pytest.mark.parametrize("name", ["app.css", "app.js", "index.html"])
def test_app_sources_draw_every_colour_from_tokens(name: str) -> None:
    text = (HABITS_DIR / name).read_text()
    assert not re.findall(r"#[0-9a-fA-F]{3,8}\b|rgba?\(|hsla?\(", text)


def test_app_css_uses_only_token_spacing_and_sizes() -> None:
    css = (HABITS_DIR / "app.css").read_text()
    for prop in ("margin", "padding", "gap", "font-size", "border-radius", "line-height"):
        for value in re.findall(rf"(?<![-\w]){prop}[a-z-]*:\s*([^;]+);", css):
            assert re.fullmatch(r"(var\(--[a-z0-9-]+\)|0|auto|inherit|\s)+", value), (prop, value)


def test_colour_tokens_parse_in_both_appearances() -> None:
    for light, dark in (
        (v["light"], v["dark"]) for v in json.loads(TOKENS_JSON.read_text())["colors"].values()
    ):
        parse_color(light), parse_color(dark)


def test_fixtures_are_deterministic_data() -> None:
    app = (HABITS_DIR / "app.js").read_text()
    assert "Date" not in app and "Math.random" not in app
    populated = json.loads((HABITS_DIR / "fixtures/populated.json").read_text())["habits"]
    assert len({h["id"] for h in populated}) == len(populated) == 5
    assert json.loads((HABITS_DIR / "fixtures/empty.json").read_text())["habits"] == []


REQUIRED = {
    "off_palette_color": "token_compliance",
    "off_grid_margin": "token_compliance",
    "off_scale_font_size": "token_compliance",
    "low_contrast_text": "rendered_contrast",
    "missing_id": "a11y_ids",
    "unlabeled_button": "axe",
    "console_error": "console",
    "composition_change": "snapshot",
}


# Regressions a person comparing the render with the approved reference sees (issue 14):
# each class has a variant, refused by this gate (None: the judge alone) and dimension.
REGRESSIONS = {
    "card_nudged": ("snapshot", "visual_fidelity"),  # a card 2 px lower
    "surface_swapped": ("snapshot", "visual_fidelity"),  # a neighbouring palette token
    "title_weight_dropped": (None, "typography"),  # weight off the type roles
    "name_truncated": (None, "typography"),  # an ellipsis the spec does not allow
    "danger_title": (None, "token_compliance"),  # a colour outside its role
    "streak_copy": (None, "functional_correctness"),  # copy the fixture does not imply
    "typo_streak": (None, "functional_correctness"),  # a word in no dictionary
    "focus_ring_removed": ("focus_visible", "accessibility"),  # WCAG 2.4.7
    "dead_delete_button": (None, "functional_correctness"),  # a control that does nothing
}


def test_defects_cover_what_the_gates_and_judge_need() -> None:
    defects = {d.name: d for d in load_defects()}
    for name, gate in REQUIRED.items():
        assert defects[name].gate == gate
    for name, (gate, dimension) in REGRESSIONS.items():
        assert (defects[name].gate, defects[name].dimension) == (gate, dimension), name
    dimensions = {d.dimension for d in defects.values()}
    assert dimensions <= {
        "visual_fidelity", "token_compliance", "layout_spacing", "typography", "hierarchy",
        "functional_correctness", "accessibility",
    }  # fmt: skip
    assert len(defects) == len(load_defects()), "names are unique"


@pytest.mark.parametrize("item", load_defects(), ids=lambda d: d.name)
def test_each_defect_changes_exactly_one_place(item: Defect, tmp_path: Path) -> None:
    clean = copy_habits(tmp_path / "clean")
    broken = copy_habits(tmp_path / "broken", [item])  # asserts `find` matched once
    assert changed_files(clean, broken) == [Path(defect(item.name).file)]


def changed_files(clean: Path, broken: Path) -> list[Path]:
    """The files of ``broken`` that differ from ``clean`` (its port-bearing argus.toml aside)."""
    return [
        p.relative_to(broken)
        for p in sorted(broken.rglob("*"))
        if p.is_file() and p.name != "argus.toml"
        and p.read_bytes() != (clean / p.relative_to(broken)).read_bytes()
    ]  # fmt: skip


def test_defects_combine(tmp_path: Path) -> None:
    names = [d.name for d in load_defects() if d.file == "app.css"]
    root = copy_habits(tmp_path, names)
    assert "var(--color-border)" in (root / "app.css").read_text()


def test_copies_get_their_own_port(tmp_path: Path) -> None:
    a = (copy_habits(tmp_path / "a") / "argus.toml").read_text()
    b = (copy_habits(tmp_path / "b") / "argus.toml").read_text()
    # As a number of its own: a free port such as 38765 holds the digits too.
    assert re.search(r"\b8765\b", a) is None and a != b


def test_every_text_rule_in_app_css_is_a_type_role() -> None:
    """Each rule that sets a font-weight sets it to a weight of the tokens' type roles."""
    roles = json.loads(TOKENS_JSON.read_text())["typography"]
    weights = {r["weight"] for k, r in roles.items() if not k.startswith("_")}
    css = (HABITS_DIR / "app.css").read_text()
    used = {int(w) for w in re.findall(r"font-weight:\s*(\d+);", css)}
    assert used and used <= weights
