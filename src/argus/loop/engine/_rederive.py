"""Before a sign-off, re-derive the view's loop state from its committed iteration files.

state.json says when a view may sign off, but it is a file in the working tree. So the sign-off
does not take its word: it replays the view's iterations of this run through a fresh
LoopState, from the records each one left: a judged iteration counts only with a verdict.json
that is a normalized verdict (its derived fields agree with its scores) for this view and this
iteration; a confirm only with a green gate result and a render unchanged from the previous
one; anything else resets the streak. The replay must reach a sign-off at the same iteration,
and the last verdict it counted is the one recorded. A pass counts only when its files are the
ones the run store noted when the loop committed the iteration (argus.loop.guard.manifest).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from argus.errors import ArgusError, StateError
from argus.io import read_json
from argus.loop.engine._context import LoopContext
from argus.loop.guard.integrity import hash_file
from argus.loop.guard.manifest import COMMITTED_FILES
from argus.loop.records.layout import OUTCOME_FILE
from argus.loop.records.outcome import CONFIRMED, JUDGED, load_outcome
from argus.loop.records.state import LoopState
from argus.spec.model import View
from argus.verdict import NormalizedVerdict, normalize_gate_result, normalize_verdict

RUN_MARKER = "run-id.txt"
DERIVED = ("all_pass", "failed_dimensions", "unverified_dimensions")


@dataclass(frozen=True)
class Replayed:
    state: LoopState
    verdict: NormalizedVerdict  # the last verdict counted


def replay_view(ctx: LoopContext, view: View, iterations: int, reference: str | None) -> Replayed:
    """Replay iterations 1..``iterations``; StateError saying what does not hold."""
    layout = ctx.layout
    marker = layout.view_dir(view) / RUN_MARKER
    owner = marker.read_text(encoding="utf-8").strip() if marker.is_file() else ""
    if owner != ctx.run_id:
        raise StateError(f"{marker}: the view's directory does not belong to run {ctx.run_id}")
    state = LoopState(
        view.feature,
        view.target,
        view.state,
        view.appearance,
        ctx.settings,
        reference_source=reference,
    )
    verdict: NormalizedVerdict | None = None
    committed = ctx.guard.committed_files(view)
    for n in range(1, iterations + 1):
        directory = layout.iteration_dir(view, n)
        try:
            outcome = load_outcome(directory / OUTCOME_FILE)
            if outcome.iteration != n:
                raise StateError(f"{directory / OUTCOME_FILE} is for iteration {outcome.iteration}")
            if outcome.kind == JUDGED:
                verdict = _verdict(ctx, directory / "verdict.json")
                state = state.record(verdict)
                _check_committed(directory, committed.get(n))
            elif outcome.kind == CONFIRMED:
                _check_confirm(ctx, view, n)
                _check_committed(directory, committed.get(n))
                state = state.unchanged()
            else:
                state = state.gate_fail(outcome.red_gates or (outcome.kind,))
        except (ArgusError, KeyError, TypeError, ValueError) as exc:
            raise StateError(f"iteration {n}: {_one_line(exc)}") from exc
    if verdict is None or not state.should_signoff or state.iteration != iterations:
        raise StateError(
            f"its {iterations} committed iteration(s) do not add up to a sign-off "
            f"({state.consecutive_passes} consecutive pass(es) re-derived)"
        )
    return Replayed(state, verdict)


def _check_committed(directory: Path, recorded: dict[str, str] | None) -> None:
    """A pass counts only when the run store noted its files when it was committed, and they
    still have those digests: files written by anything but this loop do not count."""
    if recorded is None:
        raise StateError("the run store has no commit note for it (not committed by this loop)")
    for name in COMMITTED_FILES:
        path = directory / name
        digest = hash_file(path) if path.is_file() else None
        if digest != recorded.get(name):
            raise StateError(f"{path}: not the file the run store noted when it was committed")


def _verdict(ctx: LoopContext, path: Path) -> NormalizedVerdict:
    if not path.is_file():
        raise StateError("no verdict.json")
    raw = read_json(path, what="verdict")
    verdict = normalize_verdict(raw, ctx.rubric, source=path)
    if not isinstance(raw, dict) or any(k not in raw for k in DERIVED) or verdict.corrections:
        raise StateError(f"{path}: not a normalized verdict (its derived fields are not Argus's)")
    return verdict


def _check_confirm(ctx: LoopContext, view: View, n: int) -> None:
    directory = ctx.layout.iteration_dir(view, n)
    gates = normalize_gate_result(
        read_json(directory / "gate-result.json", what="gate result"),
        source=directory / "gate-result.json",
    )
    if not gates.all_green:
        raise StateError("a confirm over red gates")
    render, previous = directory / "render.png", ctx.layout.previous_render(view, n)
    same = False
    if previous is not None and render.is_file():
        answer: object = ctx.services.unchanged(previous, render)  # a bool or an UnchangedResult
        same = answer if isinstance(answer, bool) else getattr(answer, "unchanged", False) is True
    if not same:
        raise StateError("a confirm without an unchanged render")


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
