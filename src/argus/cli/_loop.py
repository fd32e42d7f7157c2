"""`argus loop`: converge a feature's views to sign-off (see docs/loop.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from argus.cli._args import add_root_argument, feature_spec
from argus.cli._reporters import add_reporter_argument, check_reporters, emit, loop_cases
from argus.cli._shard import add_shard_arguments, selected_views, write_shard_results
from argus.cli._types import count
from argus.errors import ArgusError, InputError
from argus.loop.engine.modes import Mode
from argus.loop.engine.run import LoopOptions, RunOutcome, run_loop
from argus.loop.records.status import Status, exit_code
from argus.loop.terminal.progress import make_progress
from argus.loop.terminal.summary import render_summary
from argus.shard.results import ViewEntry
from argus.spec import Spec, View, find_repo_root


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "loop",
        help="converge a feature's views: implement, sense, gate, judge, sign off",
        description="Drive every view of a feature (or of one target) from red to signed off: "
        "the implementer edits, the sensor renders, the gates and the separate judge decide, "
        "and a view signs off after two consecutive passes. Ends with DONE (exit 0), "
        "DONE_WITH_CONCERNS (1), FAILED (1, report-only: a view failed its one iteration), "
        "BLOCKED (2) or NEEDS_CONTEXT (3, a human has to act). "
        "A killed run resumes where it stopped when rerun.",
    )
    parser.add_argument("--feature", required=True, help="feature name (argus/specs/FEATURE)")
    parser.add_argument("--target", help="converge only this target (default: every target)")
    parser.add_argument(
        "--mode",
        choices=[m.value for m in Mode],
        default=Mode.INTERACTIVE.value,
        help="interactive (default): pause for the human checkpoints; headless: never pause, "
        "leave the spot-check pending; report-only: one iteration, no edits, nothing written "
        "outside the run directory",
    )
    parser.add_argument(
        "--max-iterations",
        type=count,
        metavar="N",
        help="iteration budget per view (default: the rubric's, 12)",
    )
    parser.add_argument(
        "--implementer",
        metavar="COMMAND",
        help="implementer command template, overriding [implementer] command in argus.toml",
    )
    parser.add_argument(
        "--new-run",
        action="store_true",
        help="start a new run even when an unfinished one could be resumed",
    )
    add_shard_arguments(parser)
    add_root_argument(parser)
    add_reporter_argument(parser)
    parser.set_defaults(func=run_loop_command)


def run_loop_command(args: argparse.Namespace) -> int:
    check_reporters(args)
    if args.shard is not None and Mode(args.mode) is not Mode.REPORT_ONLY:
        raise InputError("--shard splits a --mode report-only run only (a sign-off is one run)")
    root = (args.root or Path.cwd()).resolve()
    scope: tuple[Spec, list[View]] | None = None
    if args.shard is not None or args.results is not None:
        spec = feature_spec(find_repo_root(root), args.feature)
        scope = (spec, selected_views(spec, args))
    options = LoopOptions(
        feature=args.feature,
        root=root,
        target=args.target,
        mode=Mode(args.mode),
        max_iterations=args.max_iterations,
        implementer=args.implementer,
        new_run=args.new_run,
        only_views=None if scope is None else frozenset(v.slug for v in scope[1]),
    )
    outcome = run_loop(options, progress=make_progress(sys.stderr))
    bad_input = outcome.status is Status.BLOCKED and outcome.run_id is None and not outcome.views
    if bad_input:
        # Nothing ran (an invalid spec, config or rubric): bad input, one line like elsewhere.
        print(
            f"argus: {outcome.notes[0] if outcome.notes else 'the loop could not start'}",
            file=sys.stderr,
        )
    else:
        print(render_summary(outcome))
    if scope is not None:
        _write_results(args, *scope, outcome)
    if args.reporter:
        project = find_repo_root(root)
        try:
            reported: Spec | None = feature_spec(project, args.feature)
        except ArgusError:  # the run reported why (an invalid spec is BLOCKED)
            reported = None
        emit(args, loop_cases(args.feature, reported, outcome), "argus loop", project)
    return exit_code(outcome.status)


def _write_results(
    args: argparse.Namespace, spec: Spec, views: list[View], outcome: RunOutcome
) -> None:
    """One entry per view of the shard. A view the run did not reach is BLOCKED when the run
    was, else NEEDS_CONTEXT (its target waits for the canonical reference), as the unsharded
    run would leave it."""
    done = {result.view.slug: result for result in outcome.views}
    unreached = Status.BLOCKED if outcome.status is Status.BLOCKED else Status.NEEDS_CONTEXT
    why = "; ".join(outcome.notes) or "waits for the target's reference"
    entries = {}
    for view in views:
        result = done.get(view.slug)
        if result is None:
            entries[view.slug] = ViewEntry(view, unreached.value, detail={"detail": why})
            continue
        entries[view.slug] = ViewEntry(
            view,
            result.status.value,
            duration_ms=sum(result.timings.values()) * 1000,  # timings are seconds
            red_gates=result.last.red_gates if result.last is not None else (),
            detail={"end": result.end, "iterations": result.iterations, "detail": result.detail},
        )
    root = find_repo_root(spec.spec_dir)
    write_shard_results(args, root, "loop", spec, views, entries, extra={"run_id": outcome.run_id})
