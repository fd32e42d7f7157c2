"""`argus loop`: converge a feature's views to sign-off (see docs/loop.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from argus.cli._args import add_root_argument
from argus.errors import InputError
from argus.loop.modes import Mode
from argus.loop.progress import make_progress
from argus.loop.run import LoopOptions, run_loop
from argus.loop.status import exit_code
from argus.loop.summary import render_summary


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "loop",
        help="converge a feature's views: implement, sense, gate, judge, sign off",
        description="Drive every view of a feature (or of one target) from red to signed off: "
        "the implementer edits, the sensor renders, the gates and the separate judge decide, "
        "and a view signs off after two consecutive passes. Ends with DONE (exit 0), "
        "DONE_WITH_CONCERNS (1), BLOCKED (2) or NEEDS_CONTEXT (3, a human has to act). "
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
        type=int,
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
    add_root_argument(parser)
    parser.set_defaults(func=run_loop_command)


def run_loop_command(args: argparse.Namespace) -> int:
    if args.max_iterations is not None and args.max_iterations < 1:
        raise InputError(f"--max-iterations must be at least 1, got {args.max_iterations}")
    options = LoopOptions(
        feature=args.feature,
        root=(args.root or Path.cwd()).resolve(),
        target=args.target,
        mode=Mode(args.mode),
        max_iterations=args.max_iterations,
        implementer=args.implementer,
        new_run=args.new_run,
    )
    outcome = run_loop(options, progress=make_progress(sys.stderr))
    print(render_summary(outcome))
    return exit_code(outcome.status)
