"""Reading a run's files: where its store and view directories are, and whether they are its.

The loop (argus.loop.records.layout) keeps a real run's files under ``.argus-runs/`` with the store
at ``.argus/argus.db``, and a report-only run's files and store under ``.argus-runs/report-only/``.
A view directory is reused by the next run that converges the view (its ``run-id.txt`` names the
owner), so a report of an older run may find the directory holding another run's files: those are
never shown as this run's, and the report falls back to the store's events.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from argus.errors import ArgusError
from argus.io import read_json
from argus.loop.records.layout import (
    ITERATION_PREFIX,
    OUTCOME_FILE,
    STATE_FILE,
    VIEW_RUN_MARKER,
    RunLayout,
)
from argus.store import db_path


@dataclass(frozen=True)
class RunSource:
    """One place runs are recorded: a run store, and whether its runs are report-only."""

    store_root: Path
    report_only: bool

    @property
    def has_store(self) -> bool:
        return db_path(self.store_root).is_file()

    def layout(self, spec_dir: Path) -> RunLayout:
        return RunLayout(spec_dir, report_only=self.report_only)


def real_runs(root: Path) -> RunSource:
    return RunSource(root, report_only=False)


def report_only_runs(spec_dir: Path) -> RunSource:
    return RunSource(RunLayout(spec_dir, report_only=True).runs_dir, report_only=True)


def read_object(path: Path, notes: list[str]) -> dict[str, Any] | None:
    """A JSON object from ``path``; None when absent, and a note when unreadable."""
    if not path.is_file():
        return None
    try:
        data = read_json(path, what=path.name)
    except ArgusError as exc:
        notes.append(str(exc))
        return None
    if not isinstance(data, dict):
        notes.append(f"{path}: expected a JSON object; ignored")
        return None
    return data


@dataclass(frozen=True)
class ViewDir:
    """One view's directory as far as it belongs to the run being reported."""

    path: Path
    owner: str  # the run that owns the directory ("" when unknown)
    state: Mapping[str, Any] | None  # state.json, raw

    def iteration_dir(self, n: int) -> Path:
        return self.path / f"{ITERATION_PREFIX}{n}"

    def committed_iterations(self) -> list[int]:
        """Iterations the view's state counts (or, without a state, those with an outcome)."""
        found: list[int] = []
        if not self.path.is_dir():
            return found
        counted = self.state.get("iteration") if self.state is not None else None
        for child in self.path.iterdir():
            number = child.name.removeprefix(ITERATION_PREFIX)
            if not (child.is_dir() and child.name.startswith(ITERATION_PREFIX)):
                continue
            if not number.isdigit():
                continue
            if isinstance(counted, int):
                if int(number) <= counted:
                    found.append(int(number))
            elif (child / OUTCOME_FILE).is_file():
                found.append(int(number))
        return sorted(found)


def owner_of(directory: Path, run_file_owner: str) -> str:
    """The run a view directory belongs to: its marker, else the run named by run.json."""
    marker = directory / VIEW_RUN_MARKER
    if marker.is_file():
        try:
            return marker.read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError):
            return ""
    return run_file_owner if directory.is_dir() else ""


def view_dir(
    layout: RunLayout, slug: str, run_file_owner: str, run_id: str, notes: list[str]
) -> ViewDir | None:
    """The view's directory when ``run_id`` owns it; None (with a note when useful) otherwise."""
    path = layout.runs_dir / slug
    owner = owner_of(path, run_file_owner)
    if not path.is_dir():
        return None
    if owner != run_id:
        if owner:
            notes.append(
                f"{slug}: renders not shown; run {owner} has since reused the view's directory"
            )
        return None
    return ViewDir(path, owner, read_object(path / STATE_FILE, notes))
