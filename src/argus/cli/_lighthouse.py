"""`argus lighthouse`: run the real Lighthouse on one view and grade each category."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from argus.cli._args import add_root_argument, add_view_arguments, repo_root
from argus.cli._types import score


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "lighthouse",
        help="run Lighthouse on a view and grade each category against its minimum",
        description="Run the real Lighthouse (npm `lighthouse`, from PATH or installed on "
        "demand into a cache) against the view's URL with Argus's Chromium, write "
        "lighthouse.json into the view's .argus-runs entry, and grade accessibility, "
        "performance, best-practices and seo against their minimums ([gates.lighthouse], or "
        "the flags). Exit 0 all pass, 1 a category under its minimum or with an invalid score, "
        "2 bad input or Lighthouse could not run.",
    )
    add_view_arguments(parser)
    parser.add_argument("--base-url", help="override base_url (no web server is started)")
    for name in ("accessibility", "performance", "best-practices", "seo"):
        parser.add_argument(f"--min-{name}", type=score, metavar="SCORE")
    parser.add_argument(
        "--from-report",
        type=Path,
        metavar="JSON",
        help="grade this Lighthouse report instead of running Lighthouse",
    )
    add_root_argument(parser)
    parser.set_defaults(func=run_lighthouse_command)


def run_lighthouse_command(args: argparse.Namespace) -> int:
    from argus.cli._view import served_view
    from argus.config import load_config
    from argus.io import read_json
    from argus.lighthouse.run import run_lighthouse
    from argus.lighthouse.score import grade, next_action, overall_of_all
    from argus.sense.browser import discover_browser

    root = repo_root(args)
    config = load_config(root)
    settings = config.gates.lighthouse
    minimums = settings.minimums()
    for name in minimums:
        flag = getattr(args, f"min_{name.replace('-', '_')}")
        if flag is not None:
            minimums[name] = flag
    if args.from_report is not None:
        report, written = read_json(args.from_report, what="Lighthouse report"), args.from_report
    else:
        browser = discover_browser(config)
        with served_view(root, args) as view:
            written = view.out_dir / "lighthouse.json"
            report = run_lighthouse(
                view.url, browser=browser, out=written, timeout_s=settings.timeout
            )
    grades = grade(report, minimums)
    status = overall_of_all(grades)
    print(
        json.dumps(
            {
                "status": status,
                "report": str(written),
                "categories": [g.to_json() for g in grades],
                "next_action": next_action(grades),
            },
            indent=2,
        )
    )
    return 0 if status == "pass" else 1
