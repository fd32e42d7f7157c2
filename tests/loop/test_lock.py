"""One loop per feature: a second holder is refused with a clear message; a dead holder frees it."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from argus import state_home
from argus.cli import main
from argus.errors import StateError
from argus.folderlock import FolderSwapped
from argus.io import atomic_write_json
from argus.loop.guard.lock import FeatureLock, key_file
from tests.loop.fakeapp import FEATURE, FakeServices, make_repo


def test_second_lock_is_refused_and_names_the_holder(tmp_path: Path) -> None:
    with FeatureLock(tmp_path, "habits"):
        with pytest.raises(StateError, match=r"another argus loop is running on feature 'habits'"):
            FeatureLock(tmp_path, "habits").acquire()
        try:
            FeatureLock(tmp_path, "habits").acquire()
        except StateError as err:
            assert f"pid {os.getpid()}" in str(err)
    # Released: a new holder gets it.
    with FeatureLock(tmp_path, "habits"):
        pass


def test_a_killed_holder_leaves_no_stale_lock(tmp_path: Path) -> None:
    code = (
        "import sys, time\n"
        "from pathlib import Path\n"
        "from argus.loop.guard.lock import FeatureLock\n"
        "FeatureLock(Path(sys.argv[1]), 'habits').acquire()\n"
        "print('locked', flush=True)\n"
        "time.sleep(60)\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code, str(tmp_path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "locked"
        with pytest.raises(StateError):
            FeatureLock(tmp_path, "habits").acquire()
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    with FeatureLock(tmp_path, "habits"):
        pass


# -- the lock holds the feature folder by identity --------------------------------------------


def _swap_for_a_copy(folder: Path) -> Path:
    """Rename ``folder`` away and put a copy in its place; return where the original went."""
    away = folder.with_name(folder.name + "-original")
    folder.rename(away)
    shutil.copytree(away, folder)
    return away


def test_a_feature_folder_swapped_for_a_copy_keeps_a_second_writer_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_repo(tmp_path, [])
    spec_dir = root / "argus" / "specs" / FEATURE
    view = ["--feature", FEATURE, "--target", "list", "--state", "a", "--appearance", "light"]
    assert main(["state", "init", *view, "--root", str(root)]) == 0
    state_file = spec_dir / ".argus-runs" / "list-a-light" / "state.json"
    before = state_file.read_bytes()
    with FeatureLock(spec_dir / ".argus-runs", FEATURE) as lock:
        _swap_for_a_copy(spec_dir)
        capsys.readouterr()
        assert main(["state", "init", *view, "--reset", "--root", str(root)]) == 2
        err = capsys.readouterr().err
        assert "another argus loop is running on feature 'demo'" in err
        assert f"pid {os.getpid()}" in err
        assert state_file.read_bytes() == before  # the copy's state was not reset
        with pytest.raises(FolderSwapped, match="was replaced"):
            lock.check()
    with FeatureLock(spec_dir / ".argus-runs", FEATURE):  # released: the copy can be locked
        pass


def test_the_holder_writes_nothing_into_a_swapped_folder(tmp_path: Path) -> None:
    feature = tmp_path / "argus" / "specs" / "habits"
    (feature / ".argus-runs").mkdir(parents=True)
    with FeatureLock(feature / ".argus-runs", "habits"):
        atomic_write_json(feature / ".argus-runs" / "run.json", {"ok": 1})  # still its folder
        _swap_for_a_copy(feature)
        with pytest.raises(FolderSwapped, match=r"habits: the folder was replaced"):
            atomic_write_json(feature / ".argus-runs" / "run.json", {"forged": 1})
        atomic_write_json(tmp_path / "elsewhere.json", {})  # outside the folder: not its concern
    assert json.loads((feature / ".argus-runs" / "run.json").read_text()) == {"ok": 1}
    atomic_write_json(feature / ".argus-runs" / "run.json", {"after": 1})  # no lock, no check


def test_the_key_file_replaced_is_a_swap_too(tmp_path: Path) -> None:
    feature = tmp_path / "argus" / "specs" / "habits"
    (feature / ".argus-runs").mkdir(parents=True)
    with FeatureLock(feature / ".argus-runs", "habits") as lock:
        key = key_file(feature)
        assert key.parent == state_home.account_home() / "locks"  # outside the repository
        key.unlink()
        key.write_text("")
        with pytest.raises(FolderSwapped, match="the lock file was replaced"):
            lock.check()


def test_the_loop_stops_in_one_line_when_its_folder_is_swapped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_repo(tmp_path, [{"name": "x", "kind": "gate", "target": "console"}])
    spec_dir = root / "argus" / "specs" / FEATURE
    swap = tmp_path / "swap.py"
    swap.write_text(
        "import shutil, sys\nfrom pathlib import Path\n"
        f"folder = Path({str(spec_dir)!r})\n"
        "away = folder.with_name(folder.name + '-original')\n"
        "folder.rename(away)\nshutil.copytree(away, folder)\n"
    )
    monkeypatch.setattr("argus.loop.engine.web_services.ArgusServices", FakeServices)
    code = main(
        [
            "loop",
            "--feature",
            FEATURE,
            "--mode",
            "headless",
            "--root",
            str(root),
            "--implementer",
            f"{sys.executable} {swap}",
        ]
    )
    captured = capsys.readouterr()
    assert code == 2
    # progress lines, then the one line that says why it stopped
    (line,) = [x for x in captured.err.splitlines() if x.startswith("argus: ")]
    assert "demo: the folder was replaced" in line
    assert captured.err.rstrip().endswith(line)
    assert not (spec_dir / ".argus-runs" / "signoff.json").exists()


def test_the_contract_runner_takes_the_same_lock(tmp_path: Path) -> None:
    from argus.contract.state import run_lock, state_dir

    with run_lock(tmp_path, "c1"):
        folder = state_dir(tmp_path, "c1")
        _swap_for_a_copy(folder)
        with pytest.raises(FolderSwapped):
            atomic_write_json(folder / "state.json", {"forged": 1})
    assert not (folder / "state.json").exists()


def test_a_symlinked_feature_folder_is_refused_in_one_line(tmp_path: Path) -> None:
    real = tmp_path / "elsewhere" / "habits"
    (real / ".argus-runs").mkdir(parents=True)
    link = tmp_path / "argus" / "specs" / "habits"
    link.parent.mkdir(parents=True)
    link.symlink_to(real, target_is_directory=True)
    with pytest.raises(StateError, match="is a symbolic link"):
        FeatureLock(link / ".argus-runs", "habits").acquire()
