from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from argus.errors import InputError
from argus.io import (
    MAX_INPUT_BYTES,
    atomic_write_bytes,
    atomic_write_json,
    atomic_write_text,
    read_bytes,
    read_json,
    sync_tree,
)
from tests.support.fsyncs import record_fsyncs


def test_atomic_write_replaces_and_leaves_no_temp_files(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "state.json"
    atomic_write_json(target, {"a": 1})
    atomic_write_json(target, {"a": 2})
    assert read_json(target) == {"a": 2}
    assert [p.name for p in target.parent.iterdir()] == ["state.json"]


def test_a_durable_write_flushes_the_file_and_its_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    flushed = record_fsyncs(monkeypatch)
    target = (tmp_path / "state.json").resolve()
    atomic_write_json(target, {"a": 1})
    # The file under its temporary name (renamed over the target after its flush), then the
    # folder that holds the rename.
    assert len(flushed) == 2 and flushed[0].parent == target.parent
    assert flushed[0].name.startswith(".state.json.") and flushed[1] == target.parent


def test_a_write_that_is_not_durable_flushes_nothing_and_is_still_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    flushed = record_fsyncs(monkeypatch)
    target = tmp_path / "render.png"
    atomic_write_bytes(target, b"old", durable=False)
    atomic_write_text(target, "new", durable=False)
    atomic_write_json(tmp_path / "meta.json", {"a": 1}, durable=False)
    assert flushed == []
    assert target.read_bytes() == b"new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["meta.json", "render.png"]


def test_sync_tree_flushes_every_file_and_folder_and_opens_nothing_else(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path.resolve() / "view"
    (root / "iteration-1").mkdir(parents=True)
    (root / "state.json").write_text("{}")
    (root / "iteration-1" / "render.png").write_bytes(b"png")
    os.mkfifo(root / "iteration-1" / "pipe")  # opened, it would wait for a writer
    (root / "link").symlink_to(tmp_path / "elsewhere")
    (tmp_path / "elsewhere").write_text("outside")
    flushed = record_fsyncs(monkeypatch)
    sync_tree(root)
    assert sorted(map(str, flushed)) == sorted(
        map(
            str,
            [root / "state.json", root, root / "iteration-1" / "render.png", root / "iteration-1"],
        )
    )


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
        (b"[" * 200_000 + b"]" * 200_000, "nested too deeply"),
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


def test_read_bytes_refuses_a_fifo_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)  # no writer: a plain open() would wait forever
    with pytest.raises(InputError, match=r"pipe\.json: file is not a regular file"):
        read_bytes(fifo)


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null"])
def test_read_bytes_refuses_devices(device: str) -> None:
    # /dev/zero stats as 0 bytes and never ends: the size check alone would read forever.
    with pytest.raises(InputError, match="not a regular file"):
        read_bytes(Path(device), what="probe")


def test_read_bytes_refuses_a_directory(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"(?i)is a directory"):
        read_json(tmp_path)


def test_read_bytes_reads_at_most_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "x.bin"
    path.write_bytes(b"a" * 11)
    with pytest.raises(InputError, match="over"):
        read_bytes(path, limit=10)
    assert read_bytes(path, limit=11) == b"a" * 11


@pytest.mark.parametrize("case", ["directory-in-the-way", "parent-is-a-file", "proc"])
def test_failed_writes_are_one_input_error_line(tmp_path: Path, case: str) -> None:
    if case == "directory-in-the-way":
        target = tmp_path / "out.png"
        target.mkdir()
    elif case == "parent-is-a-file":
        (tmp_path / "specs").write_text("")
        target = tmp_path / "specs" / "x.json"
    else:
        target = Path("/proc/argus-test.png")
    with pytest.raises(InputError) as err:
        atomic_write_bytes(target, b"data")
    assert str(err.value).startswith(f"cannot write {target}: ")
    assert "\n" not in str(err.value)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
