"""One writer per feature at a time: an flock on the feature directory and on
``.argus-runs/loop.lock``.

The kernel drops an flock when its holder dies, even on SIGKILL, so a killed loop never
leaves a stale lock behind and the next run can resume at once. The lock that counts is held
on an open descriptor of the feature directory itself (``argus/specs/F``): deleting
``loop.lock`` (a path anyone in the working tree can remove) cannot release it, and removing
the feature directory would remove the spec with it. ``loop.lock`` holds the holder's pid,
only to make the refusal message useful. Every writer of the loop's files takes it: the loop,
``argus approve`` and the ``argus state`` steps that write.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path
from typing import Self

from argus.closing import Closing
from argus.errors import StateError

LOCK_NAME = "loop.lock"


class FeatureLock(Closing):
    """Exclusive, non-blocking lock for one feature's run directory."""

    def __init__(self, runs_dir: Path, feature: str) -> None:
        self.path = runs_dir / LOCK_NAME
        self.feature_dir = runs_dir.parent
        self.feature = feature
        self._fd: int | None = None
        self._dir_fd: int | None = None

    def _refuse(self) -> StateError:
        holder = ""
        with contextlib.suppress(OSError):
            holder = self.path.read_text(encoding="ascii", errors="replace").strip()
        who = f" (pid {holder})" if holder.isdigit() else ""
        return StateError(
            f"{self.path}: another argus loop is running on feature "
            f"{self.feature!r}{who}; wait for it to finish or stop it, then rerun"
        )

    def acquire(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        dir_fd = os.open(self.feature_dir, os.O_RDONLY | os.O_DIRECTORY)
        try:
            fcntl.flock(dir_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(dir_fd)
            raise self._refuse() from None
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            os.close(dir_fd)
            raise
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            os.close(dir_fd)
            raise self._refuse() from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        self._fd, self._dir_fd = fd, dir_fd

    def release(self) -> None:
        if self._fd is not None:
            os.ftruncate(self._fd, 0)
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None
        if self._dir_fd is not None:
            fcntl.flock(self._dir_fd, fcntl.LOCK_UN)
            os.close(self._dir_fd)
            self._dir_fd = None

    close = release  # what ``with`` does on the way out

    def __enter__(self) -> Self:
        self.acquire()
        return self
