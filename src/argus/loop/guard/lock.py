"""One writer per feature at a time: a lock on the feature folder by its identity
(argus.folderlock), keyed outside the repository.

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
import hashlib
import os
from pathlib import Path
from typing import Self

from argus import state_home
from argus.closing import Closing
from argus.errors import StateError
from argus.folderlock import FolderLock

LOCK_NAME = "loop.lock"


def key_file(feature_dir: Path) -> Path:
    """The feature's lock key: outside every repository, in the account's own state home
    (argus.state_home, from the password database, so no environment variable moves it),
    named by the feature folder's path."""
    resolved = feature_dir.resolve()
    digest = hashlib.sha256(str(resolved).encode()).hexdigest()[:16]
    return state_home.account_home() / "locks" / f"{resolved.name}-{digest}.lock"


class FeatureLock(Closing):
    """Exclusive, non-blocking lock for one feature's run directory."""

    def __init__(self, runs_dir: Path, feature: str) -> None:
        self.path = runs_dir / LOCK_NAME
        self.feature_dir = runs_dir.parent
        self.feature = feature
        self._lock = FolderLock(self.feature_dir, key=key_file(self.feature_dir), busy=self._refuse)

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
