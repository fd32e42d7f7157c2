"""What `argus review run` and `argus review landed` share: the merged PR's arguments (title,
body, diff, deterministic evidence), read into one PullRequest, and printing what was filed."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from argus.cli._args import add_root_argument
from argus.cli._types import count
from argus.config import ProjectConfig
from argus.errors import InputError
from argus.review.flow import Filed, PullRequest

STDIN = Path("-")


def add_pr_arguments(parser: argparse.ArgumentParser, *, body_required: bool) -> None:
    parser.add_argument("--pr", type=count, metavar="N", help="the PR's number")
    parser.add_argument("--pr-title", required=True, help="the PR's title")
    if body_required:
        parser.add_argument(
            "--pr-body-file",
            type=Path,
            metavar="FILE",
            required=True,
            help="the PR's description ('-': standard input)",
        )
    else:
        body = parser.add_mutually_exclusive_group()
        body.add_argument("--pr-body", default="", help="the PR's description")
        body.add_argument(
            "--pr-body-file", type=Path, metavar="FILE", help="… from a file ('-': stdin)"
        )
    diff = parser.add_mutually_exclusive_group(required=True)
    diff.add_argument("--diff", type=Path, metavar="FILE", help="the PR's unified diff")
    diff.add_argument("--git-range", metavar="BASE..HEAD", help="git diff over this range")
    parser.add_argument("--merged-commit", metavar="SHA", help="deterministic evidence: the merge")
    parser.add_argument("--ci", metavar="STATUS", help="deterministic evidence: CI status")
    parser.add_argument("--deploy", metavar="STATUS", help="deterministic evidence: deploy status")
    parser.add_argument("--json", action="store_true", help="print what was recorded as JSON")
    add_root_argument(parser)


def pr_body(args: argparse.Namespace) -> str:
    """The PR body: ``--pr-body-file`` (a file, or ``-`` for standard input) or ``--pr-body``."""
    from argus.review.inputs import MAX_TEXT_BYTES, read_text

    path: Path | None = args.pr_body_file
    if path is None:
        return str(getattr(args, "pr_body", ""))
    if path != STDIN:
        return read_text(path, "PR body")
    data = sys.stdin.buffer.read(MAX_TEXT_BYTES + 1)
    if len(data) > MAX_TEXT_BYTES:
        raise InputError("--pr-body-file -: the PR body on standard input is over 1 MiB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError("--pr-body-file -: the PR body on standard input is not UTF-8") from exc


def pull_request(args: argparse.Namespace, config: ProjectConfig, body: str) -> PullRequest:
    """The PR the arguments describe; its diff must have file sections (else InputError)."""
    from argus.review.diff import NO_FILES, parse_diff
    from argus.review.inputs import MAX_DIFF_BYTES, git_diff, read_text

    if args.diff is not None:
        raw_diff = read_text(args.diff, "diff", limit=MAX_DIFF_BYTES)
        source = str(args.diff)
    else:
        raw_diff = git_diff(config.root, args.git_range)
        source = f"git diff {args.git_range}"
    # A diff of no files would be reviewed as a PR that changed nothing: refuse it instead.
    if not raw_diff.strip() or not parse_diff(raw_diff):
        raise InputError(f"{source}: {NO_FILES}")
    given = (("merged commit", args.merged_commit), ("CI", args.ci), ("deploy", args.deploy))
    evidence = {key: value for key, value in given if value}
    return PullRequest(args.pr_title, body, raw_diff, args.pr, evidence)


def report_filed(filed: Filed) -> str:
    """The review as `argus review` prints it (the notification's failure on stderr)."""
    from argus.review.context import describe

    if filed.warning:
        print(f"argus: {filed.warning}", file=sys.stderr)
    return describe(filed.event.id, filed.event.feature, filed.payload)


def print_json(value: Any) -> None:
    print(json.dumps(value, indent=2))
