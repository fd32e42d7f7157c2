from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from argus.errors import InputError
from argus.schemas import load_rubric
from argus.spec import lint_spec, load_spec
from argus.spec.scaffold import (
    FEATURE_IGNORE_RULES,
    TEMPLATE_FILES,
    ensure_ignore_rules,
    init_feature,
    render_templates,
)


def project(tmp_path: Path) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "argus.toml").write_text("")
    return tmp_path


def test_init_writes_the_four_files_and_lints_clean(tmp_path: Path) -> None:
    root = project(tmp_path)
    scaffold = init_feature(root, "habits")
    feature_dir = root / "argus/specs/habits"
    assert scaffold.feature_dir == feature_dir
    for name in TEMPLATE_FILES:
        assert (feature_dir / name).is_file()
    assert (feature_dir / "references").is_dir()
    report = lint_spec(feature_dir / "spec.json")
    assert report.errors == ()
    assert [(w.slug, w.status, w.canonical) for w in report.worklist] == [
        ("main-populated-light", "needed", True)
    ]
    spec = load_spec(feature_dir / "spec.json")
    assert spec.feature == "habits"
    assert spec.tokens_path == root.resolve() / "argus/specs/habits/tokens.json"


def test_templates_name_the_feature_everywhere(tmp_path: Path) -> None:
    rendered = render_templates("my-feature")
    assert "{{" not in "".join(rendered.values())
    spec = json.loads(rendered["spec.json"])
    assert spec["feature"] == "my-feature"
    assert spec["design_system"]["tokens"] == "argus/specs/my-feature/tokens.json"
    assert "# my-feature" in rendered["spec.md"]


def test_init_refuses_to_overwrite_an_existing_feature(tmp_path: Path) -> None:
    root = project(tmp_path)
    init_feature(root, "habits")
    spec = root / "argus/specs/habits/spec.json"
    spec.write_text('{"edited": true}')
    with pytest.raises(InputError, match="feature 'habits' already exists"):
        init_feature(root, "habits")
    assert spec.read_text() == '{"edited": true}'


@pytest.mark.parametrize("existing", TEMPLATE_FILES)
def test_any_existing_spec_file_counts_as_an_existing_feature(
    tmp_path: Path, existing: str
) -> None:
    root = project(tmp_path)
    feature_dir = root / "argus/specs/habits"
    feature_dir.mkdir(parents=True)
    (feature_dir / existing).write_text("mine")
    with pytest.raises(InputError, match=existing):
        init_feature(root, "habits")
    assert sorted(p.name for p in feature_dir.iterdir()) == [existing]


def test_init_into_an_existing_directory_without_spec_files(tmp_path: Path) -> None:
    root = project(tmp_path)
    references = root / "argus/specs/habits/references"
    references.mkdir(parents=True)
    (references / "main-populated-light.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    init_feature(root, "habits")
    assert (root / "argus/specs/habits/spec.json").is_file()


@pytest.mark.parametrize(
    "name", ["Habits", "-habits", "habits/list", "../x", "", "a_b", "a" * 65, "hab its"]
)
def test_feature_name_must_be_a_slug(tmp_path: Path, name: str) -> None:
    root = project(tmp_path)
    with pytest.raises(InputError, match="invalid feature name"):
        init_feature(root, name)
    assert not (root / "argus").exists()


@pytest.mark.parametrize("name", ["habits", "a", "2fa", "check-out", "a" * 64])
def test_feature_name_slugs_are_accepted(tmp_path: Path, name: str) -> None:
    init_feature(project(tmp_path), name)


def test_init_refuses_a_specs_directory_linked_outside(tmp_path: Path) -> None:
    root = project(tmp_path / "repo")
    (tmp_path / "elsewhere").mkdir()
    (root / "argus").mkdir()
    (root / "argus/specs").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    with pytest.raises(InputError, match="symlink"):
        init_feature(root, "habits")
    assert list((tmp_path / "elsewhere").iterdir()) == []


def test_init_with_rubric_copies_the_default(tmp_path: Path) -> None:
    root = project(tmp_path)
    init_feature(root, "habits", with_rubric=True)
    rubric = root / "argus/specs/habits/rubric.json"
    assert load_rubric(rubric).names == load_rubric(None).names
    assert lint_spec(root / "argus/specs/habits/spec.json").valid


def test_ignore_rules_are_idempotent(tmp_path: Path) -> None:
    path = tmp_path / ".gitignore"
    assert ensure_ignore_rules(path, FEATURE_IGNORE_RULES) is True
    first = path.read_text()
    assert ensure_ignore_rules(path, FEATURE_IGNORE_RULES) is False
    assert path.read_text() == first
    assert first.splitlines() == list(FEATURE_IGNORE_RULES)


def test_ignore_rules_keep_existing_lines(tmp_path: Path) -> None:
    path = tmp_path / ".gitignore"
    path.write_text("node_modules/\n*.log\n")
    ensure_ignore_rules(path, FEATURE_IGNORE_RULES)
    lines = path.read_text().splitlines()
    assert lines[:2] == ["node_modules/", "*.log"]
    assert lines[-2:] == [".argus-runs/*", "!.argus-runs/signoff.json"]


def test_ignore_rules_in_the_wrong_order_are_rewritten(tmp_path: Path) -> None:
    # The re-include must follow the wildcard, or signoff.json would be ignored after all.
    path = tmp_path / ".gitignore"
    path.write_text("!.argus-runs/signoff.json\ndist/\n.argus-runs/*\n")
    assert ensure_ignore_rules(path, FEATURE_IGNORE_RULES) is True
    lines = path.read_text().splitlines()
    assert lines.count(".argus-runs/*") == 1
    assert lines.index(".argus-runs/*") < lines.index("!.argus-runs/signoff.json")
    assert "dist/" in lines
    assert ensure_ignore_rules(path, FEATURE_IGNORE_RULES) is False


def test_init_writes_the_root_run_store_rule_once(tmp_path: Path) -> None:
    root = project(tmp_path)
    (root / ".gitignore").write_text("build/\n")
    init_feature(root, "one")
    init_feature(root, "two")
    lines = (root / ".gitignore").read_text().splitlines()
    assert lines[0] == "build/"
    assert lines.count("/.argus/") == 1


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_git_commits_only_the_signoff_record_under_runs(tmp_path: Path) -> None:
    root = tmp_path
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    init_feature(root, "habits")
    runs = root / "argus/specs/habits/.argus-runs"
    (runs / "list-populated-light").mkdir(parents=True)
    for name in ("signoff.json", "state-list.json", "list-populated-light/render.png"):
        (runs / name).write_text("x")
    (root / ".argus").mkdir()
    (root / ".argus/argus.db").write_text("x")
    status = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    listed = {line[3:] for line in status.splitlines()}
    assert "argus/specs/habits/.argus-runs/signoff.json" in listed
    assert not any("render.png" in p or "state-list" in p or "argus.db" in p for p in listed)
    assert "argus/specs/habits/spec.json" in listed
