"""What the review page lists: each feature's latest run, its views, and what waits on a person.

The run's gates, verdict and timeline come from the report's collector (argus.report), so the
page and the HTML report never disagree. The render shown is the one a person's decision acts
on: the view's latest committed render (argus.loop.human.decisions.latest_render).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from argus.config import ProjectConfig, load_config
from argus.errors import ArgusError
from argus.evidence.attempt import stale_reason
from argus.gates.comparison import comparison_for
from argus.loop.guard.lock import LOCK_NAME
from argus.loop.human.baseline import view_baseline
from argus.loop.human.decisions import committed_renders, has_candidate
from argus.loop.human.references import candidate_path
from argus.loop.records.layout import RunLayout
from argus.report.collect import collect_report
from argus.report.model import RunReport, ViewReport
from argus.report.rundir import real_runs
from argus.report.select import FoundRun
from argus.spec import Spec, View, find_specs, load_spec
from argus.store import Run, RunStore, db_path
from argus.ui._snapdiff import SnapDiff, snapshot_diff

FILTERS = ("all", "failed", "pending", "changed")
FAILED = frozenset({"BLOCKED", "FAILED", "UNFINISHED", "ABANDONED"})
RECENT_RUNS = 12


@dataclass(frozen=True)
class ViewCard:
    """One view as the page shows it."""

    feature: str
    run_id: str
    view: View
    status: str
    detail: str
    waiting: str  # "HE-1" (a candidate reference), "HE-2" (the run's spot-check) or ""
    render: Path | None
    iteration: int | None
    reference: Path | None
    reference_label: str
    baseline: Path | None
    snapshot: SnapDiff | None  # the render against its baseline, when both exist
    report: ViewReport | None  # gates, verdict, timeline (None: not in the run)
    error: str = ""  # why the snapshot could not be compared
    iterations: tuple[int, ...] = ()  # committed iterations with a render, oldest first

    @property
    def latest(self) -> bool:
        """The render shown is the latest: the one a decision acts on."""
        return not self.iterations or self.iteration == self.iterations[-1]

    @property
    def slug(self) -> str:
        return self.view.slug

    @property
    def changed(self) -> bool:
        return self.snapshot is not None and self.snapshot.changed

    @property
    def failed(self) -> bool:
        if self.status in FAILED:
            return True
        report = self.report
        if report is None:
            return False
        red_gates = report.gates is not None and bool(report.gates.red)
        return red_gates or (report.verdict is not None and report.verdict.outcome == "fail")

    def matches(self, wanted: str) -> bool:
        if wanted == "failed":
            return self.failed
        if wanted == "pending":
            return bool(self.waiting)
        if wanted == "changed":
            return self.changed
        return True


@dataclass(frozen=True)
class FeatureRuns:
    feature: str
    spec: Spec | None
    run: RunReport | None
    views: tuple[ViewCard, ...]
    loop_pid: int | None  # a loop holds the feature's lock
    notes: tuple[str, ...] = ()


def loop_holder(spec_dir: Path) -> int | None:
    """The pid of a live loop holding the feature's lock, read without taking the lock (taking
    it, even briefly, could make a loop starting at that moment refuse to run)."""
    path = RunLayout(spec_dir).feature_runs / LOCK_NAME
    try:
        text = path.read_text(encoding="ascii", errors="replace").strip()
    except OSError:
        return None
    if not text.isdigit():
        return None
    pid = int(text)
    if pid == os.getpid():
        return None  # this server's own decision holds it for an instant, not a loop
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:
        return pid
    return pid


def features(root: Path) -> list[str]:
    return [p.parent.name for p in find_specs(root)]


def recent_runs(root: Path) -> list[Run]:
    if not db_path(root).is_file():
        return []
    with RunStore.open(root) as store:
        return store.runs(limit=RECENT_RUNS)


def _latest_run(root: Path, feature: str) -> FoundRun | None:
    if not db_path(root).is_file():
        return None
    with RunStore.open(root) as store:
        run = store.last_run(feature)
        if run is None:
            return None
        events = tuple(store.events(run_id=run.run_id))
    return FoundRun(run, real_runs(root), events, True)


def _reference(spec: Spec, view: View) -> tuple[Path | None, str]:
    reference = spec.target(view.target).reference_for(view.state, view.appearance)
    if reference is not None and reference.status == "present" and reference.file is not None:
        return reference.file, "Reference"
    candidate = candidate_path(RunLayout(spec.spec_dir).feature_runs, view)
    if candidate.is_file():
        return candidate, "Candidate reference"
    return None, "Reference"


def _waiting(spec: Spec, view: View, run: RunReport | None) -> str:
    if has_candidate(spec, view):
        return "HE-1"
    if run is None:
        return ""
    firsts = [s for s in run.signoffs if s.run_id == run.run_id]
    first = firsts[0] if firsts else None
    if first is not None and first.slug == view.slug and first.spotcheck.status == "pending":
        return "HE-2"
    return ""


def view_card(
    spec: Spec,
    config: ProjectConfig,
    view: View,
    run: RunReport | None,
    at: int | None = None,
) -> ViewCard:
    """The view as the page shows it: the latest committed render, or iteration ``at``'s."""
    reports = {v.slug: v for v in run.views} if run is not None else {}
    report = reports.get(view.slug)
    renders = committed_renders(RunLayout(spec.spec_dir), view)
    chosen = [r for r in renders if r[1] == at] if at is not None else []
    found = chosen[0] if chosen else (renders[-1] if renders else None)
    render, iteration = found if found is not None else (None, None)
    reference, label = _reference(spec, view)
    baseline = view_baseline(spec, config, view)
    snapshot = None
    error = ""
    stale = stale_reason(render.parent, view.slug) if render is not None else None
    if stale is not None:
        # Files of a sense that did not succeed: never shown (or accepted) as this iteration's.
        render, error = None, stale
    if render is not None and baseline.is_file():
        try:
            snapshot = snapshot_diff(render, baseline, comparison_for(config, spec, view))
        except ArgusError as exc:
            error = str(exc)
    status = report.status if report is not None else "NOT_STARTED"
    detail = report.status_detail if report is not None else "not in the latest run"
    return ViewCard(
        feature=spec.feature,
        run_id=run.run_id if run is not None else "",
        view=view,
        status=status,
        detail=detail,
        waiting=_waiting(spec, view, run),
        render=render,
        iteration=iteration,
        reference=reference,
        reference_label=label,
        baseline=baseline if baseline.is_file() else None,
        snapshot=snapshot,
        report=report,
        error=error,
        iterations=tuple(n for _, n in renders),
    )


def feature_runs(root: Path, feature: str) -> FeatureRuns:
    """The feature's latest run and every view of its spec; what cannot be read is a note."""
    spec_dir = root / "argus" / "specs" / feature
    try:
        spec = load_spec(spec_dir / "spec.json")
        config = load_config(root)
    except ArgusError as exc:
        return FeatureRuns(feature, None, None, (), loop_holder(spec_dir), (str(exc),))
    found = _latest_run(root, feature)
    run = collect_report(root, found, pictures=False) if found is not None else None
    cards = tuple(view_card(spec, config, view, run) for view in spec.views())
    notes = run.notes if run is not None else ("no run recorded yet",)
    return FeatureRuns(feature, spec, run, cards, loop_holder(spec_dir), notes)


def find_card(
    root: Path, feature: str, slug: str, at: int | None = None
) -> tuple[FeatureRuns, ViewCard] | None:
    """The card of ``feature``/``slug`` (at iteration ``at`` when it has a committed render
    there); None when there is no such feature or view."""
    if feature not in features(root):
        return None
    runs = feature_runs(root, feature)
    card = next((c for c in runs.views if c.slug == slug), None)
    if card is None:
        return None
    if at is not None and at != card.iteration and at in card.iterations and runs.spec:
        run = runs.run
        card = view_card(runs.spec, load_config(root), card.view, run, at)
    return runs, card
