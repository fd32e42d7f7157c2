"""The contract runner's open runs, in the run-state layer's registry (argus.store.registry):
``contract-runs/`` of every state home, one entry per run that is not closed (its repository
root, contract id, run id and phase), written by every state change and removed when the run
completes or is aborted.

The Stop hook reads the entries of the workspace it stands in: an entry whose run is no longer
in the repository (state.json deleted, or replaced by another run) holds the session.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from argus.store.registry import Registry

TERMINAL = ("completed", "aborted")
CONTRACT_RUNS = Registry("contract-runs", "contract_id", closed=TERMINAL)


def registry_dir() -> Path:
    """The chosen state home's registry folder."""
    return CONTRACT_RUNS.dirs()[0]


def remember(root: Path, contract_id: str, run_id: str, phase: str) -> None:
    """Best effort, in every state home: one that cannot be written leaves the others (and
    the repository's record) alone."""
    CONTRACT_RUNS.remember(root, contract_id, run_id, phase)


def remembered(root: Path | None = None, places: set[Path] | None = None) -> list[dict[str, Any]]:
    """The entries of open runs: of ``root`` when given, else of the folders ``places`` when
    given, else every one."""
    if root is not None:
        return CONTRACT_RUNS.open_runs({root.resolve()})
    return CONTRACT_RUNS.open_runs(places)


def forget(root: Path, contract_id: str) -> bool:
    """Drop a remembered run whose files are gone (a person's abort) from every state home;
    True if there was one."""
    return CONTRACT_RUNS.forget(root, contract_id)
