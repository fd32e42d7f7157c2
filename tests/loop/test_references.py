"""HE-1 bookkeeping: marking a reference in spec.json and approving a candidate."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from argus.errors import InputError
from argus.loop.human.references import (
    approve_candidate,
    approve_command,
    candidate_path,
    mark_reference,
)
from argus.spec import View, load_spec
from tests.loop.fakeapp import FEATURE, make_repo, write_png

VIEW = View(FEATURE, "list", "a", "light")


def _spec_path(root: Path) -> Path:
    return root / "argus" / "specs" / FEATURE / "spec.json"


def test_mark_creates_or_updates_the_entry_and_keeps_the_rest(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [], states=("a", "b"), reference="needed")
    path = _spec_path(root)
    mark_reference(path, View(FEATURE, "list", "b", "light"), status="candidate", source=None,
                   file="references/list-b-light.png")  # fmt: skip
    data = json.loads(path.read_text())
    refs = data["targets"][0]["references"]
    assert refs[0] == {"state": "a", "appearance": "light", "status": "needed"}
    assert refs[1] == {
        "state": "b",
        "appearance": "light",
        "status": "candidate",
        "file": "references/list-b-light.png",
    }
    assert data["feature"] == FEATURE and data["adapter"] == "web"


def test_approve_moves_the_candidate_and_marks_it_present(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [], reference="needed")
    spec = load_spec(_spec_path(root))
    runs = spec.spec_dir / ".argus-runs"
    write_png(candidate_path(runs, VIEW), "candidate")
    destination = approve_candidate(spec, runs, VIEW)
    assert destination == spec.spec_dir / "references" / "list-a-light.png"
    assert destination.is_file() and not candidate_path(runs, VIEW).exists()
    entry = json.loads(_spec_path(root).read_text())["targets"][0]["references"][0]
    assert (entry["status"], entry["source"], entry["file"]) == (
        "present",
        "candidate",
        "references/list-a-light.png",
    )
    assert load_spec(_spec_path(root)).targets[0].references[0].status == "present"


def test_approve_without_a_candidate_says_how_to_get_one(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [], reference="needed")
    spec = load_spec(_spec_path(root))
    with pytest.raises(InputError, match="run 'argus loop --feature demo --target list'"):
        approve_candidate(spec, spec.spec_dir / ".argus-runs", VIEW)


def test_approve_command_is_exact() -> None:
    assert approve_command(VIEW) == (
        "argus approve --feature demo --target list --state a --appearance light"
    )
