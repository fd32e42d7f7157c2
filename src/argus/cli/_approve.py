"""`argus approve`: the human checkpoints. Accept a candidate reference (HE-1), record the
spot-check of a sign-off (HE-2): approved, or the dimension the judge got wrong, or accept a
view's latest render as its snapshot baseline (--baseline), or accept the feature's
configuration, gates and rubric as they are now (--config). The decisions themselves live in
argus.loop.human.decisions, which the review page (argus ui) calls too. The feature's latest
acceptance-fidelity reviews (argus review) are printed as context before the passphrase is
asked; they never change the decision."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from argus.cli._args import add_root_argument, add_view_arguments, feature_spec, repo_root
from argus.config import load_config
from argus.errors import InputError
from argus.loop.human.decisions import (
    Decision,
    accept_baseline,
    accept_config,
    approve_reference,
    has_candidate,
    record_spotcheck,
)
from argus.spec import View

VIA = "cli"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "approve",
        help="approve a candidate reference (HE-1), spot-check a sign-off (HE-2), or accept "
        "a render as the snapshot baseline",
        description="When the target's reference is a candidate awaiting approval, move it "
        "into references/ and mark it present (source: candidate). Otherwise record the human "
        "spot-check of the view's latest sign-off: approved, or with --wrong DIMENSION the "
        "rubric dimension the judge got wrong. Without --state/--appearance: the candidate of "
        "the target's canonical view, or the target's pending sign-off. With --baseline, "
        "make the view's latest committed render its snapshot baseline. With --config, accept "
        "the feature's configuration (argus.toml or [tool.argus], rubric.json, the gate "
        "lists) as it is now: later runs under a weaker one stop NEEDS_CONTEXT until a person "
        "accepts it. Every decision is recorded in the run store with the OS user and the time.",
    )
    add_view_arguments(
        parser,
        view_required=False,
        target_required=False,
        target_help="target id from the spec (required except with --config)",
    )
    parser.add_argument(
        "--wrong",
        metavar="DIMENSION",
        help="the spot-check found the judge wrong on this rubric dimension",
    )
    parser.add_argument("--note", help="a short note kept with the spot-check")
    parser.add_argument(
        "--baseline",
        action="store_true",
        help="accept the view's latest render as its snapshot baseline (needs --state and "
        "--appearance)",
    )
    parser.add_argument(
        "--config",
        action="store_true",
        help="accept the feature's configuration, gates and rubric as they are now (say what "
        "it weakens against the last one accepted)",
    )
    add_root_argument(parser)
    parser.set_defaults(func=approve_command)


def approve_command(args: argparse.Namespace) -> int:
    from argus.person import require_person

    if (args.state is None) != (args.appearance is None):
        raise InputError("--state and --appearance go together; give both or neither")
    root = repo_root(args)
    spec = feature_spec(root, args.feature)
    # The reviews are in front of the person before they are asked for the passphrase.
    _print_review_context(root, spec.feature)
    require_person("argus approve")
    if args.config:
        if args.target or args.state or args.wrong or args.note or args.baseline:
            raise InputError(
                "--config accepts the whole feature's configuration; give only "
                "--feature (and --root)"
            )
        print(accept_config(spec, load_config(root), via=VIA).message)
        return 0
    if args.target is None:
        raise InputError("--target is required (except with --config)")
    target = spec.target(args.target)
    if args.state is not None:
        view = View(spec.feature, target.id, args.state, args.appearance)
        if view.state not in target.states or view.appearance not in target.appearances:
            raise InputError(
                f"{spec.path}: target '{target.id}' has no view {view.state}/{view.appearance}"
            )
    else:
        view = spec.canonical_view(target.id)
    decision: Decision
    if args.baseline:
        if args.state is None or args.wrong or args.note:
            raise InputError("--baseline needs --state and --appearance, without --wrong/--note")
        decision = accept_baseline(spec, load_config(root), view, via=VIA)
    elif has_candidate(spec, view):
        if args.wrong:
            raise InputError(
                "--wrong is for a sign-off's spot-check, not for a candidate reference"
            )
        decision = approve_reference(spec, view, via=VIA)
    else:
        decision = record_spotcheck(
            spec,
            view if args.state is not None else None,
            wrong=args.wrong,
            note=args.note,
            via=VIA,
            target=target.id,
        )
    print(decision.message)
    return 0


def _print_review_context(root: Path, feature: str) -> None:
    """The feature's latest acceptance-fidelity reviews on stderr, where the passphrase is asked:
    context for the person, never a condition of the decision (recorded as it would be without
    them)."""
    from argus.review.context import context_lines, review_context

    for line in context_lines(feature, review_context(root, feature)):
        print(line, file=sys.stderr)
