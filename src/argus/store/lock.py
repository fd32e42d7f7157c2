"""The one run-state lock: one writer per run-state folder (a loop's feature folder, a contract
run's state folder), held by the folder's identity and by a key outside every repository.

``run_state_lock`` is an ``argus.folderlock.FolderLock`` on the folder with its key file in the
account's own state home (``~/.local/state/argus/locks/NAME-<digest of the folder's path>.lock``;
argus.state_home, from the password database, so no environment variable moves it, and
confinement leaves it read-only to what Argus runs). A folder swapped for a copy while its holder
runs is locked by nobody, but the key is the same file for both, so a second writer is still
refused, and the holder stops at its next write (``FolderSwapped``). The kernel drops both
flocks when the holder dies, even on SIGKILL.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

from argus import state_home
from argus.errors import StateError
from argus.folderlock import FolderLock


def key_file(folder: Path) -> Path:
    """The folder's lock key: outside every repository, named by the folder's path."""
    resolved = folder.resolve()
    digest = hashlib.sha256(str(resolved).encode()).hexdigest()[:16]
    return state_home.account_home() / "locks" / f"{resolved.name}-{digest}.lock"


def run_state_lock(
    folder: Path, *, busy: Callable[[], StateError] | None = None, blocking: bool = False
) -> FolderLock:
    """The lock of the run-state folder ``folder`` (not yet acquired: use ``with``)."""
    return FolderLock(folder, key=key_file(folder), busy=busy, blocking=blocking)
