"""How a view's loop ends: sign-off (idempotent, so a resume finishes the job), the
report-only result, and an implementer that gave up."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from argus.errors import StateError
from argus.io import sync_tree
from argus.judge.base import VISUAL
from argus.loop.engine._context import (
    IMPLEMENTER_STOPPED,
    REPORTED,
    SIGNED_OFF,
    SIGNOFF_REFUSED,
    LoopContext,
    ViewResult,
)
from argus.loop.engine._killpoint import killpoint
from argus.loop.engine._rederive import Replayed, replay_view
from argus.loop.guard.config_guard import config_digest, config_files
from argus.loop.guard.manifest import unrestored_detail
from argus.loop.records.outcome import GATES_RED, JUDGED, SENSOR_FAILURE, IterationOutcome
from argus.loop.records.signoff import SignoffRecord, append_raw, find_record, load_records, now_iso
from argus.loop.records.state import LoopState
from argus.loop.records.status import Status
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


def _refused(
    ctx: LoopContext, view: View, state: LoopState, last: IterationOutcome | None, why: str
) -> ViewResult:
    decision = state.decision()
    return ViewResult(
        view,
        SIGNOFF_REFUSED,
        Status.BLOCKED,
        state.iteration,
        decision.concerns,
        f"refused to sign off: {why}",
        last=last,
    )


def stored_signoff(ctx: LoopContext, view: View) -> dict[str, Any] | None:
    """The sign-off of ``view`` the run store recorded for this run, if any."""
    events = ctx.events.store.events(run_id=ctx.run_id, kind="sign_off", view=view)
    return dict(events[-1].payload) if events else None


def same_signoff(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """The same sign-off, whatever its spot-check says (``argus approve`` changes that)."""
    return {k: v for k, v in a.items() if k != "human_spotcheck"} == {
        k: v for k, v in b.items() if k != "human_spotcheck"
    }


def sign_off(
    ctx: LoopContext, view: View, state: LoopState, last: IterationOutcome | None
) -> ViewResult:
    """Baseline, sign-off event, sign-off record: each step idempotent, so a resume finishes
    the job. The state's word is not taken: the sign-off is re-derived from the committed
    verdicts (``_rederive``) and refused, BLOCKED, when they do not support it. The run
    store is the sign-off's record; signoff.json is its copy, and a record there the store
    did not record is refused."""
    signoff_file = ctx.layout.signoff_file
    in_file = find_record(load_records(signoff_file), view, ctx.run_id)
    stored = stored_signoff(ctx, view)
    if in_file is not None and (stored is None or not same_signoff(in_file, stored)):
        return _refused(
            ctx,
            view,
            state,
            last,
            f"{signoff_file} holds a sign-off of {view.slug} for run {ctx.run_id} that the "
            "run store did not record (written by something other than this loop); remove it "
            "and rerun",
        )
    if stored is None:
        # Right before a sign-off: the protected set must be what the loop last checked.
        late = ctx.guard.verify()
        if not late.clean:
            why = (
                unrestored_detail(late.unrestored, "before the sign-off")
                if late.unrestored
                else f"protected files changed before the sign-off ({late.changes.summary()}); "
                "Argus put them back. Rerun argus loop with --new-run"
            )
            return _refused(ctx, view, state, last, why)
        try:
            replayed = _rederived(ctx, view, state)
        except StateError as err:
            return _refused(ctx, view, state, last, str(err))
        decision = replayed.state.decision()
        ctx.progress.phase(view.slug, state.iteration, "sign-off")
        render = ctx.layout.previous_render(view, state.iteration + 1)
        snapshots = (ctx.spec.spec_dir / "__snapshots__").relative_to(ctx.root).as_posix()
        ctx.guard.record("signing_off", may_write=(snapshots + "/",))
        baseline = ctx.services.write_baseline(view, render) if render is not None else None
        ctx.guard.record("baseline")
        killpoint("after_baseline", state.iteration)
        # The sensed evidence was written without flushing (argus.sense.output): the evidence
        # a sign-off rests on is on disk before the sign-off is recorded.
        try:
            sync_tree(ctx.layout.view_dir(view))
        except OSError as exc:
            why = f"cannot flush {view.slug}'s evidence to disk ({exc.strerror or exc}); rerun"
            return _refused(ctx, view, state, last, why)
        stored = SignoffRecord(
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
            concerns=without_expected(decision.concerns, unverified_by_design(ctx.spec, view)),
            protection=ctx.sandbox.protection if ctx.implementer is not None else None,
        ).to_json()
        ctx.events.ensure("sign_off", stored, view=view)
        killpoint("after_signoff_event", state.iteration)
    if in_file is None:
        append_raw(signoff_file, stored)
        killpoint("after_signoff_record", state.iteration)
    record = in_file or stored
    concerns = tuple(record.get("concerns", ()))
    status = Status.DONE_WITH_CONCERNS if concerns else Status.DONE
    detail = f"signed off after {state.iteration} iterations"
    expected = _expected_note(state.decision().unverified, unverified_by_design(ctx.spec, view))
    if expected:
        detail += f"; {expected}"
    if record.get("snapshot_baseline"):
        # The sign-off also wrote (or kept) the view's baseline: say where, as gates does.
        detail += f"; snapshot baseline {record['snapshot_baseline']}"
    return ViewResult(
        view, SIGNED_OFF, status, state.iteration, concerns, detail, signoff=record, last=last
    )


def unverified_by_design(spec: Spec, view: View) -> frozenset[str]:
    """The dimensions a view leaves unverified because the spec means it to, not for want of
    evidence: ``visual_fidelity`` of a view other than its target's canonical one, when the
    canonical view has its reference and this view lists none (docs/spec.md: a target has at
    most one reference; its other views are described in spec.md as differences from it)."""
    target = spec.target(view.target)
    canonical = (target.canonical.state, target.canonical.appearance)
    if (view.state, view.appearance) == canonical:
        return frozenset()
    if target.reference_for(view.state, view.appearance) is not None:
        return frozenset()  # a reference of its own, present or still to make: it counts
    reference = target.reference_for(*canonical)
    if reference is None or reference.status != "present":
        return frozenset()
    return frozenset({VISUAL})


def without_expected(concerns: tuple[str, ...], by_design: frozenset[str]) -> tuple[str, ...]:
    """``concerns`` without the dimensions left unverified by the spec's design: the verdict
    still lists them unverified, but they hold neither a sign-off nor a report back."""
    return tuple(c for c in concerns if c.removeprefix("unverified: ") not in by_design)


def _expected_note(unverified: tuple[str, ...], by_design: frozenset[str]) -> str:
    expected = [d for d in unverified if d in by_design]
    if not expected:
        return ""
    return (
        f"{', '.join(expected)} not compared: the view has no reference of its own by design "
        "(its target's canonical view has one)"
    )


def report_result(
    view: View,
    state: LoopState,
    last: IterationOutcome | None,
    by_design: frozenset[str] = frozenset(),
) -> ViewResult:
    """report-only: the one iteration's finding, as a status. A dimension unverified only
    ``by_design`` (unverified_by_design) is said in the detail, not raised as a concern: a
    clean run of a spec written as the docs recommend ends DONE."""
    if last is None:
        return ViewResult(view, REPORTED, Status.BLOCKED, 0, detail="no iteration ran")
    concerns: tuple[str, ...] = tuple(f"{f.kind} {f.name}" for f in last.findings)
    expected = tuple(d for d in last.unverified_dimensions if d in by_design)
    detail = last.summary()
    if last.kind == JUDGED:
        concerns = without_expected(
            tuple(f"failing: {d}" for d in last.failed_dimensions)
            + tuple(f"unverified: {d}" for d in last.unverified_dimensions)
            + (("inconclusive verdict",) if last.verdict_outcome == "inconclusive" else ()),
            by_design,
        )
        if expected:
            detail += f"; {_expected_note(last.unverified_dimensions, by_design)}"
    elif last.kind == GATES_RED:
        concerns = tuple(f"red gate: {g}" for g in last.red_gates)
    elif last.kind == SENSOR_FAILURE:
        concerns = ("not rendered: the sensor failed, so no gate ran",)
    if last.kind == JUDGED and (
        last.verdict_outcome == "pass"
        or (last.verdict_outcome == "unverified" and expected and not concerns)
    ):
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
    return ViewResult(view, REPORTED, status, state.iteration, concerns, detail, last=last)
