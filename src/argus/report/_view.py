"""Collect one view of a run: its iterations, last gates and verdict, images, status.

Per iteration the files in the view's directory win over the store's events (the files are
the record; the events index them), and the events stand in when the directory is gone or
belongs to a later run.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from argus.evidence.attempt import stale_reason
from argus.report._gate_rows import gate_summary
from argus.report._timeline import IterationSources, iteration_row
from argus.report._verdict_rows import verdict_summary
from argus.report.images import diff_picture, picture_from_file
from argus.report.model import IterationRow, Picture, SignoffSummary, ViewReport
from argus.report.rundir import ViewDir, read_object
from argus.schemas import Rubric
from argus.store import Event

RENDER = "render.png"


@dataclass(frozen=True)
class ViewInputs:
    """What the run-level collector found for one view."""

    slug: str
    target: str
    state: str
    appearance: str
    events: Sequence[Event]  # this run's events of this view
    directory: ViewDir | None  # None when the run no longer owns the view's files
    record: Mapping[str, Any] | None  # the view's entry in run.json
    reference: Path | None
    reference_label: str  # "Reference", or "Candidate reference" awaiting approval
    signoff: SignoffSummary | None
    run_id: str
    run_finished: bool
    pictures: bool = True  # False: collect everything but the images (the review page's list)
    baseline: Path | None = None  # the view's snapshot baseline, when it has one


def _from_events(events: Sequence[Event]) -> dict[int, dict[str, Any]]:
    found: dict[int, dict[str, Any]] = {}
    for event in events:
        if event.iteration is None:
            continue
        slot = found.setdefault(event.iteration, {})
        payload = dict(event.payload)
        if event.kind == "decision":
            slot["decision_event"] = payload
        elif event.kind in ("gate_result", "verdict"):
            slot[event.kind] = payload
        elif event.kind == "implementer":
            for key in ("implementer", "integrity"):
                if isinstance(payload.get(key), Mapping):
                    slot[key] = payload[key]
        elif event.kind == "sensor_failure":
            slot["sensor_error"] = str(payload.get("error", ""))
    return found


def _from_files(directory: ViewDir, n: int, notes: list[str]) -> dict[str, Any]:
    folder = directory.iteration_dir(n)
    slot: dict[str, Any] = {}
    for key, name in (
        ("outcome", "outcome.json"),
        ("gate_result", "gate-result.json"),
        ("verdict", "verdict.json"),
        ("implementer", "implementer.json"),
    ):
        data = read_object(folder / name, notes)
        if data is not None:
            slot[key] = data
    outcome = slot.get("outcome")
    if isinstance(outcome, Mapping):
        for key in ("implementer", "integrity"):
            if key not in slot and isinstance(outcome.get(key), Mapping):
                slot[key] = outcome[key]
    return slot


def iteration_sources(inputs: ViewInputs, notes: list[str]) -> list[IterationSources]:
    merged = _from_events(inputs.events)
    if inputs.directory is not None:
        for n in inputs.directory.committed_iterations():
            merged.setdefault(n, {}).update(_from_files(inputs.directory, n, notes))
    return [IterationSources(iteration=n, **merged[n]) for n in sorted(merged)]


def _frozen(inputs: ViewInputs, sources: Sequence[IterationSources]) -> tuple[str, ...]:
    state = inputs.directory.state if inputs.directory is not None else None
    if state is not None and isinstance(state.get("frozen"), list):
        return tuple(map(str, state["frozen"]))
    for src in reversed(sources):
        for holder in (src.outcome, src.decision_event):
            decision = holder.get("decision") if holder is not None else None
            if isinstance(decision, Mapping) and isinstance(decision.get("frozen"), list):
                return tuple(map(str, decision["frozen"]))
    return ()


def _latest_render(inputs: ViewInputs) -> tuple[Path | None, int | None]:
    """The render of the newest committed iteration that has one; none when the newest sense
    failed (or its files are not all of it): an older render is never shown as the view's."""
    if inputs.directory is None:
        return None, None
    for n in reversed(inputs.directory.committed_iterations()):
        folder = inputs.directory.iteration_dir(n)
        if stale_reason(folder, inputs.slug) is not None:
            return None, n
        candidate = folder / RENDER
        if candidate.is_file():
            return candidate, n
    return None, None


def _pictures(inputs: ViewInputs) -> tuple[tuple[Picture, ...], str]:
    render, n = _latest_render(inputs)
    slug = inputs.slug
    if inputs.directory is None:
        missing = "this run's renders are no longer on disk"
    elif n is not None and render is None:
        reason = stale_reason(inputs.directory.iteration_dir(n), slug) or ""
        missing = f"no render: the sense of iteration {n} did not succeed ({reason})"
    else:
        missing = "no render: the view was not rendered in this run"
    shown = picture_from_file(
        render,
        "Render" + (f" (iteration {n})" if n is not None else ""),
        f"Render of {slug}" + (f" at iteration {n}" if n is not None else ""),
        missing,
    )
    reference = picture_from_file(
        inputs.reference,
        inputs.reference_label,
        f"{inputs.reference_label} image for {slug}",
        "no reference image for this view",
    )
    diff = diff_picture(
        render,
        inputs.reference,
        f"Differences between the render and the reference of {slug}, in red",
    )
    return (shown, reference, diff.picture), diff.stats


def _snapshot(inputs: ViewInputs) -> tuple[Picture | None, str]:
    """The latest render against the view's snapshot baseline: what a red snapshot gate saw."""
    render, n = _latest_render(inputs)
    if render is None or inputs.baseline is None or not inputs.baseline.is_file():
        return None, ""
    at = f" at iteration {n}" if n is not None else ""
    diff = diff_picture(
        render,
        inputs.baseline,
        f"Differences between the render of {inputs.slug}{at} and its snapshot baseline, in red",
        "Snapshot diff (render against the baseline)",
    )
    return diff.picture, diff.stats


def view_status(
    inputs: ViewInputs, rows: Sequence[IterationRow]
) -> tuple[str, str, tuple[str, ...]]:
    """The view's final status, its one-line detail, and its concerns."""
    record = inputs.record
    if record is not None and isinstance(record.get("status"), str):
        concerns = record.get("concerns")
        return (
            record["status"],
            str(record.get("detail") or ""),
            tuple(map(str, concerns)) if isinstance(concerns, list) else (),
        )
    signoff = inputs.signoff
    if signoff is not None and signoff.run_id == inputs.run_id:
        concerns = signoff.concerns
        if signoff.spotcheck.status == "wrong":
            concerns += (f"spot-check: the judge got {signoff.spotcheck.wrong_dimension} wrong",)
        return ("DONE_WITH_CONCERNS" if concerns else "DONE"), "signed off", concerns
    if rows and rows[-1].next_action == "stop_budget":
        return "BLOCKED", "no sign-off within the iteration budget", ()
    if not rows:
        return "NOT_STARTED", "no iteration recorded in this run", ()
    if inputs.run_finished:
        return "UNFINISHED", "the run ended without a sign-off for this view", ()
    return "IN_PROGRESS", "the run has not finished", ()


def collect_view(inputs: ViewInputs, rubric: Rubric | None, notes: list[str]) -> ViewReport:
    sources = iteration_sources(inputs, notes)
    frozen = _frozen(inputs, sources)
    rows = tuple(iteration_row(src, rubric, frozen) for src in sources)
    last_gates = next((s for s in reversed(sources) if s.gate_result is not None), None)
    last_verdict = next((s for s in reversed(sources) if s.verdict is not None), None)
    verdict = (
        verdict_summary(last_verdict.verdict, rubric, frozen, last_verdict.iteration)
        if last_verdict is not None and last_verdict.verdict is not None
        else None
    )
    pictures, diff_stats = _pictures(inputs) if inputs.pictures else ((), "")
    snapshot, snapshot_stats = _snapshot(inputs) if inputs.pictures else (None, "")
    status, detail, concerns = view_status(inputs, rows)
    return ViewReport(
        slug=inputs.slug,
        target=inputs.target,
        state=inputs.state,
        appearance=inputs.appearance,
        status=status,
        status_detail=detail,
        pictures=pictures,
        diff_stats=diff_stats,
        gates=gate_summary(last_gates.gate_result, last_gates.iteration)
        if last_gates is not None and last_gates.gate_result is not None
        else None,
        verdict=verdict,
        timeline=rows,
        signoff=inputs.signoff,
        frozen=frozen,
        unverified=tuple(d.name for d in verdict.dimensions if d.status == "unverified")
        if verdict is not None
        else (),
        concerns=concerns,
        snapshot=snapshot,
        snapshot_stats=snapshot_stats,
    )
