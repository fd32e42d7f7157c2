"""A view's GateInputs from a repository: where its files are, which view they are of."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from argus.config import load_config
from argus.errors import InputError
from argus.gates.base import SensedFiles
from argus.gates.inputs import (
    check_sensed_view,
    gate_inputs,
    load_view_inputs,
    spec_path,
    view_dir,
)
from argus.sense.attempt import begin_attempt, fail_attempt
from argus.spec import View, load_spec
from tests.support.habits import HABITS_SPEC, copy_habits
from tests.support.sensed import seal_sensed

VIEW = View("habits", "list", "empty", "dark")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return copy_habits(tmp_path)


def test_where_a_features_spec_and_a_views_run_directory_are(root: Path) -> None:
    assert spec_path(root, "habits") == root / HABITS_SPEC
    spec = load_spec(spec_path(root, "habits"))
    assert view_dir(spec, VIEW) == root / "argus/specs/habits/.argus-runs/list-empty-dark"


def write_meta(directory: Path, meta: object) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
    return directory


RECORDED = {"feature": "habits", "target": "list", "state": "empty", "appearance": "dark"}


def test_sensed_files_of_the_view_are_accepted(tmp_path: Path) -> None:
    sensed = write_meta(tmp_path / "s", {"view": RECORDED, "sensor": "web"})
    seal_sensed(sensed, VIEW, {"sensor": "web"})
    assert check_sensed_view(sensed, VIEW) is None


def test_sensed_files_of_the_view_from_a_failed_sense_are_refused(tmp_path: Path) -> None:
    sensed = seal_sensed(tmp_path / "s", VIEW)
    (sensed / "render.png").write_bytes(b"an older render")
    with pytest.raises(InputError, match=r"render.png is not written by its sense"):
        check_sensed_view(sensed, VIEW)
    seal_sensed(sensed, VIEW)
    fail_attempt(sensed, begin_attempt(sensed), "the page errored")
    with pytest.raises(InputError, match="failed: the page errored"):
        check_sensed_view(sensed, VIEW)


@pytest.mark.parametrize(
    "field", ["feature", "target", "state", "appearance"], ids=lambda f: f"other {f}"
)
def test_sensed_files_of_another_view_are_refused(tmp_path: Path, field: str) -> None:
    other = {**RECORDED, field: "other"}
    sensed = write_meta(tmp_path / "s", {"view": other})
    with pytest.raises(InputError, match="^" + re.escape(str(sensed))):
        check_sensed_view(sensed, VIEW)
    missing = {k: v for k, v in RECORDED.items() if k != field}
    write_meta(sensed, {"view": missing})
    with pytest.raises(InputError, match="^" + re.escape(str(sensed))):
        check_sensed_view(sensed, VIEW)


@pytest.mark.parametrize("meta", [[RECORDED], {"view": None}, {"view": "list-empty-dark"}, {}])
def test_a_meta_json_that_records_no_view_is_refused(tmp_path: Path, meta: object) -> None:
    sensed = write_meta(tmp_path / "s", meta)
    with pytest.raises(InputError, match=r"meta\.json"):
        check_sensed_view(sensed, VIEW)


def test_no_or_an_unreadable_meta_json_is_refused(tmp_path: Path) -> None:
    sensed = tmp_path / "s"
    sensed.mkdir()
    with pytest.raises(InputError, match="^" + re.escape(f"{sensed}: no meta.json")):
        check_sensed_view(sensed, VIEW)
    (sensed / "meta.json").write_text("{broken", encoding="utf-8")
    with pytest.raises(InputError, match=r"meta\.json"):
        check_sensed_view(sensed, VIEW)


def test_gate_inputs_hold_the_view_its_target_tokens_and_files(root: Path, tmp_path: Path) -> None:
    config = load_config(root)
    spec = load_spec(spec_path(root, "habits"))
    sensed = tmp_path / "sensed"
    inputs = gate_inputs(spec, VIEW, sensed, config=config)
    assert (inputs.spec, inputs.view, inputs.config) == (spec, VIEW, config)
    assert inputs.target == spec.target("list")
    assert inputs.tokens.source == spec.tokens_path
    assert inputs.sensed == SensedFiles(sensed)
    assert (inputs.run_dir, inputs.root) == (sensed, config.root)
    elsewhere = gate_inputs(spec, VIEW, sensed, config=config, run_dir=tmp_path / "run")
    assert elsewhere.run_dir == tmp_path / "run"


@pytest.mark.parametrize(
    "view",
    [
        View("habits", "nowhere", "empty", "dark"),
        View("habits", "list", "loading", "dark"),
        View("habits", "list", "empty", "sepia"),
    ],
)
def test_a_view_the_spec_does_not_have_is_refused(root: Path, view: View) -> None:
    spec = load_spec(spec_path(root, "habits"))
    with pytest.raises(InputError, match=r"spec\.json"):
        gate_inputs(spec, view, root, config=load_config(root))


def test_an_appearance_the_tokens_do_not_define_is_refused(root: Path) -> None:
    path = spec_path(root, "habits")
    raw = json.loads(path.read_text(encoding="utf-8"))
    raw["targets"][0]["appearances"].append("sepia")
    path.write_text(json.dumps(raw), encoding="utf-8")
    spec = load_spec(path)
    with pytest.raises(InputError, match=r"tokens\.json: tokens define no appearance 'sepia'"):
        gate_inputs(spec, View("habits", "list", "empty", "sepia"), root, config=load_config(root))


def test_load_view_inputs_reads_everything_from_disk(root: Path, tmp_path: Path) -> None:
    inputs = load_view_inputs(root, "habits", "list", "empty", "dark")
    assert inputs.view == VIEW
    assert inputs.spec.path == spec_path(root, "habits").resolve()
    assert inputs.sensed.dir == view_dir(inputs.spec, VIEW)
    assert inputs.run_dir == inputs.sensed.dir
    assert inputs.config.root == root.resolve() and inputs.root == inputs.config.root
    given = load_view_inputs(
        root, "habits", "list", "empty", "dark", sensed_dir=tmp_path / "s", run_dir=tmp_path / "r"
    )
    assert (given.sensed.dir, given.run_dir) == (tmp_path / "s", tmp_path / "r")


@pytest.mark.parametrize("name", ["None", "XXXX", "null"])
def test_a_missing_field_matches_no_view_whatever_it_is_called(tmp_path: Path, name: str) -> None:
    for field in ("target", "state"):
        view = View(
            "habits", *(name if f == field else RECORDED[f] for f in ("target", "state")), "dark"
        )
        missing = {k: v for k, v in RECORDED.items() if k != field}
        # Sealed as a successful sense, so the missing field is the only thing refused.
        sensed = seal_sensed(tmp_path / field, view, {"view": missing})
        with pytest.raises(InputError, match="^" + re.escape(f"{sensed}: holds the sensed files")):
            check_sensed_view(sensed, view)
        seal_sensed(sensed, view)  # the same files with the whole record are this view's
        assert check_sensed_view(sensed, view) is None
