"""How a view's loop ends: sign-off (idempotent, so a resume finishes the job), the
report-only result, and an implementer that gave up."""

from __future__ import annotations

from typing import Any

from argus.io import read_json
from argus.loop.context import (
    IMPLEMENTER_STOPPED,
    REPORTED,
    SIGNED_OFF,
    LoopContext,
    ViewResult,
)
from argus.loop.killpoint import killpoint
from argus.loop.layout import RunLayout
from argus.loop.outcome import GATES_RED, JUDGED, SENSOR_FAILURE, IterationOutcome
from argus.loop.signoff import SignoffRecord, append_record, find_record, load_records, now_iso
from argus.loop.state import LoopState
from argus.loop.status import Status
from argus.spec.model import Spec, View


def implementer_gave_up(view: View, state: LoopState, last: IterationOutcome) -> ViewResult | None:
    """An implementer that says BLOCKED or NEEDS_CONTEXT is not asked again: the view stops
    with its status (after its iteration was sensed and judged like any other), unless that
    iteration passed anyway."""
    reported = (last.implementer or {}).get("status")
    if last.passed or reported not in (Status.BLOCKED.value, Status.NEEDS_CONTEXT.value):
        return None
    log = f"iteration-{last.iteration}/implementer.log"
    return ViewResult(
        view,
        IMPLEMENTER_STOPPED,
        Status(reported),
        state.iteration,
        state.decision().concerns,
        f"the implementer reported {reported}; see its output in {log}",
        last=last,
    )


def reference_source(spec: Spec, view: View) -> str | None:
    """The view's own reference's source, else its target's canonical reference's."""
    target = spec.target(view.target)
    for state, appearance in (
        (view.state, view.appearance),
        (target.canonical.state, target.canonical.appearance),
    ):
        reference = target.reference_for(state, appearance)
        if reference is not None and reference.status == "present":
            return reference.source or "human"
    return None


def last_verdict(layout: RunLayout, view: View, iteration: int) -> dict[str, Any]:
    path = layout.latest(view, "verdict.json", iteration + 1)
    if path is None:
        return {"all_pass": False, "dimensions": {}}
    data: dict[str, Any] = read_json(path, what="verdict")
    return data


def sign_off(
    ctx: LoopContext, view: View, state: LoopState, last: IterationOutcome | None
) -> ViewResult:
    """Baseline, sign-off record, event: each step idempotent, so a resume finishes the job."""
    decision = state.decision()
    signoff_file = ctx.layout.signoff_file
    record = find_record(load_records(signoff_file), view, ctx.run_id)
    if record is None:
        ctx.progress.phase(view.slug, state.iteration, "sign-off")
        render = ctx.layout.previous_render(view, state.iteration + 1)
        baseline = ctx.services.write_baseline(view, render) if render is not None else None
        killpoint("after_baseline", state.iteration)
        new = SignoffRecord(
            feature=view.feature,
            run_id=ctx.run_id,
            target=view.target,
            state=view.state,
            appearance=view.appearance,
            signed_off_at=now_iso(),
            iterations=state.iteration,
            reference_source=state.reference_source or "human",
            final_verdict=last_verdict(ctx.layout, view, state.iteration),
            snapshot_baseline=baseline,
            concerns=decision.concerns,
        )
        append_record(signoff_file, new)
        killpoint("after_signoff_record", state.iteration)
        record = new.to_json()
    ctx.events.ensure("sign_off", dict(record), view=view)
    killpoint("after_signoff_event", state.iteration)
    concerns = tuple(record.get("concerns", ()))
    status = Status.DONE_WITH_CONCERNS if concerns else Status.DONE
    detail = f"signed off after {state.iteration} iterations"
    return ViewResult(
        view, SIGNED_OFF, status, state.iteration, concerns, detail, signoff=record, last=last
    )


def report_result(view: View, state: LoopState, last: IterationOutcome | None) -> ViewResult:
    """report-only: the one iteration's finding, as a status."""
    if last is None:
        return ViewResult(view, REPORTED, Status.BLOCKED, 0, detail="no iteration ran")
    concerns: tuple[str, ...] = tuple(f"{f.kind} {f.name}" for f in last.findings)
    if last.kind == JUDGED:
        concerns = (
            tuple(f"failing: {d}" for d in last.failed_dimensions)
            + tuple(f"unverified: {d}" for d in last.unverified_dimensions)
            + (("inconclusive verdict",) if last.verdict_outcome == "inconclusive" else ())
        )
    elif last.kind in (GATES_RED, SENSOR_FAILURE):
        concerns = tuple(f"red gate: {g}" for g in last.red_gates)
    status = (
        Status.DONE
        if last.kind == JUDGED and last.verdict_outcome == "pass"
        else (Status.DONE_WITH_CONCERNS)
    )
    return ViewResult(view, REPORTED, status, state.iteration, concerns, last.summary(), last=last)
