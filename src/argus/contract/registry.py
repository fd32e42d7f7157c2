"""Open runs remembered outside the repository, so deleting ``.argus/contracts`` frees nothing.

Each run that is not closed has an entry in ``$ARGUS_STATE_HOME/contract-runs/`` (default
``$XDG_STATE_HOME/argus``, else ``~/.local/state/argus``): its repository root, contract id,
run id and phase, written by every state change and removed when the run completes or is
aborted. The Stop hook reads the entries for the roots it looks at: an entry whose run is no
longer in the repository (state.json deleted, or replaced by another run) holds the session.
The entry lives where the executor's edits of the repository do not reach, not where the same
user cannot reach (a known limit, docs/security.md).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from pathlib import Path
from typing import Any

from argus.io import atomic_write_json

TERMINAL = ("completed", "aborted")


def registry_dir() -> Path:
    base = os.environ.get("ARGUS_STATE_HOME")
    if base:
        return Path(base) / "contract-runs"
    xdg = os.environ.get("XDG_STATE_HOME")
    home = Path(xdg) / "argus" if xdg else Path.home() / ".local" / "state" / "argus"
    return home / "contract-runs"


def _entry(root: Path, contract_id: str) -> Path:
    key = hashlib.sha256(f"{root.resolve()}\0{contract_id}".encode()).hexdigest()[:32]
    return registry_dir() / f"{key}.json"


def remember(root: Path, contract_id: str, run_id: str, phase: str) -> None:
    """Best effort: a registry that cannot be written leaves the repository's record alone."""
    path = _entry(root, contract_id)
    with contextlib.suppress(OSError):
        if phase in TERMINAL:
            path.unlink(missing_ok=True)
        else:
            record = {"root": str(root.resolve()), "contract_id": contract_id}
            atomic_write_json(path, {**record, "run_id": run_id, "phase": phase})


def remembered(root: Path | None = None) -> list[dict[str, Any]]:
    """The entries of open runs (under ``root`` when given)."""
    directory = registry_dir()
    if not directory.is_dir():
        return []
    wanted = str(root.resolve()) if root is not None else None
    found = []
    for path in sorted(directory.glob("*.json")):
        with contextlib.suppress(OSError, ValueError, RecursionError):
            data = json.loads(path.read_bytes()[:65536])
            fits = isinstance(data, dict) and isinstance(data.get("root"), str)
            if fits and (wanted is None or data["root"] == wanted):
                found.append(data)
    return found


def forget(root: Path, contract_id: str) -> bool:
    """Drop a remembered run whose files are gone (a person's abort); True if there was one."""
    path = _entry(root, contract_id)
    if not path.is_file():
        return False
    with contextlib.suppress(OSError):
        path.unlink()
    return True
