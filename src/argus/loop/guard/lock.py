"""One writer per feature at a time: the run-state lock on the feature folder
(argus.store.lock: by its identity, keyed outside the repository).

The lock that counts is an flock on an open descriptor of the feature directory itself
(``argus/specs/F``), whose device and inode are re-checked before every write; and an flock on
a key file outside the repository (``~/.local/state/argus/locks/F-<digest of its path>.lock``,
the account's own state home), so a feature folder swapped for a copy is still held: a second
writer is refused and the holder stops. Deleting ``loop.lock`` (which only names the holder's
pid) cannot release it. Every writer of the loop's files takes it: the loop, ``argus approve``
and the ``argus state`` steps that write.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Self

from argus.closing import Closing
from argus.errors import StateError
from argus.store.lock import key_file as key_file  # the key's place, for tests and docs
from argus.store.lock import run_state_lock

LOCK_NAME = "loop.lock"


class FeatureLock(Closing):
    """Exclusive, non-blocking lock for one feature's run directory."""

    def __init__(self, runs_dir: Path, feature: str) -> None:
        self.path = runs_dir / LOCK_NAME
        self.feature_dir = runs_dir.parent
        self.feature = feature
        self._lock = run_state_lock(self.feature_dir, busy=self._refuse)

    def _refuse(self) -> StateError:
        holder = self._lock.holder()
        if holder in (None, str(os.getpid())):  # our own pid: we got the key, not the folder
            with contextlib.suppress(OSError):
                holder = self.path.read_text(encoding="ascii", errors="replace").strip()
        who = f" (pid {holder})" if holder and holder.isdigit() else ""
        return StateError(
            f"{self.path}: another argus loop is running on feature "
            f"{self.feature!r}{who}; wait for it to finish or stop it, then rerun"
        )

    def acquire(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock.acquire()
        try:
            self.path.write_text(f"{os.getpid()}\n", encoding="ascii")
        except BaseException:
            self._lock.release()
            raise

    def check(self) -> None:
        """FolderSwapped when the feature folder is no longer the one this lock holds."""
        self._lock.check()

    def release(self) -> None:
        with contextlib.suppress(OSError):
            if self._lock.holder() == str(os.getpid()):
                self.path.write_text("", encoding="ascii")
        self._lock.release()

    close = release  # what ``with`` does on the way out

    def __enter__(self) -> Self:
        self.acquire()
        return self
