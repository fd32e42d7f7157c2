"""`argus review`: the advisory acceptance-fidelity review of a merged PR.

    argus review run --feature F --pr 42 --pr-title "…" --pr-body-file B.md --git-range main..HEAD
    argus review list [--feature F] [--all]
    argus review outcome ID dismissed|agreed|follow_up [--note "…"]

Advice only: `argus review run` exits 0 whenever a review was recorded, whatever it found (and
when the reviewer could not answer: that is recorded too); 2 only for bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from argus.cli._args import add_root_argument, repo_root
from argus.errors import InputError


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "review",
        help="advisory review: did a merged PR meet its task's acceptance?",
        description="Ask a reviewer whether a merged PR met the acceptance of the task it "
        "closes (met / partial / unmet, with a confidence), record it in the run store, and "
        "flag what a person should look at. Advice only: it never blocks and never signs off.",
    )
    actions = parser.add_subparsers(dest="review_action", metavar="ACTION", required=True)

    run = actions.add_parser("run", help="review one PR and record the result")
    subject = run.add_mutually_exclusive_group(required=True)
    subject.add_argument("--feature", help="the feature whose spec.md holds the acceptance")
    subject.add_argument("--task", metavar="ID", help="a task id (with --acceptance FILE)")
    run.add_argument("--acceptance", type=Path, metavar="FILE", help="the task's acceptance")
    run.add_argument("--title", help="the task's title (default: the feature or task id)")
    run.add_argument("--why", default="", help="why the task exists: what it is for")
    run.add_argument("--pr", type=int, metavar="N", help="the PR's number")
    run.add_argument("--pr-title", required=True, help="the PR's title")
    body = run.add_mutually_exclusive_group()
    body.add_argument("--pr-body", default="", help="the PR's description")
    body.add_argument("--pr-body-file", type=Path, metavar="FILE", help="… from a file")
    diff = run.add_mutually_exclusive_group(required=True)
    diff.add_argument("--diff", type=Path, metavar="FILE", help="the PR's unified diff")
    diff.add_argument("--git-range", metavar="BASE..HEAD", help="git diff over this range")
    run.add_argument("--merged-commit", metavar="SHA", help="deterministic evidence: the merge")
    run.add_argument("--ci", metavar="STATUS", help="deterministic evidence: CI status")
    run.add_argument("--deploy", metavar="STATUS", help="deterministic evidence: deploy status")
    run.add_argument("--json", action="store_true", help="print the recorded review as JSON")
    add_root_argument(run)
    run.set_defaults(func=run_review)

    listing = actions.add_parser("list", help="reviews that want a person's look (or --all)")
    listing.add_argument("--feature", help="only this feature's (or task's) reviews")
    listing.add_argument("--all", action="store_true", help="every review, answered or not")
    listing.add_argument("--json", action="store_true", help="print JSON")
    add_root_argument(listing)
    listing.set_defaults(func=run_list)

    outcome = actions.add_parser("outcome", help="record a person's answer to a review")
    outcome.add_argument("review_id", type=int, metavar="ID", help="the review's id")
    outcome.add_argument("outcome", choices=("dismissed", "agreed", "follow_up"))
    outcome.add_argument("--note", default="", help="e.g. the follow-up task filed")
    add_root_argument(outcome)
    outcome.set_defaults(func=run_outcome)


def run_review(args: argparse.Namespace) -> int:
    from argus.config import load_config
    from argus.review.diff import NO_FILES, cut_diff, parse_diff
    from argus.review.inputs import MAX_DIFF_BYTES, feature_acceptance, git_diff, read_text
    from argus.review.judge import ReviewInputs, bounded, review, review_payload
    from argus.review.record import notify, record_review

    root = repo_root(args)
    config = load_config(root)
    evidence: dict[str, str] = {}
    if args.feature:
        if args.acceptance is not None:
            raise InputError("--acceptance goes with --task; a feature's acceptance is spec.md")
        subject = args.feature
        acceptance, evidence = feature_acceptance(config.root, args.feature)
    else:
        if args.acceptance is None:
            raise InputError("--task needs --acceptance FILE (the task's acceptance criteria)")
        subject = args.task
        acceptance = read_text(args.acceptance, "acceptance")
    if not acceptance.strip():
        raise InputError("the acceptance is empty; there is nothing to review the PR against")
    given = (("merged commit", args.merged_commit), ("CI", args.ci), ("deploy", args.deploy))
    for key, value in given:
        if value:
            evidence[key] = value
    body = read_text(args.pr_body_file, "PR body") if args.pr_body_file else args.pr_body
    if args.diff is not None:
        raw_diff = read_text(args.diff, "diff", limit=MAX_DIFF_BYTES)
        source = str(args.diff)
    else:
        raw_diff = git_diff(config.root, args.git_range)
        source = f"git diff {args.git_range}"
    # A diff of no files would be reviewed as a PR that changed nothing: refuse it instead.
    if not raw_diff.strip() or not parse_diff(raw_diff):
        raise InputError(f"{source}: {NO_FILES}")
    texts, cut = bounded(
        {"acceptance": acceptance, "why": args.why, "PR body": body}, config.review
    )
    inputs = ReviewInputs(
        subject=subject,
        title=args.title or subject,
        acceptance=texts["acceptance"],
        pr_title=args.pr_title,
        pr_body=texts["PR body"],
        diff=cut_diff(raw_diff, config.review.max_diff_chars),
        pr_number=args.pr,
        evidence=evidence,
        cut=cut,
        why=texts["why"],
    )
    result, asked = review(inputs, config)
    payload = review_payload(inputs, result, asked, config.review.backend)
    event = record_review(config.root, subject, payload)
    if result.flag == "notify":
        warning = notify(config, subject, payload)
        if warning:
            print(f"argus: {warning}", file=sys.stderr)
    if args.json:
        print(json.dumps(event.to_json(), indent=2))
    else:
        print(describe(event.id, subject, payload))
    return 0


def describe(review_id: int | None, subject: str, payload: dict[str, Any]) -> str:
    pr = payload.get("pr", {}).get("number")
    head = f"review {review_id}: {subject}{f' PR #{pr}' if pr is not None else ''}"
    if payload.get("verdict") is None:
        return f"{head}: no answer ({payload.get('error')}); flag {payload['flag']}"
    lines = [
        f"{head}: {payload['verdict']} (confidence {payload['confidence']:.2f}); "
        f"flag {payload['flag']}",
        f"  {payload['rationale']}",
    ]
    lines += [f"  missing: {m}" for m in payload.get("missing_acceptance", [])]
    lines += [f"  note: {n}" for n in payload.get("notes", [])]
    return "\n".join(lines)


def run_list(args: argparse.Namespace) -> int:
    from argus.review.record import filed_reviews

    root = repo_root(args)
    reviews = [r for r in filed_reviews(root, args.feature) if args.all or r.open]
    if args.json:
        rows = [
            {**r.event.to_json(), "outcome": r.outcome.to_json() if r.outcome else None}
            for r in reviews
        ]
        print(json.dumps(rows, indent=2))
        return 0
    if not reviews:
        print("no reviews" + ("" if args.all else " waiting for a person"))
        return 0
    for r in reviews:
        line = describe(r.event.id, r.event.feature, dict(r.event.payload)).splitlines()[0]
        if r.outcome is not None:
            line += f" [{r.outcome.payload.get('outcome')}]"
        print(line)
    return 0


def run_outcome(args: argparse.Namespace) -> int:
    from argus.review.record import record_outcome

    event = record_outcome(repo_root(args), args.review_id, args.outcome, args.note)
    print(f"review {args.review_id}: {args.outcome} (event {event.id})")
    return 0
