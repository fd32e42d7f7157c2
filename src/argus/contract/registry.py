"""Open runs remembered outside the repository, so deleting ``.argus/contracts`` frees nothing.

Each run that is not closed has an entry in ``contract-runs/`` of every state home
(argus.state_home: ``$ARGUS_STATE_HOME``, ``$XDG_STATE_HOME/argus`` and the account's own
``~/.local/state/argus``): its repository root, contract id, run id and phase, written by every
state change and removed when the run completes or is aborted. Entries are read from every
state home, so a hook started with ``ARGUS_STATE_HOME`` pointed elsewhere still finds them.
The Stop hook reads the entries for the roots it looks at: an entry whose run is no longer
in the repository (state.json deleted, or replaced by another run) holds the session.
The entry lives where the executor's edits of the repository do not reach, not where the same
user cannot reach (a known limit, docs/security.md).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from pathlib import Path
from typing import Any

from argus.io import atomic_write_json
from argus.state_home import state_homes

TERMINAL = ("completed", "aborted")


def registry_dirs() -> list[Path]:
    """The registry folder of every state home, the chosen one first."""
    return [home / "contract-runs" for home in state_homes()]


def registry_dir() -> Path:
    """The chosen state home's registry folder."""
    return registry_dirs()[0]


def _entries(root: Path, contract_id: str) -> list[Path]:
    key = hashlib.sha256(f"{root.resolve()}\0{contract_id}".encode()).hexdigest()[:32]
    return [directory / f"{key}.json" for directory in registry_dirs()]


def remember(root: Path, contract_id: str, run_id: str, phase: str) -> None:
    """Best effort, in every state home: one that cannot be written leaves the others (and
    the repository's record) alone."""
    record = {"root": str(root.resolve()), "contract_id": contract_id}
    for path in _entries(root, contract_id):
        with contextlib.suppress(OSError):
            if phase in TERMINAL:
                path.unlink(missing_ok=True)
            else:
                atomic_write_json(path, {**record, "run_id": run_id, "phase": phase})


def remembered(root: Path | None = None) -> list[dict[str, Any]]:
    """The entries of open runs (under ``root`` when given), from every state home, each run
    once."""
    wanted = str(root.resolve()) if root is not None else None
    found: list[dict[str, Any]] = []
    seen: set[tuple[str, str, str]] = set()
    for directory in registry_dirs():
        if not directory.is_dir():
            continue
        for path in sorted(directory.glob("*.json")):
            with contextlib.suppress(OSError, ValueError, RecursionError):
                data = json.loads(path.read_bytes()[:65536])
                fits = isinstance(data, dict) and isinstance(data.get("root"), str)
                if not fits or (wanted is not None and data["root"] != wanted):
                    continue
                key = (data["root"], str(data.get("contract_id")), str(data.get("run_id")))
                if key not in seen:
                    seen.add(key)
                    found.append(data)
    return found


def forget(root: Path, contract_id: str) -> bool:
    """Drop a remembered run whose files are gone (a person's abort) from every state home;
    True if there was one."""
    had = False
    for path in _entries(root, contract_id):
        if path.is_file():
            had = True
            with contextlib.suppress(OSError):
                path.unlink()
    return had
