"""The Dashboard example keeps the Habits example's rules: tokens mirrored exactly, no colour
literal in the app, a spec that lints clean, and seeded defects that each change one place
in a view the spec has."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from argus.spec import lint_spec, load_spec
from tests.examples.test_habits_app import assert_tokens_mirrored, changed_files
from tests.support.dashboard import (
    DASHBOARD_DIR,
    DASHBOARD_SPEC,
    copy_dashboard,
    load_dashboard_defects,
    load_dashboard_refactors,
)
from tests.support.habits import Defect, apply_refactor

DIMENSIONS = {
    "visual_fidelity", "token_compliance", "layout_spacing", "typography", "hierarchy",
    "functional_correctness", "accessibility",
}  # fmt: skip


def test_tokens_json_mirrors_tokens_css_exactly() -> None:
    assert_tokens_mirrored(DASHBOARD_DIR, DASHBOARD_DIR / "argus/specs/dashboard/tokens.json")


@pytest.mark.parametrize("name", ["app.css", "app.js", "index.html"])
def test_app_sources_draw_every_colour_from_tokens(name: str) -> None:
    text = (DASHBOARD_DIR / name).read_text()
    assert not re.findall(r"#[0-9a-fA-F]{3,8}\b|rgba?\(|hsla?\(", text)


def test_the_spec_lints_clean_and_states_typed_checks() -> None:
    path = DASHBOARD_DIR / DASHBOARD_SPEC
    assert not lint_spec(path).errors
    typed = load_spec(path).target("overview").expectations["populated"].typed
    assert typed.numeric_columns and typed.formats and typed.sort and typed.focus_trap


def test_defects_name_real_views_gates_and_dimensions() -> None:
    defects = load_dashboard_defects()
    views = {v.slug for v in load_spec(DASHBOARD_DIR / DASHBOARD_SPEC).views()}
    assert len({d.name for d in defects}) == len(defects) >= 12
    for item in defects:
        assert item.dimension in DIMENSIONS, item.name
        assert item.view is None or item.view in views, item.name


@pytest.mark.parametrize("item", load_dashboard_defects(), ids=lambda d: d.name)
def test_each_defect_changes_exactly_one_place(item: Defect, tmp_path: Path) -> None:
    clean = copy_dashboard(tmp_path / "clean")
    broken = copy_dashboard(tmp_path / "broken", [item])  # asserts `find` matched once
    assert changed_files(clean, broken) == [Path(item.file)]


@pytest.mark.parametrize("name", [r.name for r in load_dashboard_refactors()])
def test_each_refactor_applies(name: str, tmp_path: Path) -> None:
    root = copy_dashboard(tmp_path)
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    apply_refactor(root, next(r for r in load_dashboard_refactors() if r.name == name))
    assert any(p.read_bytes() != data for p, data in before.items())
