"""The human checkpoints inside a run: a missing reference (HE-1) and the spot-check of the
run's first sign-off (HE-2)."""

from __future__ import annotations

import shutil
from dataclasses import replace
from typing import Any

from argus.loop.engine._context import NEEDS_REFERENCE, SIGNED_OFF, LoopContext, ViewResult
from argus.loop.human.references import (
    approve_command,
    candidate_path,
    default_reference_file,
    mark_reference,
    record_candidate,
)
from argus.loop.records.signoff import load_records
from argus.loop.records.spotchecks import verified_spotcheck
from argus.loop.records.status import Status
from argus.spec.model import View


def bootstrap_reference(ctx: LoopContext, view: View) -> tuple[ViewResult, str]:
    """HE-1: render a candidate for the canonical view and ask a human to approve it."""
    command = approve_command(view)
    existing = candidate_path(ctx.layout.feature_runs, view)
    spec_json = ctx.spec.path.relative_to(ctx.root).as_posix()
    if not ctx.mode.edits:
        detail = f"no reference for {view.slug}; the target is not judged (HE-1)"
        return ViewResult(view, NEEDS_REFERENCE, Status.NEEDS_CONTEXT, 0, detail=detail), (
            f"HE-1: {view.slug} has no reference image. Run argus loop (interactive or headless) "
            f"to render a candidate, or add references/{view.slug}.png and mark it present."
        )
    if not existing.is_file():
        ctx.progress.phase(view.slug, 0, "candidate")
        work = ctx.layout.feature_runs / "candidates" / f".{view.slug}"
        shutil.rmtree(work, ignore_errors=True)
        sensed = ctx.services.sense(view, work)
        if not sensed.ok:
            shutil.rmtree(work, ignore_errors=True)
            detail = f"could not render a candidate reference: {sensed.error}"
            # The run lists a BLOCKED view's detail itself.
            return ViewResult(view, NEEDS_REFERENCE, Status.BLOCKED, 0, detail=detail), ""
        ctx.guard.record("marking_candidate", may_write=(spec_json,))
        record_candidate(ctx.spec, ctx.layout.feature_runs, view, work / "render.png")
        ctx.guard.record("candidate")
        shutil.rmtree(work, ignore_errors=True)
    else:
        reference = ctx.spec.target(view.target).reference_for(view.state, view.appearance)
        if reference is None or reference.status != "candidate":
            # A loop killed between keeping the image and marking the spec: finish the job.
            ctx.guard.record("marking_candidate", may_write=(spec_json,))
            mark_reference(
                ctx.spec.path,
                view,
                status="candidate",
                source=None,
                file=default_reference_file(view),
            )
            ctx.guard.record("candidate")
    detail = f"candidate reference at {existing} awaits approval"
    note = (
        f"HE-1: {view.slug} has no approved reference. Look at {existing}; if it is right, run "
        f"'{command}'; otherwise put your own image at references/{view.slug}.png, mark it "
        "present in spec.json, and rerun."
    )
    ctx.progress.view_done(view.slug, Status.NEEDS_CONTEXT.value, detail)
    return ViewResult(view, NEEDS_REFERENCE, Status.NEEDS_CONTEXT, 0, detail=detail), note


def run_records(ctx: LoopContext) -> list[dict[str, Any]]:
    """The run's sign-off records, each with its spot-check as the run store holds it (one
    only in the file is pending)."""
    store = ctx.events.store
    return [
        {**r, "human_spotcheck": dict(verified_spotcheck(store, ctx.spec.feature, r))}
        for r in load_records(ctx.layout.signoff_file)
        if r.get("run_id") == ctx.run_id
    ]


def pending_first_spotcheck(ctx: LoopContext) -> dict[str, Any] | None:
    """The run's first sign-off while its spot-check is pending (interactive runs only)."""
    if not ctx.mode.pauses_for_spotcheck:
        return None
    records = run_records(ctx)
    if records and records[0]["human_spotcheck"]["status"] == "pending":
        return records[0]
    return None


def spotcheck_note(ctx: LoopContext, record: dict[str, Any]) -> str:
    view = View(ctx.spec.feature, record["target"], record["state"], record["appearance"])
    after = int(record["iterations"]) + 1
    render = ctx.layout.previous_render(view, after)
    verdict = ctx.layout.latest(view, "verdict.json", after)
    reference = ctx.spec.target(view.target).reference_for(view.state, view.appearance)
    against = (
        f" against the reference {reference.file}"
        if reference is not None and reference.file is not None
        else ""
    )
    base = (
        f"argus approve --feature {view.feature} --target {view.target} "
        f"--state {view.state} --appearance {view.appearance}"
    )
    return (
        f"HE-2: {view.slug} is the first sign-off of this run. Look at its render "
        f"{render or ctx.layout.view_dir(view)}{against} and at the judge's verdict "
        f"({verdict or ctx.layout.view_dir(view)}); "
        f"then run '{base}' if the judge was right, or '{base} --wrong DIMENSION' naming the "
        "dimension it got wrong. Rerun argus loop to continue with the remaining views."
    )


def with_spotcheck(ctx: LoopContext, result: ViewResult) -> ViewResult:
    """A sign-off whose spot-check names a wrong dimension is a concern."""
    if result.end != SIGNED_OFF or result.signoff is None:
        return result
    records = run_records(ctx)
    current = next(
        (
            r
            for r in records
            if (r["target"], r["state"], r["appearance"])
            == (result.view.target, result.view.state, result.view.appearance)
        ),
        None,
    )
    if current is None or current["human_spotcheck"]["status"] != "wrong":
        return result
    wrong = current["human_spotcheck"]["wrong_dimension"]
    return replace(
        result,
        status=Status.DONE_WITH_CONCERNS,
        concerns=(*result.concerns, f"spot-check: the judge got {wrong} wrong"),
    )
