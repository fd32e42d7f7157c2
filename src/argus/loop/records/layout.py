"""Where a run keeps its files, under ``argus/specs/{feature}/.argus-runs/``.

    .argus-runs/
      loop.lock                     one loop per feature (flock)
      run.json                      the current run: id, mode, per-view status (RunRecord)
      signoff.json                  sign-off records, the only committed file
      candidates/{slug}.png         candidate references awaiting approval (HE-1)
      .protected/                   content-addressed copies of the protected set
      {slug}/state.json             the view's loop state (argus.loop.records.state)
      {slug}/run-id.txt             the run that owns the view's directory
      {slug}/iteration-N/           prompt.md, implementer.log, implementer.json, render.png,
                                    probe.json, console.json, meta.json, gate-result.json,
                                    verdict.json, outcome.json
      report-only/                  the same layout for report-only runs (their own run.json,
                                    views and run store), so a dry run never disturbs a real one

An iteration is committed when the view's state.json counts it; an iteration directory past
that count is the leftover of a killed process and is redone.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from argus.spec.model import View

RUNS_DIR = ".argus-runs"
REPORT_ONLY_DIR = "report-only"
RUN_FILE = "run.json"
STATE_FILE = "state.json"
OUTCOME_FILE = "outcome.json"
ITERATION_PREFIX = "iteration-"
VIEW_RUN_MARKER = "run-id.txt"


@dataclass(frozen=True)
class RunLayout:
    spec_dir: Path
    report_only: bool = False

    @property
    def feature_runs(self) -> Path:
        """The feature's ``.argus-runs`` (where signoff.json and the lock live)."""
        return self.spec_dir / RUNS_DIR

    @property
    def runs_dir(self) -> Path:
        """Where this mode's run files and view directories go."""
        base = self.feature_runs
        return base / REPORT_ONLY_DIR if self.report_only else base

    @property
    def run_file(self) -> Path:
        return self.runs_dir / RUN_FILE

    @property
    def signoff_file(self) -> Path:
        return self.feature_runs / "signoff.json"

    @property
    def copies_dir(self) -> Path:
        return self.runs_dir / ".protected"

    def view_dir(self, view: View) -> Path:
        return self.runs_dir / view.slug

    def state_file(self, view: View) -> Path:
        return self.view_dir(view) / STATE_FILE

    def iteration_dir(self, view: View, iteration: int) -> Path:
        return self.view_dir(view) / f"{ITERATION_PREFIX}{iteration}"

    def iterations_on_disk(self, view: View) -> list[int]:
        """Iteration numbers that have a directory, ascending."""
        found: list[int] = []
        directory = self.view_dir(view)
        if not directory.is_dir():
            return found
        for child in directory.iterdir():
            number = child.name.removeprefix(ITERATION_PREFIX)
            if child.is_dir() and child.name.startswith(ITERATION_PREFIX) and number.isdigit():
                found.append(int(number))
        return sorted(found)

    def latest(self, view: View, name: str, before: int) -> Path | None:
        """The file ``name`` of the latest iteration before ``before`` that has one."""
        for i in range(before - 1, 0, -1):
            candidate = self.iteration_dir(view, i) / name
            if candidate.is_file():
                return candidate
        return None

    def previous_render(self, view: View, n: int) -> Path | None:
        """The render of the latest iteration before ``n`` that has one."""
        return self.latest(view, "render.png", n)
