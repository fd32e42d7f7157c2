from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from argus.errors import InputError
from argus.spec import (
    DEFAULT_VIEWPORT,
    Canonical,
    View,
    Viewport,
    find_repo_root,
    find_specs,
    load_spec,
)
from tests.spec.project import make_project, spec_data, write_json


def test_load_spec_builds_the_model(tmp_path: Path) -> None:
    spec = load_spec(make_project(tmp_path))
    root = tmp_path.resolve()
    assert (spec.feature, spec.adapter) == ("habits", "web")
    assert spec.root == root
    assert spec.spec_dir == (tmp_path / "argus/specs/habits").absolute()
    assert spec.tokens_path == root / "argus/specs/habits/tokens.json"
    assert spec.contrast_pairs_path == root / "argus/specs/habits/contrast-pairs.json"
    assert spec.rubric_path is None
    target = spec.target("list")
    assert target.states == ("populated", "empty")
    assert target.canonical == Canonical("populated", "light")
    assert target.a11y_contract == ("screen.habits", "row.habit.*")
    assert target.gates is None
    assert target.full_page is False


def test_views_are_states_by_appearances_in_spec_order(tmp_path: Path) -> None:
    spec = load_spec(make_project(tmp_path))
    assert [v.slug for v in spec.views()] == [
        "list-populated-light",
        "list-populated-dark",
        "list-empty-light",
        "list-empty-dark",
    ]
    assert spec.views("list")[0] == View("habits", "list", "populated", "light")
    assert spec.canonical_view("list").slug == "list-populated-light"


def test_fixture_for_falls_back_to_the_state_name(tmp_path: Path) -> None:
    target = load_spec(make_project(tmp_path)).target("list")
    assert target.fixture_for("populated") == "three-habits"
    assert target.fixture_for("empty") == "empty"


def test_reference_for_finds_the_view_or_none(tmp_path: Path) -> None:
    spec = load_spec(make_project(tmp_path))
    target = spec.target("list")
    reference = target.reference_for("populated", "light")
    assert reference is not None
    assert (reference.status, reference.source) == ("present", "human")
    assert reference.file == spec.spec_dir / "references/list-populated-light.png"
    assert target.reference_for("empty", "dark") is None


def test_unknown_target_names_spec_and_id(tmp_path: Path) -> None:
    path = make_project(tmp_path)
    spec = load_spec(path)
    with pytest.raises(InputError, match=r"spec.json: no target 'detail' \(targets: list\)"):
        spec.target("detail")


def test_defaults_when_optional_fields_are_absent(tmp_path: Path) -> None:
    data = spec_data()
    target = data["targets"][0]
    for key in ("appearances", "canonical", "fixtures", "references", "expectations"):
        del target[key]
    del data["design_system"]["contrast_pairs"]
    spec = load_spec(make_project(tmp_path, data))
    loaded = spec.target("list")
    assert loaded.appearances == ("light",)
    assert loaded.canonical == Canonical("populated", "light")
    assert loaded.references == ()
    assert loaded.expectations == {}
    assert spec.contrast_pairs_path is None
    assert spec.viewport_for("list") == DEFAULT_VIEWPORT == Viewport(1280, 800)


@pytest.mark.parametrize(
    ("spec_viewport", "target_viewport", "expected"),
    [
        (None, None, Viewport(1280, 800)),
        ({"width": 1024, "height": 768}, None, Viewport(1024, 768)),
        ({"width": 1024, "height": 768}, {"width": 390, "height": 844}, Viewport(390, 844)),
        (None, {"width": 390, "height": 844}, Viewport(390, 844)),
    ],
)
def test_target_viewport_wins_over_spec_viewport(
    tmp_path: Path,
    spec_viewport: dict[str, int] | None,
    target_viewport: dict[str, int] | None,
    expected: Viewport,
) -> None:
    data = spec_data()
    if spec_viewport:
        data["viewport"] = spec_viewport
    if target_viewport:
        data["targets"][0]["viewport"] = target_viewport
    assert load_spec(make_project(tmp_path, data)).viewport_for("list") == expected


def test_snapshot_expectations_gates_and_primary_action(tmp_path: Path) -> None:
    data = spec_data()
    target = data["targets"][0]
    target.update(
        full_page=True,
        primary_action="button.add",
        gates=["axe", "snapshot"],
        snapshot={"masks": ["#clock"], "max_diff_pixels": 10, "threshold": 0.2},
    )
    spec = load_spec(make_project(tmp_path, data))
    loaded = spec.target("list")
    assert loaded.full_page is True
    assert loaded.primary_action == "button.add"
    assert loaded.gates == ("axe", "snapshot")
    assert loaded.snapshot.masks == ("#clock",)
    assert loaded.snapshot.max_diff_pixels == 10
    assert loaded.snapshot.threshold == 0.2
    assert loaded.snapshot.max_diff_pixel_ratio is None
    populated = loaded.expectations["populated"]
    assert populated.aria_snapshot == '- heading "Habits" [level=1]'
    (count,) = populated.counts
    assert count.role == "listitem"
    assert count.equals is None
    assert count.equals_fixture is not None
    assert count.equals_fixture.expected() == 3
    assert loaded.expectations["empty"].counts[0].equals == 0


def test_rubric_path_is_set_when_the_feature_has_one(tmp_path: Path) -> None:
    path = make_project(tmp_path)
    (path.parent / "rubric.json").write_text("{}")
    assert load_spec(path).rubric_path == path.parent / "rubric.json"


def test_model_is_frozen(tmp_path: Path) -> None:
    spec = load_spec(make_project(tmp_path))
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.feature = "other"  # type: ignore[misc]


def test_load_spec_refuses_a_schema_error_with_its_path(tmp_path: Path) -> None:
    data = spec_data()
    data["targets"][0]["states"] = []
    path = make_project(tmp_path, data)
    with pytest.raises(InputError) as info:
        load_spec(path)
    assert str(info.value).startswith(f"{path}: $.targets[0].states: [] should be non-empty")


def test_load_spec_refuses_an_inconsistent_spec_and_points_to_lint(tmp_path: Path) -> None:
    data = spec_data()
    data["targets"][0]["canonical"]["state"] = "loading"
    path = make_project(tmp_path, data)
    with pytest.raises(InputError) as info:
        load_spec(path)
    message = str(info.value)
    assert "$.targets[0].canonical.state: 'loading' is not a state" in message
    assert "argus lint" in message


def test_load_spec_refuses_a_path_escape(tmp_path: Path) -> None:
    data = spec_data()
    data["design_system"]["tokens"] = "../outside/tokens.json"
    with pytest.raises(InputError, match=r"\$\.design_system\.tokens: .*'\.\.'"):
        load_spec(make_project(tmp_path / "repo", data))


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (None, "spec not found"),
        (b"{", "not valid JSON"),
        (b" " * (5 * 1024 * 1024 + 1), "over the 5 MiB"),
    ],
)
def test_load_spec_unreadable_file(tmp_path: Path, content: bytes | None, expected: str) -> None:
    path = tmp_path / "spec.json"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(InputError, match=expected):
        load_spec(path)


@pytest.mark.parametrize("marker", ["argus.toml", "pyproject.toml", ".git"])
def test_find_repo_root_stops_at_the_nearest_marker(tmp_path: Path, marker: str) -> None:
    project = tmp_path / "project"
    deep = project / "a" / "b"
    deep.mkdir(parents=True)
    if marker == ".git":
        (project / marker).mkdir()
    else:
        (project / marker).write_text("")
    assert find_repo_root(deep) == project.resolve()
    assert find_repo_root(deep / "file.json") == project.resolve()


def test_find_repo_root_without_marker_is_an_input_error(tmp_path: Path) -> None:
    if find_repo_root_or_none(tmp_path) is not None:
        pytest.skip("a marker exists above the temporary directory")
    with pytest.raises(InputError, match="no project root"):
        find_repo_root(tmp_path)


def find_repo_root_or_none(path: Path) -> Path | None:
    try:
        return find_repo_root(path)
    except InputError:
        return None


def test_find_specs_lists_feature_specs_sorted(tmp_path: Path) -> None:
    make_project(tmp_path)
    write_json(tmp_path / "argus/specs/alpha/spec.json", {})
    (tmp_path / "argus/specs/empty-dir").mkdir()
    write_json(tmp_path / "argus/specs/deep/nested/spec.json", {})
    assert [p.parent.name for p in find_specs(tmp_path)] == ["alpha", "habits"]


def test_charts_series_map_a_series_to_its_colour_token(tmp_path: Path) -> None:
    data = spec_data()
    data["charts"] = {"series": {"revenue": "text"}}
    assert load_spec(make_project(tmp_path, data)).chart_series == {"revenue": "text"}
    assert load_spec(make_project(tmp_path / "plain")).chart_series == {}
    data["charts"] = {"series": {"revenue": ""}}
    with pytest.raises(InputError, match="charts"):
        load_spec(make_project(tmp_path / "bad", data))
