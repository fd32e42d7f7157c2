"""The registry of open runs (argus.store.registry): entries in every state home, removed when
a run closes, read by workspace so a run in one repository is not another's."""

from __future__ import annotations

import json
from pathlib import Path

from argus.state_home import state_homes
from argus.store.registry import Registry, workspace_dirs, workspaces

RUNS = Registry("test-runs", "name", closed=("done",))


def test_a_workspace_ends_at_the_nearest_repository(tmp_path: Path) -> None:
    outer, inner = tmp_path / "outer", tmp_path / "outer" / "vendor" / "inner"
    (inner / "src").mkdir(parents=True)
    (outer / ".git").mkdir()
    (inner / ".git").write_text("gitdir: ../../.git/modules/inner\n")  # a submodule's file
    assert workspace_dirs(inner / "src") == [inner / "src", inner]
    assert workspace_dirs(outer / "vendor") == [outer / "vendor", outer]
    assert workspaces([inner / "src", outer]) == {inner / "src", inner, outer}


def test_outside_any_repository_a_workspace_reaches_the_root(tmp_path: Path) -> None:
    found = workspace_dirs(tmp_path)
    assert found[0] == tmp_path.resolve() and found[-1] == Path("/")
    loop = tmp_path / "loop"
    loop.symlink_to(tmp_path / "loop2")
    (tmp_path / "loop2").symlink_to(loop)
    assert workspace_dirs(loop / "x") == []


def test_an_open_run_is_in_every_state_home_until_it_closes(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    RUNS.remember(root, "ship-it", "r1", "running")
    homes = state_homes()
    assert len(homes) >= 2
    for home in homes:
        (entry,) = (home / "test-runs").glob("*.json")
        data = json.loads(entry.read_text())
        assert data == {"root": str(root.resolve()), "name": "ship-it", "run_id": "r1",
                        "phase": "running"}  # fmt: skip
    assert len(RUNS.open_runs()) == 1, "the same run in two homes is listed once"
    RUNS.remember(root, "ship-it", "r1", "done")
    assert RUNS.open_runs() == []
    assert not [entry for home in homes for entry in (home / "test-runs").glob("*.json")]


def test_open_runs_are_read_for_the_folders_asked_for(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    for root in (first, second):
        root.mkdir()
        RUNS.remember(root, "x", "r", "running")
    assert [e["root"] for e in RUNS.open_runs({first.resolve()})] == [str(first.resolve())]
    assert RUNS.open_runs({tmp_path.resolve()}) == []
    assert len(RUNS.open_runs()) == 2


def test_an_entry_that_cannot_be_read_is_skipped_not_fatal(tmp_path: Path) -> None:
    home = RUNS.dirs()[0]
    home.mkdir(parents=True)
    (home / "a.json").write_text("{not json")
    (home / "b.json").write_text(json.dumps(["a list"]))
    (home / "c.json").write_text(json.dumps({"root": 7}))
    RUNS.remember(tmp_path, "x", "r", "running")
    assert [e["name"] for e in RUNS.open_runs()] == ["x"]


def test_forget_drops_the_entry_from_every_home(tmp_path: Path) -> None:
    assert RUNS.forget(tmp_path, "x") is False
    RUNS.remember(tmp_path, "x", "r", "running")
    assert RUNS.forget(tmp_path, "x") is True
    assert RUNS.open_runs() == []


def test_a_home_that_cannot_be_written_leaves_the_others(tmp_path: Path) -> None:
    blocked = RUNS.dirs()[0]
    blocked.parent.mkdir(parents=True, exist_ok=True)
    blocked.write_text("a file where the registry's folder would be")
    RUNS.remember(tmp_path, "x", "r", "running")
    assert [e["name"] for e in RUNS.open_runs()] == ["x"]
