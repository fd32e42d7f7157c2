"""Which run to report: the one named, else the latest (of a feature, or of any feature).
Only a loop's runs are reported; a contract run in the same store is skipped (and refused when
named).

Runs are read from the repository's store and from each feature's report-only store. Reading
never creates a store: a repository without one simply has no runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from argus.errors import InputError
from argus.report.rundir import RunSource, real_runs, report_only_runs
from argus.spec.paths import SPECS_DIR
from argus.store import Event, Run, RunStore


@dataclass(frozen=True)
class FoundRun:
    run: Run
    source: RunSource
    events: tuple[Event, ...]
    latest: bool  # no later run of the feature in the same store


def _sources(root: Path, feature: str | None) -> list[RunSource]:
    specs = root / SPECS_DIR
    if feature is not None:
        features = [feature]
    else:
        features = sorted(p.name for p in specs.iterdir() if p.is_dir()) if specs.is_dir() else []
    candidates = [real_runs(root), *(report_only_runs(specs / name) for name in features)]
    return [source for source in candidates if source.has_store]


def find_run(root: Path, feature: str | None = None, run_id: str | None = None) -> FoundRun:
    """The run to report; InputError (exit 2) when there is none or ``run_id`` is unknown."""
    found: list[tuple[Run, RunSource]] = []
    for source in _sources(root, feature):
        with RunStore.open(source.store_root) as store:
            found.extend((run, source) for run in store.runs(feature=feature))
    scope = f"feature '{feature}'" if feature is not None else root.as_posix()
    contract = [run for run, _ in found if run.kind == "contract" and run.run_id == run_id]
    if contract:
        raise InputError(
            f"run {run_id!r} is a contract run, not a loop's: it has no report; 'argus contract "
            f"status {contract[0].feature.removeprefix('contract/')}' shows it"
        )
    # A contract run shares the store but has no views or iterations to report.
    found = [(run, source) for run, source in found if run.kind == "loop"]
    if run_id is not None:
        found = [(run, source) for run, source in found if run.run_id == run_id]
        if not found:
            raise InputError(
                f"no run {run_id!r} recorded for {scope}; 'argus runs' lists the recorded runs"
            )
    if not found:
        hint = f"--feature {feature}" if feature is not None else "--feature F"
        raise InputError(f"no runs recorded for {scope}; run 'argus loop {hint}' first")
    run, source = max(found, key=lambda pair: pair[0].started_at)
    with RunStore.open(source.store_root) as store:
        events = tuple(store.events(run_id=run.run_id))
        last = store.last_run(run.feature)
    return FoundRun(run, source, events, last is not None and last.run_id == run.run_id)
