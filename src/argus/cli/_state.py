"""`argus state`: the durable loop counters of one view, step by step (init, record, ...).

The loop itself uses argus.loop.records.state directly; this command exposes the same steps to a
person or an agent driving the loop by hand, and prints the state with its decision block.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from argus.cli._args import add_root_argument, add_view_arguments, feature_spec, repo_root
from argus.cli._rubric import PLAIN_NAME as _NAME
from argus.cli._rubric import resolve_rubric
from argus.cli._types import count
from argus.errors import InputError
from argus.io import read_json
from argus.loop.guard.lock import FeatureLock
from argus.loop.records.state import (
    LoopSettings,
    LoopState,
    init_state,
    load_state,
    save_state,
    state_path,
)
from argus.sense.views import check_view
from argus.spec import View
from argus.verdict import normalize_gate_result, normalize_verdict

_NEXT = {
    "implement": "run the implementer on the spec",
    "fix_gates": "have the implementer fix the red gates, then re-gate",
    "fix_dimensions": "have the implementer fix the failing dimensions",
    "confirm": "do not edit; re-render and confirm the pass",
    "retry_judge": "the judge was inconclusive; judge the render again",
    "signoff": "sign the view off",
    "stop_budget": "stop: the iteration budget is used up",
}


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "state",
        help="step a view's loop state (init, record, unchanged, gate-fail, show)",
        description="Durable convergence counters for one view, kept in "
        "argus/specs/FEATURE/.argus-runs/TARGET-STATE-APPEARANCE/state.json. Every step prints "
        "the new state and its decision. Exit 0 when the step was recorded, 2 when it was "
        "refused (bad input, no state yet, an unchanged confirm after a non-passing step...).",
    )
    steps = parser.add_subparsers(dest="state_step", metavar="STEP", required=True)

    init = _step(steps, "init", "create the view's state (or resume the existing one)")
    init.add_argument("--reference-source", choices=("human", "candidate"))
    init.add_argument("--rubric", type=Path, help="rubric.json for the loop settings")
    init.add_argument("--max-iterations", type=count, help="iteration budget (default: rubric's)")
    init.add_argument("--reset", action="store_true", help="start over, discarding the state")

    record = _step(steps, "record", "count a judge verdict (normalized here, never trusted)")
    record.add_argument("--verdict", type=Path, required=True, help="the judge's verdict.json")
    record.add_argument("--rubric", type=Path, help="rubric.json the verdict is checked against")

    _step(steps, "unchanged", "count an unchanged render after a pass (hash-suppressed confirm)")

    gate_fail = _step(steps, "gate-fail", "count an iteration stopped by red gates")
    gate_fail.add_argument("--gate", type=Path, help="gate-result.json; its red gates are kept")
    gate_fail.add_argument(
        "--red", action="append", default=[], metavar="NAME", help="a red gate (repeatable)"
    )
    _step(steps, "show", "print the state and its decision")


def _step(steps: Any, name: str, help_text: str) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = steps.add_parser(name, help=help_text, description=help_text)
    add_view_arguments(parser, state_dest="view_state")
    add_root_argument(parser)
    parser.add_argument("--json", action="store_true", help="print the state and decision as JSON")
    parser.set_defaults(func=run_state)
    return parser


def run_state(args: argparse.Namespace) -> int:
    for flag in ("feature", "target", "view_state", "appearance"):
        if not _NAME.match(getattr(args, flag)):
            name = "state" if flag == "view_state" else flag
            raise InputError(f"--{name} {getattr(args, flag)!r} is not a plain name")
    root = repo_root(args)
    view = View(args.feature, args.target, args.view_state, args.appearance)
    # A state for a view the spec does not have could never be signed off: refuse it before
    # anything is written (unknown feature, target, state or appearance: one line, exit 2).
    check_view(feature_spec(root, view.feature), view)
    path = state_path(root, view)
    step = args.state_step
    if step == "show":
        _print(load_state(path), path, as_json=args.json)
        return 0
    # Every step that writes takes the loop's lock: never a state.json under a running loop.
    with FeatureLock(path.parent.parent, view.feature):
        state = _write_step(step, path, view, args, root)
    _print(state, path, as_json=args.json)
    return 0


def _write_step(
    step: str, path: Path, view: View, args: argparse.Namespace, root: Path
) -> LoopState:
    if step == "init":
        rubric = resolve_rubric(args.rubric, root, view.feature)
        settings = LoopSettings.from_rubric(rubric, args.max_iterations)
        state = init_state(
            path, view, settings, reference_source=args.reference_source, reset=args.reset
        )
        return state
    return save_state(path, _advance(step, load_state(path), args, root))


def _advance(step: str, state: LoopState, args: argparse.Namespace, root: Path) -> LoopState:
    if step == "record":
        rubric = resolve_rubric(args.rubric, root, state.feature)
        raw = read_json(args.verdict, what="verdict")
        verdict = normalize_verdict(raw, rubric, source=args.verdict)
        recorded = state.record(verdict)
        # The derived values are what count; say out loud where the judge's own claims differed.
        for correction in verdict.corrections:
            print(f"argus: {args.verdict}: corrected {correction}", file=sys.stderr)
        return recorded
    if step == "unchanged":
        return state.unchanged()
    red = list(args.red)
    if args.gate is not None:
        gates = normalize_gate_result(read_json(args.gate, what="gate result"), source=args.gate)
        if gates.all_green and not red:
            raise InputError(f"{args.gate}: every gate is green; there is no gate-fail to record")
        red = [*gates.red_gates, *red]
    if not red:
        raise InputError("gate-fail needs --gate GATE.json with a red gate, or --red NAME")
    return state.gate_fail(red)


def _print(state: LoopState, path: Path, *, as_json: bool) -> None:
    decision = state.decision()
    if as_json:
        print(json.dumps({"state": state.to_json(), "decision": decision.to_json()}, indent=2))
        return
    print(f"{state.feature}/{state.target}/{state.state}/{state.appearance}  ({path})")
    print(
        f"  iteration {state.iteration}/{state.settings.max_iterations}, "
        f"passes in a row {state.consecutive_passes}/{state.settings.consecutive_passes_required}"
    )
    for label, names in (
        ("fix", decision.fix_dimensions),
        ("red gates", decision.red_gates),
        ("frozen", decision.frozen),
        ("newly frozen", decision.newly_frozen),
        ("concerns", decision.concerns),
    ):
        if names:
            print(f"  {label}: {', '.join(names)}")
    print(f"next: {decision.next_action} ({_NEXT[decision.next_action]})")
