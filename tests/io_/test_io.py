from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from argus.errors import InputError
from argus.io import MAX_INPUT_BYTES, atomic_write_json, atomic_write_text, read_json


def test_atomic_write_replaces_and_leaves_no_temp_files(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "state.json"
    atomic_write_json(target, {"a": 1})
    atomic_write_json(target, {"a": 2})
    assert read_json(target) == {"a": 2}
    assert [p.name for p in target.parent.iterdir()] == ["state.json"]


def test_atomic_write_gives_the_umask_mode_not_owner_only(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        atomic_write_text(tmp_path / "x.txt", "hi")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "x.txt").stat().st_mode) == 0o644


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        (b"{", "is not valid JSON (line 1"),
        (b"\xff\xfe", "is not UTF-8"),
        (b" " * (MAX_INPUT_BYTES + 1), "over the 5 MiB limit"),
    ],
)
def test_read_json_refuses_bad_files_in_one_line(
    tmp_path: Path, content: bytes, fragment: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(InputError) as err:
        read_json(path)
    assert fragment in str(err.value)
    assert str(path) in str(err.value)
    assert "\n" not in str(err.value)


def test_read_json_names_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not found"):
        read_json(tmp_path / "nope.json")
