"""Converge one view: implement -> sense -> unchanged? -> gates -> judge or confirm -> record.

Each iteration is a transaction. Its files go to ``iteration-N/``; its outcome.json is written;
then the view's state.json (argus.loop.records.state) counts it, which is the commit; then its
events go to the run store. A process killed anywhere leaves either a committed iteration (whose
missing events are appended on resume) or a leftover directory, which is redone. The decision
(sign off, freeze, budget) always comes from the state, never from counting here.
"""

from __future__ import annotations

import hashlib
import shutil
import time
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from argus.confine import workspace
from argus.diff.unchanged import UnchangedResult
from argus.io import atomic_write_json, atomic_write_text
from argus.loop._implementer import run_implementer
from argus.loop.engine._context import (
    BUDGET,
    INTEGRITY_UNRESTORED,
    NO_IMPLEMENTER,
    STAGNANT,
    STALE_BASELINE,
    LoopContext,
    ViewResult,
)
from argus.loop.engine._endings import (
    implementer_gave_up,
    reference_source,
    report_result,
    sign_off,
    unverified_by_design,
)
from argus.loop.engine._killpoint import killpoint
from argus.loop.engine._prompt import PromptContext, build_prompt
from argus.loop.engine.services import JudgeInputs
from argus.loop.guard.integrity import compare, hash_set
from argus.loop.guard.manifest import Verified, unrestored_detail
from argus.loop.records.guarded import record_paths
from argus.loop.records.layout import OUTCOME_FILE, RunLayout
from argus.loop.records.outcome import (
    CONFIRMED,
    GATES_RED,
    INTEGRITY,
    JUDGED,
    RENDER_GATE,
    SENSOR_FAILURE,
    Finding,
    IterationOutcome,
    load_outcome,
    save_outcome,
)
from argus.loop.records.signoff import now_iso
from argus.loop.records.state import LoopState, init_state, save_state
from argus.loop.records.status import Status
from argus.spec.model import View
from argus.verdict import normalize_gate_result

RENDER = "render.png"
SANDBOX_RULES = "sandbox.json"  # where the iteration's implementer call could write


def converge_view(ctx: LoopContext, view: View) -> ViewResult:
    """Run (or resume) the loop of one view until it signs off, stops or runs out of budget."""
    layout = ctx.layout
    state = init_state(
        layout.state_file(view),
        view,
        ctx.settings,
        reference_source=reference_source(ctx.spec, view),
    )
    ctx.progress.view_started(view.slug)
    state = _discard_uncommitted(ctx, view, state)
    last = _committed_outcome(layout, view, state.iteration)
    for n in range(1, state.iteration + 1):
        _replay_events(ctx, view, n)

    while True:
        decision = state.decision()
        if decision.should_signoff and ctx.mode.signs_off:
            return sign_off(ctx, view, state, last)
        if ctx.mode.single_iteration and state.iteration >= 1:
            return report_result(view, state, last, unverified_by_design(ctx.spec, view))
        stopped = implementer_gave_up(view, state, last) if last is not None else None
        if stopped is not None:  # also when a resumed loop finds the implementer gave up
            return stopped
        if decision.budget_exhausted:
            return ViewResult(
                view,
                BUDGET,
                Status.BLOCKED,
                state.iteration,
                decision.concerns,
                f"no sign-off within the budget of {ctx.settings.max_iterations} iterations",
                last=last,
            )
        if last is not None and last.stale_baseline and last.red_gates == ("snapshot",):
            # The render keeps the tokens and only the baseline stands against it: a person
            # decides (accept the render as the baseline, or say what is wrong), not the budget.
            return ViewResult(
                view,
                STALE_BASELINE,
                Status.NEEDS_CONTEXT,
                state.iteration,
                state.decision().concerns,
                f"{last.stale_baseline}. To accept the render: argus gates "
                f"--feature {view.feature} --target {view.target} --state {view.state} "
                f"--appearance {view.appearance} --sense --update-snapshots changed, or argus "
                f"approve --feature {view.feature} --target {view.target} --state {view.state} "
                f"--appearance {view.appearance} --baseline",
                last=last,
            )
        stalled = _stagnation(ctx, view, state, last)
        if stalled is not None:
            return stalled
        if _needs_edit(ctx, state, last) and ctx.implementer is None:
            return ViewResult(
                view,
                NO_IMPLEMENTER,
                Status.BLOCKED,
                state.iteration,
                detail="the view needs a fix but no implementer is configured: set "
                "[implementer] command in argus.toml (or pass --implementer)",
                last=last,
            )
        last, state = _iterate(ctx, view, state, last)
        if last.kind == INTEGRITY and last.integrity and last.integrity.get("unrestored"):
            return _unrestored(view, state, last)


def _stagnation(
    ctx: LoopContext, view: View, state: LoopState, last: IterationOutcome | None
) -> ViewResult | None:
    """Two edits in a row that changed nothing observable (the render byte-identical and the
    same findings with the same evidence): the next one will not do better (the fault is not
    where the findings point, or not in what the implementer edits), so the view stops now
    instead of spending the budget. An edit that fixes something invisible (a console error, a
    missing id) changes the findings, and is progress."""
    if last is None or not _needs_edit(ctx, state, last):
        return None
    before = _committed_outcome(ctx.layout, view, last.iteration - 1)
    first = _committed_outcome(ctx.layout, view, last.iteration - 2)
    if before is None or first is None:
        return None
    if not (_no_effect(before, first) and _no_effect(last, before)):
        return None
    return ViewResult(
        view,
        STAGNANT,
        Status.BLOCKED,
        state.iteration,
        state.decision().concerns,
        f"the implementer's edits before iterations {before.iteration} and {last.iteration} "
        "both left the render byte-identical; stopped early: look at what the findings point "
        "to (a stale snapshot baseline, a defect outside the files the implementer edits)",
        last=last,
    )


def _no_effect(outcome: IterationOutcome, previous: IterationOutcome) -> bool:
    """The edit before ``outcome`` changed neither the render's bytes nor what failed."""
    return bool(outcome.render_identical_after_edit) and (
        outcome.kind,
        outcome.findings,
    ) == (previous.kind, previous.findings)


def _unrestored(view: View, state: LoopState, last: IterationOutcome) -> ViewResult:
    """Protected files that cannot be put back: nothing after this can be trusted."""
    unrestored = tuple(str(p) for p in (last.integrity or {}).get("unrestored", ()))
    detail = unrestored_detail(unrestored, f"in iteration {last.iteration}")
    return ViewResult(
        view,
        INTEGRITY_UNRESTORED,
        Status.BLOCKED,
        state.iteration,
        state.decision().concerns,
        detail,
        last=last,
    )


# -- one iteration ----------------------------------------------------------------------------


def _needs_edit(ctx: LoopContext, state: LoopState, last: IterationOutcome | None) -> bool:
    """Edit only after a failure with something to fix: never on the first iteration, on an
    all-pass confirm or on a judge retry."""
    action = state.decision().next_action
    return (
        ctx.mode.edits
        and action in ("fix_gates", "fix_dimensions")
        and last is not None
        and bool(last.findings)
    )


def _iterate(
    ctx: LoopContext, view: View, state: LoopState, last: IterationOutcome | None
) -> tuple[IterationOutcome, LoopState]:
    n = state.iteration + 1
    directory = ctx.layout.iteration_dir(view, n)
    shutil.rmtree(directory, ignore_errors=True)
    directory.mkdir(parents=True)
    timings: dict[str, float] = {}
    started = time.perf_counter()
    confirming = state.decision().next_action == "confirm"

    implementer_json: dict[str, Any] | None = None
    if _needs_edit(ctx, state, last) and last is not None:
        ctx.progress.phase(view.slug, n, "implement")
        t0 = time.perf_counter()
        implementer_json, verified = _implement(ctx, view, n, directory, last.findings)
        timings["implement"] = time.perf_counter() - t0
        if not verified.clean:
            return _commit_integrity(ctx, view, state, last, verified, implementer_json, timings)

    ctx.progress.phase(view.slug, n, "sense")
    t0 = time.perf_counter()
    sensed = ctx.services.sense(view, directory)
    timings["sense"] = time.perf_counter() - t0
    killpoint("after_sense", n)
    if not sensed.ok:
        _write_sensor_gate_result(view, n, directory, sensed.error)
        outcome = IterationOutcome(
            n,
            SENSOR_FAILURE,
            False,
            {},
            findings=(
                Finding("gate", RENDER_GATE, f"the view could not be rendered: {sensed.error}"),
            ),
            red_gates=(RENDER_GATE,),
            implementer=implementer_json,
            error=sensed.error,
            timings=timings,
        )
        return _commit(ctx, view, state.gate_fail([RENDER_GATE]), outcome, started)

    render = directory / RENDER
    previous = ctx.layout.previous_render(view, n)
    edit_effect: dict[str, Any] = {}
    if implementer_json is not None and previous is not None and render.is_file():
        edit_effect["render_identical_after_edit"] = _same_bytes(previous, render)
    unchanged: bool | None = None
    check: dict[str, Any] = {}  # the unchanged check's method and ratio, for the outcome
    if confirming and previous is not None:
        t0 = time.perf_counter()
        answer = ctx.services.unchanged(previous, render)
        timings["unchanged"] = time.perf_counter() - t0
        unchanged = answer if isinstance(answer, bool) else answer.unchanged
        if isinstance(answer, UnchangedResult):
            check = {"unchanged_method": answer.method, "unchanged_ratio": answer.diff_ratio}

    ctx.progress.phase(view.slug, n, "gates")
    t0 = time.perf_counter()
    gates = ctx.services.gates(view, directory, iteration=n)
    timings["gates"] = time.perf_counter() - t0
    killpoint("after_gates", n)
    if not gates.all_green:
        outcome = IterationOutcome(
            n,
            GATES_RED,
            False,
            {},
            findings=tuple(
                Finding("gate", name, gates.evidence.get(name, "")) for name in gates.red_gates
            ),
            red_gates=gates.red_gates,
            unchanged=unchanged,
            **check,
            **edit_effect,
            stale_baseline=_stale_advice(gates.data),
            implementer=implementer_json,
            timings=timings,
        )
        return _commit(ctx, view, state.gate_fail(gates.red_gates), outcome, started)

    if confirming and unchanged:
        # Hash suppression: no edit ran and the render is the one that passed; the judge
        # would see the same inputs, so the pass is confirmed without it.
        outcome = IterationOutcome(
            n,
            CONFIRMED,
            True,
            {},
            unchanged=True,
            **check,
            **edit_effect,
            implementer=implementer_json,
            timings=timings,
        )
        return _commit(ctx, view, state.unchanged(), outcome, started)

    # The evidence only the judge reads (the dead-control probe), on an iteration it judges.
    ctx.progress.phase(view.slug, n, "probe")
    t0 = time.perf_counter()
    ctx.services.probe(view, directory)
    timings["probe"] = time.perf_counter() - t0

    # Right before the judge: the protected set must still be what the loop last checked (a
    # process the implementer left behind, or anything else, may have edited it since).
    late = ctx.guard.verify()
    if not late.clean:
        return _commit_integrity(
            ctx, view, state, last, late, implementer_json, timings, when="before the judge"
        )

    ctx.progress.phase(view.slug, n, "judge")
    t0 = time.perf_counter()
    verdict = ctx.services.judge(view, directory, JudgeInputs(n, previous))
    timings["judge"] = time.perf_counter() - t0
    killpoint("after_judge", n)
    new_state = state.record(verdict)
    fix = new_state.decision().fix_dimensions
    outcome = IterationOutcome(
        n,
        JUDGED,
        new_state.last_outcome == "pass",
        {},
        findings=tuple(Finding("dimension", d, verdict.dimension(d).evidence) for d in fix),
        verdict_outcome=verdict.outcome,
        failed_dimensions=verdict.failed_dimensions,
        unverified_dimensions=verdict.unverified_dimensions,
        unchanged=unchanged,
        **check,
        **edit_effect,
        implementer=implementer_json,
        timings=timings,
    )
    return _commit(ctx, view, new_state, outcome, started)


def _stale_advice(result: Mapping[str, Any]) -> str:
    """The snapshot gate's stale-baseline finding, when it made one ("" otherwise)."""
    details = result.get("details")
    snapshot = details.get("snapshot") if isinstance(details, Mapping) else None
    findings = snapshot.get("findings") if isinstance(snapshot, Mapping) else None
    for finding in findings if isinstance(findings, list) else []:
        if isinstance(finding, Mapping) and finding.get("property") == "stale_baseline":
            return str(finding.get("message") or "the snapshot baseline may be stale")
    return ""


def _same_bytes(a: Path, b: Path) -> bool:
    return hashlib.sha256(a.read_bytes()).digest() == hashlib.sha256(b.read_bytes()).digest()


def _commit(
    ctx: LoopContext,
    view: View,
    new_state: LoopState,
    outcome: IterationOutcome,
    started: float,
) -> tuple[IterationOutcome, LoopState]:
    """outcome.json, then state.json (the commit point), then the store's events."""
    directory = ctx.layout.iteration_dir(view, outcome.iteration)
    timings = dict(outcome.timings)
    timings["total"] = time.perf_counter() - started
    outcome = replace(outcome, decision=new_state.decision().to_json(), timings=timings)
    save_outcome(directory / OUTCOME_FILE, outcome)
    ctx.guard.note_commit(view, outcome.iteration, directory)
    killpoint("before_commit", outcome.iteration)
    saved = save_state(ctx.layout.state_file(view), new_state)
    killpoint("after_commit", outcome.iteration)
    ctx.events.ensure_iteration(view, outcome, directory)
    killpoint("after_events", outcome.iteration)
    ctx.progress.iteration_done(view.slug, outcome.iteration, outcome.summary())
    return outcome, saved


def _guarded(ctx: LoopContext, editing: Path) -> dict[str, str]:
    """Hashes of what the implementer must not change: the protected set and the loop's own
    records (argus.loop.records.guarded; ``editing`` is the iteration directory of this edit)."""
    paths = ctx.protected() + record_paths(ctx.root, ctx.layout.feature_runs, editing=editing)
    return hash_set(ctx.root, paths)


def _implement(
    ctx: LoopContext, view: View, n: int, directory: Path, findings: tuple[Finding, ...]
) -> tuple[dict[str, Any], Verified]:
    """Run the implementer once; return its record and what it changed of the guarded files
    (put back already, as far as the copies allow)."""
    assert ctx.implementer is not None
    target = ctx.spec.target(view.target)
    before_paths = ctx.protected()
    context = PromptContext(
        view=view,
        route=target.route,
        fixture=target.fixture_for(view.state),
        spec_md=ctx.spec_md,
        tokens_text=ctx.tokens_text,
        protected=before_paths,
        iteration=n,
    )
    prompt_file = directory / "prompt.md"
    atomic_write_text(prompt_file, build_prompt(context, findings))
    # What it may write: the workspace but the protected set, the feature folder with its run
    # records and the run store (argus.confine._policy adds the config, git's code and Argus's
    # own environment); written beside its log for the record.
    denied = [ctx.root / p for p in before_paths]
    denied += [ctx.spec.spec_dir, ctx.layout.feature_runs, ctx.root / ".argus"]
    policy = workspace("implementer", ctx.root, denied)
    if ctx.sandbox.active:
        atomic_write_json(
            directory / SANDBOX_RULES, {**policy.to_json(), "protection": ctx.sandbox.protection}
        )
    # The manifest goes to the run store before the implementer starts, so a resumed loop can
    # still catch an edit made by an implementer that was running when the loop was killed.
    records = hash_set(ctx.root, record_paths(ctx.root, ctx.layout.feature_runs, editing=directory))
    protected = ctx.guard.record("before_edit", records=records, editing=(view.slug, n))
    before = {**protected, **records}
    killpoint("before_implement", n)
    result = run_implementer(
        ctx.implementer.command,
        {
            "prompt_file": str(prompt_file),
            "feature": view.feature,
            "target": view.target,
            "state": view.state,
            "appearance": view.appearance,
            "workdir": str(ctx.root),
            "model": ctx.implementer.model,
        },
        cwd=ctx.root,
        timeout=ctx.implementer.timeout,
        log_path=directory / "implementer.log",
        policy=policy,
        confinement=ctx.sandbox,
    )
    changes = compare(before, _guarded(ctx, directory))
    verified = Verified(changes) if changes.clean else ctx.guard.restore(before, changes)
    ctx.guard.record("after_edit")
    record = result.to_json()
    atomic_write_json(directory / "implementer.json", record)
    killpoint("after_implement", n)
    return record, verified


def _commit_integrity(
    ctx: LoopContext,
    view: View,
    state: LoopState,
    last: IterationOutcome | None,
    verified: Verified,
    implementer_json: Mapping[str, Any] | None,
    timings: dict[str, float],
    *,
    when: str = "by the last edit",
) -> tuple[IterationOutcome, LoopState]:
    """Protected files or the loop's records were changed (and put back as far as the
    copies allow): fail the iteration."""
    n = state.iteration + 1
    changes = verified.changes
    done = "Argus put them back" if not verified.unrestored else "Argus could not put all back"
    lead = (
        "the last edit changed protected files or Argus's run records"
        if when == "by the last edit"
        else f"protected files or Argus's run records were changed {when}"
    )
    warning = Finding(
        "gate",
        "integrity",
        f"{lead} ({changes.summary()}); {done}. Fix the items above in the UI code only.",
    )
    previous = tuple(f for f in (last.findings if last else ()) if f.name != "integrity")
    outcome = IterationOutcome(
        n,
        INTEGRITY,
        False,
        {},
        findings=(*previous, warning),
        red_gates=("integrity",),
        implementer=implementer_json,
        integrity={**verified.to_json(), "when": when},
        error=changes.summary(),
        timings=timings,
    )
    return _commit(ctx, view, state.gate_fail(["integrity"]), outcome, time.perf_counter())


# -- resume -----------------------------------------------------------------------------------


def _discard_uncommitted(ctx: LoopContext, view: View, state: LoopState) -> LoopState:
    """Remove iteration directories the state does not count; an edit the resume check
    (argus.loop.guard.resume) caught is committed as a failed iteration first."""
    caught = ctx.resumed_edits.pop(view.slug, None)
    for n in ctx.layout.iterations_on_disk(view):
        if n <= state.iteration:
            continue
        if caught is not None and n == state.iteration + 1 and caught[0] == n:
            directory = ctx.layout.iteration_dir(view, n)
            last = _committed_outcome(ctx.layout, view, state.iteration)
            record_file = directory / "implementer.json"
            implementer: Mapping[str, Any] = {
                "outcome": "interrupted",
                "error": "the loop stopped during the edit",
            }
            if record_file.is_file():
                implementer = {"outcome": "interrupted", "log": "implementer.log"}
            _, state = _commit_integrity(
                ctx, view, state, last, caught[1], implementer, {}, when="during an edit"
            )
            continue
        shutil.rmtree(ctx.layout.iteration_dir(view, n), ignore_errors=True)
    return state


def _committed_outcome(layout: RunLayout, view: View, iteration: int) -> IterationOutcome | None:
    if iteration < 1:
        return None
    return load_outcome(layout.iteration_dir(view, iteration) / OUTCOME_FILE)


def _replay_events(ctx: LoopContext, view: View, n: int) -> None:
    directory = ctx.layout.iteration_dir(view, n)
    ctx.events.ensure_iteration(view, load_outcome(directory / OUTCOME_FILE), directory)


def _write_sensor_gate_result(view: View, n: int, directory: Path, error: str) -> None:
    """A failed sensor is the failed ``render`` pseudo-gate, written like any gate result."""
    raw = {
        "feature": view.feature,
        "target": view.target,
        "state": view.state,
        "appearance": view.appearance,
        "iteration": n,
        "created_at": now_iso(),
        "gates": {RENDER_GATE: "fail"},
        "details": {
            RENDER_GATE: {
                "status": "fail",
                "summary": f"the view could not be rendered, so no gate ran: {error}",
            }
        },
    }
    normalized = normalize_gate_result(raw, source=directory / "gate-result.json")
    atomic_write_json(directory / "gate-result.json", normalized.to_json())
