"""The loop's open runs, in the run-state layer's registry (argus.store.registry), as the
contract runner keeps its own: ``loop-runs/`` of every state home holds one entry per feature
whose run is running or paused (its repository root, feature, run id and status), written when
a run starts, resumes or pauses and removed when it finishes.

The repository's own record stays the run store and ``run.json``; the entry is what a new
session is told about (``argus hook session-start``), and it survives the repository's
``.argus`` being deleted. A report-only run writes nothing outside its run directory, so it has
no entry.
"""

from __future__ import annotations

import re
from pathlib import Path

from argus.loop.records.runrecord import FINISHED, PAUSED
from argus.store.registry import Registry, workspaces

LOOP_RUNS = Registry("loop-runs", "feature", closed=(FINISHED,))
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")  # what a new session is told must be a name


def remember_run(root: Path, feature: str, run_id: str, status: str) -> None:
    """Best effort, in every state home (a home that cannot be written is skipped)."""
    LOOP_RUNS.remember(root, feature, run_id, status)


def open_loop_runs(starts: list[Path]) -> list[str]:
    """One line for each loop run left open in the workspaces of ``starts``: what it is and
    the command that takes it on."""
    lines = []
    for entry in LOOP_RUNS.open_runs(workspaces(starts)):
        feature, run_id = str(entry.get("feature")), str(entry.get("run_id"))
        if not (NAME.fullmatch(feature) and NAME.fullmatch(run_id)):
            continue  # not an entry Argus wrote
        if entry.get("phase") == PAUSED:
            state = "paused until a person acts (`argus runs` shows why)"
        else:
            state = "open (running in another process, or interrupted)"
        lines.append(
            f"loop run {run_id} of feature '{feature}' in {entry['root']} is {state}; "
            f"`argus loop --feature {feature}` resumes it"
        )
    return lines
