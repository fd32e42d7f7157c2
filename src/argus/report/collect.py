"""Collect a whole run: its views in spec order, sign-offs, final status.

A report is written for runs that went wrong too, so nothing here requires the spec, the
rubric or any file to be valid: what cannot be read becomes a note on the page.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from argus.config import ProjectConfig, load_config
from argus.errors import ArgusError
from argus.gates import wcag_gates
from argus.loop.human.baseline import view_baseline
from argus.loop.human.references import candidate_path
from argus.report._signoffs import checked_spotcheck, read_signoffs, signoff_for
from argus.report._view import ViewInputs, collect_view
from argus.report.model import RunReport, SignoffSummary
from argus.report.rundir import read_object, view_dir
from argus.report.select import FoundRun
from argus.schemas import Rubric, load_rubric
from argus.spec import Spec, View, load_spec
from argus.spec.advice import wcag_gate_notes
from argus.spec.paths import SPECS_DIR
from argus.store import Event
from argus.store.model import utc_now
from argus.store.ui_marker import running_url


def _load_spec(spec_dir: Path, notes: list[str]) -> Spec | None:
    path = spec_dir / "spec.json"
    if not path.is_file():
        notes.append(f"{path}: not found; views are named from the run's records only")
        return None
    try:
        return load_spec(path)
    except ArgusError as exc:
        notes.append(f"spec not used: {exc}")
        return None


def _load_rubric(spec: Spec | None, spec_dir: Path, notes: list[str]) -> Rubric | None:
    path = spec.rubric_path if spec is not None else None
    if spec is None and (spec_dir / "rubric.json").is_file():
        path = spec_dir / "rubric.json"
    try:
        return load_rubric(path)
    except ArgusError as exc:
        notes.append(f"rubric not used (thresholds default to 1): {exc}")
        return None


def _views(
    feature: str, spec: Spec | None, events: Sequence[Event], record: Mapping[str, Any] | None
) -> list[View]:
    """Every view the run touched or had in scope, in the spec's order."""
    known = {v.slug: v for v in spec.views()} if spec is not None else {}
    found: dict[str, View] = {}
    for event in events:
        if event.target and event.state and event.appearance:
            view = View(feature, event.target, event.state, event.appearance)
            found.setdefault(view.slug, view)
    slugs: list[str] = []
    for event in events:
        if event.kind == "run_started" and isinstance(event.payload.get("views"), list):
            slugs.extend(map(str, event.payload["views"]))
    if record is not None and isinstance(record.get("views"), Mapping):
        slugs.extend(map(str, record["views"]))
    for slug in slugs:
        if slug not in found:
            if slug in known:
                found[slug] = known[slug]
            elif slug.count("-") >= 2:  # no spec to ask: the last two parts are state and look
                target, state, appearance = slug.rsplit("-", 2)
                found[slug] = View(feature, target, state, appearance)
    order = list(known)
    return sorted(
        found.values(),
        key=lambda v: (order.index(v.slug) if v.slug in order else len(order), v.slug),
    )


def _reference(
    spec: Spec | None, spec_dir: Path, view: View, runs: Path
) -> tuple[Path | None, str]:
    reference = None
    if spec is not None:
        try:
            reference = spec.target(view.target).reference_for(view.state, view.appearance)
        except ArgusError:
            reference = None
    if reference is not None and reference.status == "present" and reference.file is not None:
        return reference.file, "Reference"
    candidate = candidate_path(runs, view)
    if candidate.is_file():
        return candidate, "Candidate reference (awaiting approval)"
    fallback = spec_dir / "references" / f"{view.slug}.png"
    if spec is None and fallback.is_file():
        return fallback, "Reference"
    return None, "Reference"


def _load_config(root: Path, notes: list[str]) -> ProjectConfig | None:
    try:
        return load_config(root)
    except ArgusError as exc:
        notes.append(f"config not used (no snapshot diff): {exc}")
        return None


def _baseline(spec: Spec | None, config: ProjectConfig | None, view: View) -> Path | None:
    if spec is None or config is None:
        return None
    try:
        path = view_baseline(spec, config, view)
    except ArgusError:
        return None
    return path if path.is_file() else None


def collect_report(root: Path, found: FoundRun, *, pictures: bool = True) -> RunReport:
    """Everything the report shows of ``found``; ``pictures=False`` skips the images."""
    run = found.run
    spec_dir = root / SPECS_DIR / run.feature
    layout = found.source.layout(spec_dir)
    notes: list[str] = []
    spec = _load_spec(spec_dir, notes)
    rubric = _load_rubric(spec, spec_dir, notes)
    run_file = read_object(layout.run_file, notes)
    record = run_file if run_file is not None and run_file.get("run_id") == run.run_id else None
    record_views = record.get("views") if record is not None else None
    signoffs: tuple[SignoffSummary, ...] = tuple(
        checked_spotcheck(s, found.events, run.run_id)
        for s in read_signoffs(layout.signoff_file, notes)
    )
    config = _load_config(root, notes) if pictures else None
    advised = config if config is not None else _load_config(root, [])
    if advised is not None and spec is not None:
        # A gate the project's explicit list leaves out never ran: the report says so.
        notes.extend(wcag_gate_notes(spec.raw, advised, wcag_gates()))
    views = []
    for view in _views(run.feature, spec, found.events, record):
        reference, label = _reference(spec, spec_dir, view, layout.feature_runs)
        entry = record_views.get(view.slug) if isinstance(record_views, Mapping) else None
        inputs = ViewInputs(
            slug=view.slug,
            target=view.target,
            state=view.state,
            appearance=view.appearance,
            events=[
                e
                for e in found.events
                if (e.target, e.state, e.appearance) == (view.target, view.state, view.appearance)
            ],
            directory=view_dir(
                layout,
                view.slug,
                str(run_file.get("run_id", "")) if run_file else "",
                run.run_id,
                notes,
            ),
            record=entry if isinstance(entry, Mapping) else None,
            reference=reference,
            reference_label=label,
            signoff=signoff_for(signoffs, view.slug, run.run_id, run.started_at),
            run_id=run.run_id,
            run_finished=run.finished_at is not None,
            pictures=pictures,
            baseline=_baseline(spec, config, view),
        )
        views.append(collect_view(inputs, rubric, notes))
    final = record.get("final_status") if record is not None else None
    if run.finished_at is not None:
        run_state = "finished"
    elif record is not None and record.get("status") == "paused":
        run_state = "paused"
    else:
        run_state = "running"
    if isinstance(record, Mapping) and isinstance(record.get("notes"), list):
        notes = [*map(str, record["notes"]), *notes]
    return RunReport(
        feature=run.feature,
        run_id=run.run_id,
        mode=run.mode,
        started_at=run.started_at,
        finished_at=run.finished_at or "",
        status=str(final) if isinstance(final, str) and final else run.status or "",
        run_state=run_state,
        views=tuple(views),
        signoffs=signoffs,
        generated_at=utc_now(),
        notes=tuple(dict.fromkeys(notes)),
        ui_url=running_url(root) or "",
    )
