"""File helpers shared by every part: capped JSON reads and atomic writes.

``loads_json`` is the one JSON parser for anything Argus reads (files, a judge's answer, a hook's
stdin): it refuses what the standard library would let through or turn into a crash, so that
no reader has to remember to. A duplicate key (where the last would silently win), an integer
longer than ``MAX_INT_DIGITS`` (Python's own limit makes ``int()`` raise), ``NaN``,
``Infinity`` and a number that overflows to infinity are all a ``JsonContentError``, which
is a ``json.JSONDecodeError``: every caller that handles malformed JSON handles these too.

The writers import ``tempfile``, ``shutil`` and ``ctypes`` where they use them: a command that
only reads (``argus hook stop`` with no run open, on every stop of an agent's session) never
loads them.
"""

from __future__ import annotations

import errno
import json
import math
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from argus._readfile import MAX_INPUT_BYTES as MAX_INPUT_BYTES
from argus._readfile import read_bytes as read_bytes
from argus.errors import InputError
from argus.folderlock import check_writes

# No number in any file Argus reads needs more digits than this; a longer one is hostile.
MAX_INT_DIGITS = 100


class JsonContentError(json.JSONDecodeError):
    """Well-formed JSON text that Argus refuses (duplicate key, huge integer, non-finite)."""

    def __init__(self, msg: str) -> None:
        super().__init__(msg, "", 0)
        self.args = (msg,)

    def __str__(self) -> str:
        return self.msg


class NonFiniteNumber(JsonContentError):
    """``NaN``, ``Infinity`` or a number that overflows to infinity: a reader that treats a
    non-finite number as corrupt evidence (not as bad input) catches this one."""


def _unique_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            shown = key if len(key) <= 60 else key[:59] + "…"
            raise JsonContentError(f"duplicate key {shown!r} (only one value may be given)")
        obj[key] = value
    return obj


def _bounded_int(text: str) -> int:
    if len(text) - text.startswith("-") > MAX_INT_DIGITS:
        raise JsonContentError(f"an integer has more than {MAX_INT_DIGITS} digits")
    return int(text)


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise NonFiniteNumber(f"the number {text[:40]} is too large to represent")
    return value


def _no_constant(name: str) -> Any:
    raise NonFiniteNumber(f"{name} is not a JSON number")


def loads_json(text: str | bytes) -> Any:
    """Parse JSON text strictly (see the module's docstring); ``json.JSONDecodeError`` on any
    problem, ``UnicodeDecodeError`` for bytes that are not UTF-8, ``RecursionError`` when
    nested too deeply (all ValueErrors but the last; callers map them to one line)."""
    if isinstance(text, bytes | bytearray):
        text = bytes(text).decode("utf-8-sig")
    return json.loads(
        text,
        object_pairs_hook=_unique_object,
        parse_int=_bounded_int,
        parse_float=_finite_float,
        parse_constant=_no_constant,
    )


def read_json(path: Path, *, what: str = "JSON file", limit: int = MAX_INPUT_BYTES) -> Any:
    """Parse a JSON file; any problem becomes one InputError line naming the file."""
    raw = read_bytes(path, what=what, limit=limit)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: {what} is not UTF-8 text") from exc
    try:
        return loads_json(text)
    except JsonContentError as exc:
        raise InputError(f"{path}: {what} is refused: {exc.msg}") from exc
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{path}: {what} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from exc
    except RecursionError as exc:
        raise InputError(f"{path}: {what} is nested too deeply to read") from exc


def _default_mode() -> int:
    """The mode a plain open() would give a new file (mkstemp's is owner-only)."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def atomic_write_bytes(path: Path, data: bytes, *, durable: bool = True) -> None:
    """Write ``data`` so that a crash at any instant leaves the old file or the new one.

    ``durable``: the file and its folder are on disk (fsync) before this returns, so a power
    cut keeps the new file too. Without it a process killed at any instant still leaves one
    whole file or the other, while a power cut may lose the new one: for evidence that is
    sensed again, whose reader checks it against its seal, and which the loop makes durable
    (``sync_tree``) before it signs off on it. Missing parent directories are created. A write
    the system refuses (a directory in the way, a read-only place, a full disk) is one
    InputError line naming the path.
    """
    if "\0" in str(path):
        raise InputError(f"cannot write {str(path)!r}: the path contains a NUL character")
    try:
        _write_atomically(path, data, durable)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise InputError(f"cannot write {path}: {reason}") from exc


def _write_atomically(path: Path, data: bytes, durable: bool) -> None:
    import tempfile

    check_writes(path)  # a folder this process locked must still be the one it locked
    if path.is_dir():
        raise IsADirectoryError(errno.EISDIR, "is a directory", str(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, _default_mode())
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    if durable:
        _sync_folder(path.parent)


def atomic_write_text(path: Path, text: str, *, durable: bool = True) -> None:
    atomic_write_bytes(path, text.encode("utf-8"), durable=durable)


def atomic_write_json(path: Path, data: Any, *, durable: bool = True) -> None:
    atomic_write_text(path, json.dumps(data, indent=2, sort_keys=False) + "\n", durable=durable)


def refuse_symlinks(path: Path, within: Path, *, what: str) -> None:
    """InputError when ``path``, or a folder between ``within`` and it, is a symbolic link.

    Baselines, references and run directories are read and written by path: one of their
    folders made a link to somewhere else (outside the repository, say) would have Argus read
    and write there. ``within`` itself is not checked; ``path`` need not exist.
    """
    try:
        parts = path.relative_to(within).parts
    except ValueError:  # outside ``within``: its own folder and name
        parts = (path.parent.name, path.name)
        within = path.parent.parent
    current = within
    for part in parts:
        current = current / part
        if current.is_symlink():
            raise InputError(
                f"{current}: {what} is a symlink (to {os.readlink(current)}); Argus refuses "
                "to read or write through it: replace it with a real folder or file"
            )


@contextmanager
def staged_directory(directory: Path) -> Iterator[Path]:
    """Yield an empty folder beside ``directory`` to fill; it then replaces ``directory`` whole.

    A kill at any instant leaves ``directory`` holding the old contents or the new ones, never
    a mix: the filled folder is swapped in with one atomic exchange (Linux ``renameat2``), and
    only then is the old one, now under the staging name, removed. Where the system has no
    exchange, the old folder is renamed aside first and put back by the next call if a kill
    came between the two renames. An error in the block removes the staging folder and leaves
    ``directory`` as it was.
    """
    import shutil
    import tempfile

    check_writes(directory)
    directory.parent.mkdir(parents=True, exist_ok=True)
    aside = directory.parent / f".{directory.name}.replaced"
    if aside.is_dir() and not directory.exists():  # killed between the two fallback renames
        os.rename(aside, directory)
    elif aside.is_dir():  # killed before the old folder it holds was removed
        shutil.rmtree(aside, ignore_errors=True)
    _remove_abandoned_staging(directory)
    staging = Path(
        tempfile.mkdtemp(prefix=f".{directory.name}.{os.getpid()}.", dir=directory.parent)
    )
    try:
        yield staging
        sync_tree(staging)
        if not directory.exists():
            os.rename(staging, directory)
        elif not _exchange(staging, directory):
            shutil.rmtree(aside, ignore_errors=True)
            os.rename(directory, aside)
            os.rename(staging, directory)
            staging = aside
        _sync_folder(directory.parent)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _remove_abandoned_staging(directory: Path) -> None:
    """Remove the staging folders of ``directory`` whose writer was killed: each is named
    ``.NAME.PID.RANDOM`` after the process that made it, and one whose process is gone is
    abandoned. A live writer's (this process's own included) is left alone."""
    import shutil

    prefix = f".{directory.name}."
    try:
        siblings = list(os.scandir(directory.parent))
    except OSError:
        return
    for entry in siblings:
        pid, dot, rest = entry.name.removeprefix(prefix).partition(".")
        if not entry.name.startswith(prefix) or not dot or "." in rest or not pid.isdecimal():
            continue
        if not _process_alive(int(pid)) and entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path, ignore_errors=True)


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # it exists but is another user's
        return True
    return True


_AT_FDCWD = -100
_RENAME_EXCHANGE = 2


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths atomically; False when the system or file system cannot."""
    import ctypes

    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except AttributeError:  # not glibc 2.28+ (or not Linux)
        return False
    if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), str(b))


def sync_tree(folder: Path) -> None:
    """fsync every file and folder under ``folder`` (and ``folder`` itself): what was written
    there without ``durable`` is on disk once this returns; a swap never exposes empty files."""
    for root, _dirs, names in os.walk(folder):
        for name in names:
            path = os.path.join(root, name)
            if not stat.S_ISREG(os.lstat(path).st_mode):
                continue  # a link, a FIFO (opening it would wait for a writer), a socket
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        _sync_folder(Path(root))


def _sync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
