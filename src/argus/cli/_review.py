"""`argus review`: the advisory acceptance-fidelity review of a merged PR.

    argus review run --feature F --pr 42 --pr-title "…" --pr-body-file B.md --git-range main..HEAD
    argus review run --task ARGUS-385 [--acceptance FILE] [--why "…"] --pr-title "…" --diff D
    argus review landed --pr-body-file B.md|- --pr-title "…" --git-range BASE..MERGE
    argus review list [--feature F] [--all]
    argus review outcome ID dismissed|agreed|follow_up [--note "…"]

`landed` is the trigger after a merge: it reads the PR body's closing references ("Closes #7",
"Fixes ARGUS-385", …), finds each task where tasks live (argus/tasks/ID.toml, or the feature
of that name) and reviews the PR against each. Advice only: `run` and `landed` exit 0 whenever
they recorded what there was to record, whatever the reviews found (and when a body closes
nothing, or a reviewer could not answer); 2 only for bad input.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from argus.cli._args import add_root_argument, repo_root
from argus.cli._review_pr import add_pr_arguments, pr_body, print_json, pull_request, report_filed
from argus.cli._types import count
from argus.errors import InputError

if TYPE_CHECKING:
    from argus.review.tasks import Task


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "review",
        help="advisory review: did a merged PR meet its task's acceptance?",
        description="Ask a reviewer whether a merged PR met the acceptance of the task it "
        "closes (met / partial / unmet, with a confidence), record it in the run store, and "
        "flag what a person should look at. Advice only: it never blocks and never signs off.",
    )
    actions = parser.add_subparsers(dest="review_action", metavar="ACTION", required=True)

    run = actions.add_parser("run", help="review one PR against one task and record the result")
    subject = run.add_mutually_exclusive_group(required=True)
    subject.add_argument("--feature", help="the feature whose spec.md holds the acceptance")
    subject.add_argument(
        "--task", metavar="ID", help="a task id: its task file argus/tasks/ID.toml, or with "
        "--acceptance FILE"
    )  # fmt: skip
    run.add_argument("--acceptance", type=Path, metavar="FILE", help="the task's acceptance")
    run.add_argument("--title", help="the task's title (default: the task file's, or the id)")
    run.add_argument("--why", help="why the task exists: what it is for (default: the task file's)")
    add_pr_arguments(run, body_required=False)
    run.set_defaults(func=run_review)

    landed = actions.add_parser(
        "landed",
        help="after a merge: review the PR against every task its body closes",
        description="Read the merged PR's body for closing references (close, closes, closed, "
        "fix, fixes, fixed, resolve, resolves, resolved + #N, OWNER/REPO#N or a task id in "
        "the form [review] task_id_pattern gives), find each task (argus/tasks/ID.toml, "
        "argus/tasks/N.toml for #N, or the feature of that name) and review the PR against "
        "each. A body that closes nothing is nothing to do (exit 0). Advice only.",
    )
    landed.add_argument(
        "--repo",
        metavar="OWNER/NAME",
        default=os.environ.get("GITHUB_REPOSITORY") or None,
        help="this repository, for OWNER/REPO#N references (default: $GITHUB_REPOSITORY)",
    )
    add_pr_arguments(landed, body_required=True)
    landed.set_defaults(func=run_landed)

    listing = actions.add_parser("list", help="reviews that want a person's look (or --all)")
    listing.add_argument("--feature", help="only this feature's (or task's) reviews")
    listing.add_argument("--all", action="store_true", help="every review, answered or not")
    listing.add_argument("--json", action="store_true", help="print JSON")
    add_root_argument(listing)
    listing.set_defaults(func=run_list)

    outcome = actions.add_parser("outcome", help="record a person's answer to a review")
    outcome.add_argument("review_id", type=count, metavar="ID", help="the review's id")
    outcome.add_argument("outcome", choices=("dismissed", "agreed", "follow_up"))
    outcome.add_argument("--note", default="", help="e.g. the follow-up task filed")
    add_root_argument(outcome)
    outcome.set_defaults(func=run_outcome)


def run_review(args: argparse.Namespace) -> int:
    from argus.config import load_config
    from argus.review.flow import review_and_record

    config = load_config(repo_root(args))
    task = _named_task(args, config.root)
    task = dataclasses.replace(
        task,
        title=args.title or task.title,
        why=task.why if args.why is None else args.why,
    )
    filed = review_and_record(config, task, pull_request(args, config, pr_body(args)))
    if args.json:
        print_json(filed.event.to_json())
    else:
        print(report_filed(filed))
    return 0


def _named_task(args: argparse.Namespace, root: Path) -> Task:
    """The task `review run` names: a feature, a task id with its acceptance file, or a task
    id found where tasks live."""
    from argus.review.inputs import read_text
    from argus.review.tasks import TASKS_DIR, Task, feature_task, find_task

    if args.feature:
        if args.acceptance is not None:
            raise InputError("--acceptance goes with --task; a feature's acceptance is spec.md")
        return feature_task(root, args.feature)
    if args.acceptance is not None:
        acceptance = read_text(args.acceptance, "acceptance")
        if not acceptance.strip():
            raise InputError(
                f"{args.acceptance}: the acceptance is empty; there is nothing to review the PR "
                "against"
            )
        return Task(args.task, args.task, "", acceptance, str(args.acceptance))
    found = find_task(root, args.task)
    if found is None:
        raise InputError(
            f"--task {args.task[:80]}: no task file {TASKS_DIR.as_posix()}/"
            f"{args.task.lstrip('#')[:80]}.toml and no feature of that name; give --acceptance "
            "FILE or write the task file"
        )
    return found


def run_landed(args: argparse.Namespace) -> int:
    from argus.config import load_config
    from argus.review.flow import review_and_record
    from argus.review.refs import closing_references
    from argus.review.tasks import TASKS_DIR, find_task

    config = load_config(repo_root(args))
    body = pr_body(args)
    refs, aside = closing_references(body, config.review.task_id_pattern, args.repo)
    set_aside = [{"reference": a.text, "reason": a.reason} for a in aside]
    found = []
    for ref in refs:  # every task is read (and a bad task file refused) before anything is asked
        task = find_task(config.root, ref.task_id)
        if task is None:
            where = f"{TASKS_DIR.as_posix()}/{ref.task_id.lstrip('#')}.toml"
            set_aside.append(
                {
                    "reference": ref.text,
                    "reason": f"no task file {where} and no feature of that name",
                }
            )
        else:
            found.append((ref, task))
    filed = []
    if found:
        pr = pull_request(args, config, body)
        for ref, task in found:
            trigger = {"by": "landed", "reference": ref.text}
            filed.append(review_and_record(config, task, pr, trigger=trigger))
    if args.json:
        print_json(
            {
                "references": [r.text for r in refs],
                "reviews": [f.event.to_json() for f in filed],
                "set_aside": set_aside,
            }
        )
        return 0
    if not refs:
        print("no closing reference (Closes #N, Fixes ID, …) in the PR body: nothing to review")
    for item in set_aside:
        print(f"set aside: {item['reference']}: {item['reason']}")
    for one in filed:
        print(report_filed(one))
    return 0


def run_list(args: argparse.Namespace) -> int:
    from argus.review.context import describe
    from argus.review.record import filed_reviews

    root = repo_root(args)
    reviews = [r for r in filed_reviews(root, args.feature) if args.all or r.open]
    if args.json:
        rows = [
            {**r.event.to_json(), "outcome": r.outcome.to_json() if r.outcome else None}
            for r in reviews
        ]
        print_json(rows)
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
