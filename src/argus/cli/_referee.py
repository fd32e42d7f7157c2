"""`argus referee CONFIG.json`: merge captured evidence into one verdict with a next action."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from argus.cli._args import add_root_argument, repo_root


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "referee",
        help="merge captured evidence (gates, console, Lighthouse, SSIM, parity, design "
        "schema) into one verdict with a next action",
        description="Read CONFIG.json (repository-relative evidence paths), grade each source "
        "and print one JSON verdict {passed, gates, next_action, notes}. Exit 0 when passed is "
        "true or null (nothing determinate yet), 1 when a determinate gate failed (a non-finite "
        "number in evidence is an error), 2 for bad input (unreadable, over 5 MiB, a path with "
        "'..' or outside the repository). An evidence file that does not exist is not_captured "
        "with its reason, never a refusal.",
    )
    parser.add_argument("config", type=Path, metavar="CONFIG.json")
    add_root_argument(parser)
    parser.set_defaults(func=run_referee)


def run_referee(args: argparse.Namespace) -> int:
    from argus.referee.verdict import referee

    verdict = referee(args.config, repo_root(args))
    print(json.dumps(verdict.to_json(), indent=2))
    return verdict.exit_code
