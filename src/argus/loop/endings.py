"""How a view's loop ends: sign-off (idempotent, so a resume finishes the job), the
report-only result, and an implementer that gave up."""

from __future__ import annotations

from argus.errors import StateError
from argus.loop.config_guard import config_digest, config_files
from argus.loop.context import (
    IMPLEMENTER_STOPPED,
    REPORTED,
    SIGNED_OFF,
    SIGNOFF_REFUSED,
    LoopContext,
    ViewResult,
)
from argus.loop.killpoint import killpoint
from argus.loop.outcome import GATES_RED, JUDGED, SENSOR_FAILURE, IterationOutcome
from argus.loop.rederive import Replayed, replay_view
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
    """The source of the view's own present reference, as the spec declares it. None when the
    view has no reference of its own (it is not judged against another view's) or the spec
    does not say who made it: an unknown source is recorded as unknown, never as "human"."""
    reference = spec.target(view.target).reference_for(view.state, view.appearance)
    if reference is not None and reference.status == "present":
        return reference.source
    return None


def _rederived(ctx: LoopContext, view: View, state: LoopState) -> Replayed:
    """The sign-off as the committed records support it (StateError saying why not)."""
    if config_digest(ctx.root) != ctx.config_sha256:
        where = " or ".join(p.name for p in config_files(ctx.root))
        raise StateError(
            f"{where} changed during the run; rerun argus loop with --new-run under the new "
            "config (or put the old one back)"
        )
    return replay_view(ctx, view, state.iteration, reference_source(ctx.spec, view))


def sign_off(
    ctx: LoopContext, view: View, state: LoopState, last: IterationOutcome | None
) -> ViewResult:
    """Baseline, sign-off record, event: each step idempotent, so a resume finishes the job.
    The state's word is not taken: the sign-off is re-derived from the committed verdicts
    (argus.loop.rederive) and refused, BLOCKED, when they do not support it."""
    decision = state.decision()
    signoff_file = ctx.layout.signoff_file
    record = find_record(load_records(signoff_file), view, ctx.run_id)
    if record is None:
        try:
            replayed = _rederived(ctx, view, state)
        except StateError as err:
            return ViewResult(
                view,
                SIGNOFF_REFUSED,
                Status.BLOCKED,
                state.iteration,
                decision.concerns,
                f"refused to sign off: {err}",
                last=last,
            )
        decision = replayed.state.decision()
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
            reference_source=reference_source(ctx.spec, view),
            final_verdict=replayed.verdict.to_json(),
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
    if last.kind == JUDGED and last.verdict_outcome == "pass":
        status = Status.DONE
    elif last.passed or (
        last.kind == JUDGED and last.verdict_outcome in ("unverified", "inconclusive")
    ):
        # Nothing failed; something could not be verified.
        status = Status.DONE_WITH_CONCERNS
    elif last.kind == SENSOR_FAILURE:
        status = Status.BLOCKED  # no render: nothing was checked
    else:
        status = Status.FAILED  # a red gate, a failing dimension, no render: it failed
    return ViewResult(view, REPORTED, status, state.iteration, concerns, last.summary(), last=last)
