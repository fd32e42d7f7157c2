"""One writer per folder, held by the folder's identity: the run-state lock of the loop (a
feature folder) and of the contract runner (a contract's state folder).

A lock taken by path guards the path, not the folder: a folder renamed away and replaced by a
copy while its holder runs leaves the holder locking the old folder and lets a second writer
lock the copy. So a ``FolderLock``

- holds an ``flock`` on an open descriptor of the folder itself and records its device and
  inode (checked against the path right after locking: a swap during ``acquire`` is caught);
- optionally also holds a *key* file kept outside the folder (the loop's is in the account's
  state home, which confinement leaves read-only): a copy swapped in for the folder is locked
  by nobody, but the key is the same path for both, so a second writer is still refused;
- re-checks before every write (``argus.io`` calls ``check_writes`` for each file it writes)
  that the folder's path still resolves to the same device and inode, and the key to the file
  it holds, and raises ``FolderSwapped`` (one line) when it does not: the holder stops rather
  than write into a folder it does not hold.

The kernel drops an flock when its holder dies, even on SIGKILL, so a killed holder never
leaves a stale lock.
"""

from __future__ import annotations

import errno
import fcntl
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Self

from argus.closing import Closing
from argus.errors import StateError

_HELD: list[FolderLock] = []
_HELD_LOCK = threading.Lock()


class FolderSwapped(StateError):
    """The folder (or the key) a lock holds is no longer what its path names."""


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


class FolderLock(Closing):
    """Exclusive lock on ``folder`` by identity (see the module doc). ``busy`` makes the error
    a second holder gets; ``blocking`` waits for the holder instead."""

    def __init__(
        self,
        folder: Path,
        *,
        key: Path | None = None,
        busy: Callable[[], StateError] | None = None,
        blocking: bool = False,
    ) -> None:
        self.folder = folder
        self.key = key
        self._busy = busy or (lambda: StateError(f"{folder}: another argus process holds it"))
        self._blocking = blocking
        self._fds: list[int] = []
        self._ids: dict[Path, tuple[int, int]] = {}

    def _lock(self, path: Path, flags: int) -> None:
        try:
            fd = os.open(path, flags | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.ENOTDIR) and path.is_symlink():
                raise StateError(
                    f"{path}: is a symbolic link; a lock holds a folder by its identity, so "
                    "replace the link with the folder it points to"
                ) from exc
            raise
        self._fds.append(fd)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | (0 if self._blocking else fcntl.LOCK_NB))
        except BlockingIOError:
            raise self._busy() from None
        st = os.fstat(fd)
        self._ids[path] = (st.st_dev, st.st_ino)
        if _identity(path) != self._ids[path]:
            raise FolderSwapped(f"{path}: replaced while being locked; rerun")

    def acquire(self) -> None:
        try:
            if self.key is not None:
                self.key.parent.mkdir(parents=True, exist_ok=True)
                self._lock(self.key, os.O_RDWR | os.O_CREAT)
                os.ftruncate(self._fds[-1], 0)
                os.pwrite(self._fds[-1], f"{os.getpid()}\n".encode("ascii"), 0)
            self._lock(self.folder, os.O_RDONLY | os.O_DIRECTORY)
        except BaseException:
            self.release()
            raise
        with _HELD_LOCK:
            _HELD.append(self)

    def holder(self) -> str | None:
        """The pid the key file names (its holder wrote it), for a refusal message."""
        if self.key is None:
            return None
        try:
            text = self.key.read_text(encoding="ascii", errors="replace").strip()
        except OSError:
            return None
        return text if text.isdigit() else None

    def check(self) -> None:
        """FolderSwapped unless the folder and the key are still the ones this lock holds."""
        for path, identity in self._ids.items():
            if _identity(path) != identity:
                what = "the lock file" if path == self.key else "the folder"
                raise FolderSwapped(
                    f"{path}: {what} was replaced (moved, deleted or swapped for a copy) while "
                    "this argus process held it; stopped without writing. Check what changed "
                    "it, put the original back, then rerun"
                )

    def release(self) -> None:
        with _HELD_LOCK:
            if self in _HELD:
                _HELD.remove(self)
        for fd in reversed(self._fds):
            os.close(fd)  # closing the descriptor releases its flock
        self._fds.clear()
        self._ids.clear()

    close = release

    def __enter__(self) -> Self:
        self.acquire()
        return self


def check_writes(path: Path) -> None:
    """Before writing ``path``: every folder lock this process holds on a folder holding the
    path must still hold it (FolderSwapped otherwise)."""
    with _HELD_LOCK:
        held = list(_HELD)
    if not held:
        return
    absolute = Path(os.path.abspath(path))
    for lock in held:
        if absolute.is_relative_to(os.path.abspath(lock.folder)):
            lock.check()
