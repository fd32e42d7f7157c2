"""``staged_directory``: a folder replaced whole, even when the process is killed midway."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import argus.io
from argus.io import staged_directory

OLD = {"a.txt": b"old a", "sub/c.txt": b"old c"}
NEW = {"a.txt": b"new a", "b.txt": b"new b"}


def _tree(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def _fill(folder: Path, files: dict[str, bytes]) -> None:
    for name, data in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)


def _replace_killed_after(target: Path, kill_at: int, monkeypatch: pytest.MonkeyPatch) -> bool:
    """Replace ``target`` with NEW in a child killed (os._exit) after ``kill_at`` file system
    changes; True when the child finished before being killed."""
    staging = None
    pid = os.fork()
    if pid == 0:  # the child: count every change to the file system, die at the chosen one
        done = 0

        def counted(real: Callable[..., Any]) -> Callable[..., Any]:
            def call(*args: Any, **kwargs: Any) -> Any:
                nonlocal done
                if done == kill_at:
                    os._exit(9)
                done += 1
                return real(*args, **kwargs)

            return call

        for name in ("rename", "replace", "unlink", "rmdir"):
            monkeypatch.setattr(os, name, counted(getattr(os, name)))
        monkeypatch.setattr(argus.io, "_exchange", counted(argus.io._exchange))
        try:
            with staged_directory(target) as staging:
                _fill(staging, NEW)
        finally:  # never return into pytest from the child
            os._exit(0 if staging else 1)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status) == 0


@pytest.mark.parametrize("exchange", [True, False], ids=["exchange", "two-renames"])
def test_a_kill_at_any_step_leaves_the_old_folder_or_the_new_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, exchange: bool
) -> None:
    if not exchange:
        monkeypatch.setattr(argus.io, "_exchange", lambda a, b: False)
    seen = set()
    for kill_at in range(50):
        target = tmp_path / str(kill_at) / "packet"
        target.mkdir(parents=True)
        _fill(target, OLD)
        finished = _replace_killed_after(target, kill_at, monkeypatch)
        if not target.exists():  # only between the two renames, and the next call puts it back
            assert not exchange
            with pytest.raises(RuntimeError), staged_directory(target):
                raise RuntimeError("abandon")
        tree = _tree(target)
        assert tree in (OLD, NEW), f"killed after {kill_at} changes: {tree}"
        seen.add("new" if tree == NEW else "old")
        if finished:
            assert tree == NEW
            assert sorted(p.name for p in target.parent.iterdir()) == ["packet"]
            break
        # The next replacement clears what the killed one left: its staging folder (its
        # process is gone) and an old folder set aside.
        with staged_directory(target) as staging:
            _fill(staging, NEW)
        assert _tree(target) == NEW
        assert sorted(p.name for p in target.parent.iterdir()) == ["packet"], kill_at
    else:
        pytest.fail("the replacement never finished")
    assert seen == {"old", "new"}


def test_an_error_in_the_block_keeps_the_old_folder_and_removes_the_staging(
    tmp_path: Path,
) -> None:
    target = tmp_path / "packet"
    target.mkdir()
    _fill(target, OLD)
    with pytest.raises(RuntimeError), staged_directory(target) as staging:
        _fill(staging, NEW)
        raise RuntimeError("half written")
    assert _tree(target) == OLD
    assert [p.name for p in tmp_path.iterdir()] == ["packet"]


def test_a_new_folder_is_created_with_its_parents(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "packet"
    with staged_directory(target) as staging:
        _fill(staging, NEW)
    assert _tree(target) == NEW


def test_a_live_writers_staging_folder_is_left_alone(tmp_path: Path) -> None:
    target = tmp_path / "packet"
    other = tmp_path / f".packet.{os.getppid()}.abc123"  # a process that is still running
    other.mkdir()
    unrelated = [tmp_path / ".packet.notapid.x", tmp_path / ".other.1.x", tmp_path / ".packet.1"]
    for folder in unrelated:
        folder.mkdir()
    with staged_directory(target) as staging:
        assert staging.name.startswith(f".packet.{os.getpid()}.")
        _fill(staging, NEW)
    assert _tree(target) == NEW
    assert other.is_dir() and all(folder.is_dir() for folder in unrelated)
