"""The loop's own records under ``.argus-runs/``, guarded like the protected set.

The loop decides from its records: state.json says when a view signs off, outcome.json what the
last iteration found, verdict.json what the judge said, run-id.txt which run owns a view
directory. The implementer runs in the same working tree, so it could write any of them (a
state.json with two passes for a view nobody judged). Around every implementer call the loop
hashes these files and fails the iteration on any change, putting the originals back.

What counts as a record, per runs directory (the feature's and its ``report-only/``):
``run.json``, ``signoff.json``, ``candidates/**``, and in each view directory ``run-id.txt``,
``state.json`` and everything under ``iteration-*/``. Not records: the lock, the copies in
``.protected/`` (checked by digest when used), reports, and what ``argus sense|gates|judge``
write at the top of a view directory when a person or the implementer runs them by hand.
In the iteration being edited, the files the loop itself writes during the call
(``implementer.log``, ``implementer.json``) are left out. The digests themselves are kept in the
run store (argus.loop.guard.manifest), not in the working tree.
"""

from __future__ import annotations

import os
from pathlib import Path

RUN_FILES = ("run.json", "signoff.json")
VIEW_FILES = ("run-id.txt", "state.json")
NOT_VIEW_DIRS = frozenset({"candidates", ".protected", "report-only"})
REPORT_ONLY_DIR = "report-only"
ITERATION_PREFIX = "iteration-"
# Written by the loop while the implementer runs, in that iteration's directory.
WRITTEN_DURING_EDIT = frozenset({"implementer.log", "implementer.json"})


def _files_under(directory: Path) -> list[Path]:
    found: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(directory):
        dirnames.sort()
        found.extend(Path(dirpath) / name for name in sorted(filenames))
    return found


def _runs_dir_records(runs: Path, editing: Path | None) -> list[Path]:
    found = [runs / name for name in RUN_FILES if (runs / name).is_file()]
    if (runs / "candidates").is_dir():
        found.extend(_files_under(runs / "candidates"))
    if not runs.is_dir():
        return found
    for view_dir in sorted(p for p in runs.iterdir() if p.is_dir()):
        if view_dir.name in NOT_VIEW_DIRS:
            continue
        found.extend(view_dir / name for name in VIEW_FILES if (view_dir / name).is_file())
        for child in sorted(view_dir.iterdir()):
            if not (child.is_dir() and child.name.startswith(ITERATION_PREFIX)):
                continue
            for path in _files_under(child):
                if child == editing and path.parent == child and path.name in WRITTEN_DURING_EDIT:
                    continue
                found.append(path)
    return found


def record_paths(root: Path, feature_runs: Path, *, editing: Path | None = None) -> list[str]:
    """Repo-relative POSIX paths of the loop's records; ``editing`` is the directory of the
    iteration whose implementer call is being guarded."""
    paths = _runs_dir_records(feature_runs, editing)
    paths += _runs_dir_records(feature_runs / REPORT_ONLY_DIR, editing)
    root = root.resolve()
    out: set[str] = set()
    for path in paths:
        # The leaf is not resolved: a record replaced by a symlink is still that record.
        try:
            out.add((path.parent.resolve() / path.name).relative_to(root).as_posix())
        except ValueError:
            continue  # a directory linked out of the repository is nothing the loop wrote
    return sorted(out)


def run_files(root: Path, feature_runs: Path) -> tuple[str, ...]:
    """The run.json files, which a resumed loop rewrites itself before it checks anything."""
    root = root.resolve()
    return tuple(
        (base / "run.json").resolve().relative_to(root).as_posix()
        for base in (feature_runs, feature_runs / REPORT_ONLY_DIR)
    )
