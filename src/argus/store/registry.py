"""Open runs remembered outside every repository, so deleting a repository's ``.argus`` frees
nothing.

A ``Registry`` is one kind of run (the contract runner's is ``contract-runs``): each open run
has an entry in that folder of every state home (argus.state_home: ``$ARGUS_STATE_HOME``,
``$XDG_STATE_HOME/argus`` and the account's own ``~/.local/state/argus``) holding its
repository root, its name (under ``name_key``), its run id and its phase; a closed one has none.
Entries are written to, and read from, every state home, so a process started with
``ARGUS_STATE_HOME`` pointed elsewhere still finds them. A home that cannot be written leaves the
others alone.

The registry lists runs; it does not make them global. Each entry belongs to the workspace of
its root (``workspace_dirs``: the folders from a place up to the nearest repository, the first
holding ``.git``), and a reader asks only for the entries of the workspace it stands in, so an
open run in one repository never holds a session in another.

An entry lives where the executor's edits of the repository do not reach, not where the same
user cannot reach (a known limit, docs/security.md).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from argus.errors import InputError
from argus.io import atomic_write_json
from argus.state_home import state_homes

MAX_ENTRY_BYTES = 65536
REPOSITORY_MARKER = ".git"  # a folder or, in a linked worktree or a submodule, a file


def workspace_dirs(start: Path) -> list[Path]:
    """``start`` (resolved) and each folder above it up to its repository's root, the nearest
    folder holding ``.git``; every folder up to ``/`` when none does. Empty when ``start``
    cannot be resolved."""
    try:
        here = start.resolve()
    except (OSError, RuntimeError):
        return []
    found: list[Path] = []
    for directory in (here, *here.parents):
        found.append(directory)
        if (directory / REPOSITORY_MARKER).exists():
            break
    return found


def workspaces(starts: Iterable[Path]) -> set[Path]:
    """Every folder of the workspaces of ``starts``."""
    return {directory for start in starts for directory in workspace_dirs(start)}


class Registry:
    """The open runs of one kind, in the folder ``folder`` of every state home."""

    def __init__(self, folder: str, name_key: str, closed: Iterable[str]) -> None:
        self.folder = folder
        self.name_key = name_key
        self.closed = frozenset(closed)

    def dirs(self) -> list[Path]:
        """The registry's folder in every state home, the chosen one first."""
        return [home / self.folder for home in state_homes()]

    def _entries(self, root: Path, name: str) -> list[Path]:
        import hashlib  # only for a write: the Stop hook's read of open runs never hashes

        key = hashlib.sha256(f"{root.resolve()}\0{name}".encode()).hexdigest()[:32]
        return [directory / f"{key}.json" for directory in self.dirs()]

    def remember(self, root: Path, name: str, run_id: str, phase: str) -> None:
        """Record the run's phase in every state home; a closed phase removes its entry."""
        record = {"root": str(root.resolve()), self.name_key: name}
        for path in self._entries(root, name):
            with contextlib.suppress(OSError, InputError):  # InputError: io's refused write
                if phase in self.closed:
                    path.unlink(missing_ok=True)
                else:
                    atomic_write_json(path, {**record, "run_id": run_id, "phase": phase})

    def forget(self, root: Path, name: str) -> bool:
        """Drop the entry of a run whose files are gone (a person's abort) from every state
        home; True if there was one."""
        had = False
        for path in self._entries(root, name):
            if path.is_file():
                had = True
                with contextlib.suppress(OSError):
                    path.unlink()
        return had

    def open_runs(self, places: Iterable[Path] | None = None) -> list[dict[str, Any]]:
        """The entries of open runs, from every state home, each run once; only those whose
        root is one of ``places`` when given (resolved folders, ``workspaces`` says which)."""
        wanted = None if places is None else {str(p) for p in places}
        found: list[dict[str, Any]] = []
        seen: set[tuple[str, str, str]] = set()
        for directory in self.dirs():
            if not directory.is_dir():
                continue
            for path in sorted(directory.glob("*.json")):
                with contextlib.suppress(OSError, ValueError, RecursionError):
                    data = json.loads(path.read_bytes()[:MAX_ENTRY_BYTES])
                    fits = isinstance(data, dict) and isinstance(data.get("root"), str)
                    if not fits or (wanted is not None and data["root"] not in wanted):
                        continue
                    key = (data["root"], str(data.get(self.name_key)), str(data.get("run_id")))
                    if key not in seen:
                        seen.add(key)
                        found.append(data)
        return found
