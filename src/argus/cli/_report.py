"""`argus report`: write a run's self-contained HTML report (see docs/report.md)."""

from __future__ import annotations

import argparse
import os
import webbrowser
from pathlib import Path
from typing import Any

from argus.cli._args import add_root_argument, repo_root
from argus.report import write_report


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "report",
        help="write the HTML report of a loop run",
        description="Write one self-contained HTML file for a loop run: per view the render, "
        "reference and diff, the gates, the verdict per dimension, the iteration timeline, the "
        "status and the sign-offs. Exit 0 when written, 2 when there is no such run.",
    )
    parser.add_argument("--feature", help="the feature (default: the latest run's)")
    parser.add_argument("--run", metavar="RUN_ID", help="the run to report (default: the latest)")
    parser.add_argument(
        "--out",
        type=Path,
        metavar="FILE",
        help="where to write (default: argus/specs/F/.argus-runs/report-RUN_ID.html)",
    )
    parser.add_argument("--open", action="store_true", help="open the report in a browser")
    add_root_argument(parser)
    parser.set_defaults(func=run_report)


def run_report(args: argparse.Namespace) -> int:
    root = repo_root(args)
    out = args.out.resolve() if args.out is not None else None
    path = write_report(root, args.feature, args.run, out)
    print(path)
    if args.open:
        open_in_browser(path)
    return 0


def open_in_browser(path: Path) -> bool:
    """Open ``path`` in the user's browser; never in CI, and never an error when there is none."""
    if os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no"):
        return False
    try:
        return webbrowser.open(path.resolve().as_uri())
    except webbrowser.Error:
        return False
