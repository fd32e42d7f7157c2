"""One loop per feature at a time: an fcntl lock on ``.argus-runs/loop.lock``.

The kernel drops an flock when its holder dies, even on SIGKILL, so a killed loop never
leaves a stale lock behind and the next run can resume at once. The holder's pid is written
into the file only to make the refusal message useful.
"""

from __future__ import annotations

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
        self.feature = feature
        self._fd: int | None = None

    def acquire(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 64, 0).decode("ascii", errors="replace").strip()
            os.close(fd)
            who = f" (pid {holder})" if holder.isdigit() else ""
            raise StateError(
                f"{self.path}: another argus loop is running on feature "
                f"{self.feature!r}{who}; wait for it to finish or stop it, then rerun"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            os.ftruncate(self._fd, 0)
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None

    close = release  # what ``with`` does on the way out

    def __enter__(self) -> Self:
        self.acquire()
        return self
