"""Converge one view: implement -> sense -> unchanged? -> gates -> judge or confirm -> record.

Each iteration is a transaction. Its files go to ``iteration-N/``; its outcome.json is written;
then the view's state.json (argus.loop.state) counts it, which is the commit; then its events
go to the run store. A process killed anywhere leaves either a committed iteration (whose
missing events are appended on resume) or a leftover directory, which is redone. The decision
(sign off, freeze, budget) always comes from the state, never from counting here.
"""

from __future__ import annotations

import shutil
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from argus.diff.unchanged import UnchangedResult
from argus.io import atomic_write_json, atomic_write_text, read_json
from argus.loop.context import BUDGET, NO_IMPLEMENTER, LoopContext, ViewResult
from argus.loop.endings import implementer_gave_up, reference_source, report_result, sign_off
from argus.loop.implementer import run_implementer
from argus.loop.integrity import IntegrityChanges, ProtectedCopies, compare, hash_set
from argus.loop.killpoint import killpoint
from argus.loop.layout import OUTCOME_FILE, RunLayout
from argus.loop.outcome import (
    CONFIRMED,
    GATES_RED,
    INTEGRITY,
    JUDGED,
    SENSOR_FAILURE,
    IterationOutcome,
    load_outcome,
    save_outcome,
)
from argus.loop.prompt import Finding, PromptContext, build_prompt
from argus.loop.records import record_paths, run_files
from argus.loop.services import JudgeInputs
from argus.loop.signoff import now_iso
from argus.loop.state import LoopState, init_state, save_state
from argus.loop.status import Status
from argus.spec.model import View
from argus.verdict import normalize_gate_result

PROTECTED_BEFORE = "protected-before.json"
RENDER = "render.png"


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
            return report_result(view, state, last)
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
        implementer_json, before, changes = _implement(ctx, view, n, directory, last.findings)
        timings["implement"] = time.perf_counter() - t0
        if changes is not None:
            return _commit_integrity(
                ctx, view, state, last, changes, before, implementer_json, timings
            )

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
            findings=(Finding("gate", "build", f"the view could not be rendered: {sensed.error}"),),
            red_gates=("build",),
            implementer=implementer_json,
            error=sensed.error,
            timings=timings,
        )
        return _commit(ctx, view, state.gate_fail(["build"]), outcome, started)

    render = directory / RENDER
    previous = ctx.layout.previous_render(view, n)
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
            implementer=implementer_json,
            timings=timings,
        )
        return _commit(ctx, view, state.unchanged(), outcome, started)

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
        implementer=implementer_json,
        timings=timings,
    )
    return _commit(ctx, view, new_state, outcome, started)


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
    killpoint("before_commit", outcome.iteration)
    saved = save_state(ctx.layout.state_file(view), new_state)
    killpoint("after_commit", outcome.iteration)
    ctx.events.ensure_iteration(view, outcome, directory)
    killpoint("after_events", outcome.iteration)
    ctx.progress.iteration_done(view.slug, outcome.iteration, outcome.summary())
    return outcome, saved


def _guarded(ctx: LoopContext, editing: Path) -> dict[str, str]:
    """Hashes of what the implementer must not change: the protected set and the loop's own
    records (argus.loop.records; ``editing`` is the iteration directory of this edit)."""
    paths = ctx.protected() + record_paths(ctx.root, ctx.layout.feature_runs, editing=editing)
    return hash_set(ctx.root, paths)


def _implement(
    ctx: LoopContext, view: View, n: int, directory: Path, findings: tuple[Finding, ...]
) -> tuple[dict[str, Any], dict[str, str], IntegrityChanges | None]:
    """Run the implementer once; return its record, the guarded hashes before it ran, and the
    changes to the guarded files (None when there were none)."""
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
    before = _guarded(ctx, directory)
    ProtectedCopies(ctx.layout.copies_dir).keep(ctx.root, before)
    # Written before the implementer starts, so a resumed loop can still catch an edit made
    # by an implementer that was running when the loop was killed.
    atomic_write_json(directory / PROTECTED_BEFORE, before)
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
    )
    changes = compare(before, _guarded(ctx, directory))
    record = result.to_json()
    atomic_write_json(directory / "implementer.json", record)
    killpoint("after_implement", n)
    return record, before, None if changes.clean else changes


def _commit_integrity(
    ctx: LoopContext,
    view: View,
    state: LoopState,
    last: IterationOutcome | None,
    changes: IntegrityChanges,
    before: dict[str, str],
    implementer_json: dict[str, Any] | None,
    timings: dict[str, float],
) -> tuple[IterationOutcome, LoopState]:
    """The implementer changed protected files or the loop's records: put them back and fail
    the iteration."""
    n = state.iteration + 1
    unrestored = ProtectedCopies(ctx.layout.copies_dir).restore(ctx.root, before, changes)
    integrity = {**changes.to_json(), "restored": not unrestored, "unrestored": unrestored}
    warning = Finding(
        "gate",
        "integrity",
        f"the last edit changed protected files or Argus's run records ({changes.summary()}); "
        "Argus put them back. "
        "Fix the items above in the UI code only.",
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
        integrity=integrity,
        error=changes.summary(),
        timings=timings,
    )
    return _commit(ctx, view, state.gate_fail(["integrity"]), outcome, time.perf_counter())


# -- resume -----------------------------------------------------------------------------------


def _discard_uncommitted(ctx: LoopContext, view: View, state: LoopState) -> LoopState:
    """Remove iteration directories the state does not count; catch a killed edit first."""
    for n in ctx.layout.iterations_on_disk(view):
        if n <= state.iteration:
            continue
        directory = ctx.layout.iteration_dir(view, n)
        before_file = directory / PROTECTED_BEFORE
        if n == state.iteration + 1 and before_file.is_file():
            before = read_json(before_file, what="protected-set hashes")
            # run.json was rewritten by this resume itself: not the implementer's doing.
            rewritten = set(run_files(ctx.root, ctx.layout.feature_runs))
            before = {k: v for k, v in before.items() if k not in rewritten}
            after = {k: v for k, v in _guarded(ctx, directory).items() if k not in rewritten}
            changes = compare(before, after)
            if not changes.clean:
                last = _committed_outcome(ctx.layout, view, state.iteration)
                record_file = directory / "implementer.json"
                implementer = (
                    read_json(record_file, what="implementer record")
                    if record_file.is_file()
                    else {"outcome": "interrupted", "error": "the loop stopped during the edit"}
                )
                _, state = _commit_integrity(
                    ctx, view, state, last, changes, before, implementer, {}
                )
                continue
        shutil.rmtree(directory, ignore_errors=True)
    return state


def _committed_outcome(layout: RunLayout, view: View, iteration: int) -> IterationOutcome | None:
    if iteration < 1:
        return None
    return load_outcome(layout.iteration_dir(view, iteration) / OUTCOME_FILE)


def _replay_events(ctx: LoopContext, view: View, n: int) -> None:
    directory = ctx.layout.iteration_dir(view, n)
    ctx.events.ensure_iteration(view, load_outcome(directory / OUTCOME_FILE), directory)


def _write_sensor_gate_result(view: View, n: int, directory: Path, error: str) -> None:
    """A failed sensor is a failed build gate, written like any other gate result."""
    raw = {
        "feature": view.feature,
        "target": view.target,
        "state": view.state,
        "appearance": view.appearance,
        "iteration": n,
        "created_at": now_iso(),
        "gates": {"build": "fail"},
        "details": {"build": {"status": "fail", "summary": f"sensor failed: {error}"}},
    }
    normalized = normalize_gate_result(raw, source=directory / "gate-result.json")
    atomic_write_json(directory / "gate-result.json", normalized.to_json())
