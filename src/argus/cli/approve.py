"""`argus approve`: the human checkpoints. Accept a candidate reference (HE-1), or record the
spot-check of a sign-off (HE-2): approved, or the dimension the judge got wrong."""

from __future__ import annotations

import argparse
from typing import Any

from argus.cli._args import add_root_argument, add_view_arguments, feature_spec, repo_root
from argus.contracts import load_rubric
from argus.errors import InputError
from argus.loop.layout import RunLayout
from argus.loop.lock import FeatureLock
from argus.loop.references import approve_candidate, candidate_path
from argus.loop.runrecord import load_run
from argus.loop.signoff import load_records, pending_records, set_spotcheck
from argus.spec import Spec, View


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "approve",
        help="approve a candidate reference (HE-1) or spot-check a sign-off (HE-2)",
        description="When the target's reference is a candidate awaiting approval, move it "
        "into references/ and mark it present (source: candidate). Otherwise record the human "
        "spot-check of the view's latest sign-off: approved, or with --wrong DIMENSION the "
        "rubric dimension the judge got wrong. Without --state/--appearance: the candidate of "
        "the target's canonical view, or the target's pending sign-off.",
    )
    add_view_arguments(parser, view_required=False)
    parser.add_argument(
        "--wrong",
        metavar="DIMENSION",
        help="the spot-check found the judge wrong on this rubric dimension",
    )
    parser.add_argument("--note", help="a short note kept with the spot-check")
    add_root_argument(parser)
    parser.set_defaults(func=approve_command)


def approve_command(args: argparse.Namespace) -> int:
    if (args.state is None) != (args.appearance is None):
        raise InputError("--state and --appearance go together; give both or neither")
    spec = feature_spec(repo_root(args), args.feature)
    target = spec.target(args.target)
    layout = RunLayout(spec.spec_dir)
    if args.state is not None:
        view = View(spec.feature, target.id, args.state, args.appearance)
        if view.state not in target.states or view.appearance not in target.appearances:
            raise InputError(
                f"{spec.path}: target '{target.id}' has no view {view.state}/{view.appearance}"
            )
    else:
        view = spec.canonical_view(target.id)

    # signoff.json and spec.json are the loop's files too: never write them under a running loop.
    with FeatureLock(layout.feature_runs, spec.feature):
        return _approve(args, spec, layout, view)


def _approve(args: argparse.Namespace, spec: Spec, layout: RunLayout, view: View) -> int:
    target = spec.target(view.target)
    reference = target.reference_for(view.state, view.appearance)
    has_candidate = candidate_path(layout.feature_runs, view).is_file()
    if has_candidate and (reference is None or reference.status != "present"):
        if args.wrong:
            raise InputError(
                "--wrong is for a sign-off's spot-check, not for a candidate reference"
            )
        destination = approve_candidate(spec, layout.feature_runs, view)
        print(
            f"approved the candidate reference of {view.slug}: {destination} "
            "(source: candidate); rerun argus loop to converge the target"
        )
        return 0
    return _spotcheck(args, spec, layout, view if args.state is not None else None)


def _spotcheck(args: argparse.Namespace, spec: Spec, layout: RunLayout, view: View | None) -> int:
    if view is None:
        pending = pending_records(load_records(layout.signoff_file), target=args.target)
        if not pending:
            raise InputError(
                f"{layout.signoff_file}: target '{args.target}' has no pending sign-off and no "
                "candidate reference; name the view with --state and --appearance"
            )
        current = load_run(layout.run_file)
        in_run = [r for r in pending if current is not None and r.get("run_id") == current.run_id]
        # The current run's first sign-off is the one HE-2 waits on; else the latest pending.
        first = in_run[0] if in_run else pending[-1]
        view = View(spec.feature, first["target"], first["state"], first["appearance"])
    if args.wrong:
        rubric = load_rubric(spec.rubric_path)
        if args.wrong not in rubric.names:
            known = ", ".join(rubric.names)
            raise InputError(f"--wrong {args.wrong}: not a rubric dimension; use one of {known}")
    record = set_spotcheck(layout.signoff_file, view, wrong_dimension=args.wrong, note=args.note)
    if args.wrong:
        print(
            f"recorded: the judge got {args.wrong} wrong on {view.slug}; the run will end "
            "DONE_WITH_CONCERNS. Tune rubric.json, then rerun argus loop."
        )
    else:
        print(f"recorded: spot-check of {view.slug} approved ({record['signed_off_at']})")
    return 0
