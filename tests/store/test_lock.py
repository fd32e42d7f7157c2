"""The one run-state lock (argus.store.lock): the loop's feature folder and a contract run's state
folder are held the same way, by the folder's identity and a key outside the repository."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from argus import state_home
from argus.contract.state import run_lock, state_dir
from argus.errors import StateError
from argus.folderlock import FolderSwapped
from argus.io import atomic_write_json
from argus.store.lock import key_file, run_state_lock


def swap_for_a_copy(folder: Path) -> None:
    away = folder.with_name(folder.name + "-original")
    folder.rename(away)
    shutil.copytree(away, folder)


def test_the_key_is_outside_the_repository_named_by_the_folder_s_path(tmp_path: Path) -> None:
    first, second = tmp_path / "a" / "ship-it", tmp_path / "b" / "ship-it"
    assert key_file(first).parent == state_home.account_home() / "locks"
    assert key_file(first).name.startswith("ship-it-")
    assert key_file(first) != key_file(second)


def test_a_contract_run_s_folder_swapped_for_a_copy_still_keeps_a_second_writer_out(
    tmp_path: Path,
) -> None:
    directory = state_dir(tmp_path, "ship-it")
    with run_lock(tmp_path, "ship-it"):
        with pytest.raises(StateError, match="another argus process holds it"):
            run_state_lock(directory).acquire()
        swap_for_a_copy(directory)
        # The copy is locked by nobody, but the key outside the repository still is.
        with pytest.raises(StateError, match="another argus process holds it"):
            run_state_lock(directory).acquire()
        with pytest.raises(FolderSwapped, match="the folder was replaced"):
            atomic_write_json(directory / "state.json", {"forged": 1})
    assert not (directory / "state.json").exists()
    with run_state_lock(directory):  # released: the next command takes it
        atomic_write_json(directory / "state.json", {"ok": 1})
