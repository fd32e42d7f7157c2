"""File helpers shared by every part: capped JSON reads and atomic writes."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from argus.errors import InputError

MAX_INPUT_BYTES = 5 * 1024 * 1024


def read_bytes(path: Path, *, what: str = "file", limit: int = MAX_INPUT_BYTES) -> bytes:
    """Read a user-supplied file, refusing missing, unreadable and oversized ones."""
    try:
        size = path.stat().st_size
    except FileNotFoundError as exc:
        raise InputError(f"{path}: {what} not found") from exc
    except OSError as exc:
        raise InputError(f"{path}: cannot read {what} ({exc.strerror})") from exc
    if size > limit:
        raise InputError(
            f"{path}: {what} is {size} bytes, over the {limit // (1024 * 1024)} MiB limit"
        )
    try:
        return path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot read {what} ({exc.strerror})") from exc


def read_json(path: Path, *, what: str = "JSON file", limit: int = MAX_INPUT_BYTES) -> Any:
    """Parse a JSON file; any problem becomes one InputError line naming the file."""
    raw = read_bytes(path, what=what, limit=limit)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: {what} is not UTF-8 text") from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{path}: {what} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from exc


def _default_mode() -> int:
    """The mode a plain open() would give a new file (mkstemp's is owner-only)."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` so that a crash at any instant leaves the old file or the new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, _default_mode())
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_json(path: Path, data: Any) -> None:
    atomic_write_text(path, json.dumps(data, indent=2, sort_keys=False) + "\n")
