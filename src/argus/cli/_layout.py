"""`argus layout lint PATH`: the deterministic layout linter for report pages and box lists."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

from argus.cli._args import add_root_argument, repo_root
from argus.cli._types import amount, pixels
from argus.errors import InputError


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "layout",
        help="lint report page layouts (PBIR pages or plain box lists)",
        description="Deterministic checks over the coordinates of a page's visuals.",
    )
    actions = parser.add_subparsers(dest="layout_action", metavar="ACTION", required=True)
    lint = actions.add_parser(
        "lint",
        help="check a PBIR page, a one-file page, a directory of pages or a JSON list of boxes",
        description="Run the layout checks (overlap, canvas, gaps, alignment, and with PBIR: "
        "empty bindings, theme overrides, visualType/displayOption). Exit 0 clean, 1 an error "
        "finding (or a warning with --strict), 2 bad input or a path outside the repository, "
        "3 the visual-type reference could not be loaded (could not verify).",
    )
    lint.add_argument("path", type=Path, nargs="?", metavar="PATH")
    lint.add_argument("--format", choices=("text", "json"), default="text")
    lint.add_argument("--strict", action="store_true", help="warnings fail too (exit 1)")
    pbir = lint.add_mutually_exclusive_group()
    pbir.add_argument("--pbir", dest="pbir", action="store_true", default=None)
    pbir.add_argument("--no-pbir", dest="pbir", action="store_false")
    lint.add_argument(
        "--tolerance-gap",
        type=pixels,
        default=4.0,
        metavar="PX",
        help="how far a row's gaps may spread (default 4)",
    )
    lint.add_argument(
        "--tolerance-align",
        type=pixels,
        default=2.0,
        metavar="PX",
        help="how far edges meant to meet may miss: a column's left/right, a row's top/bottom "
        "(default 2)",
    )
    lint.add_argument("--max-overrides", type=amount, default=10, metavar="N")
    lint.add_argument(
        "--visual-types",
        type=Path,
        metavar="JSON",
        default=Path(os.environ["ARGUS_VISUAL_TYPES"])
        if os.environ.get("ARGUS_VISUAL_TYPES")
        else None,
        help="another visual-type reference (default: $ARGUS_VISUAL_TYPES, else Argus's own)",
    )
    lint.add_argument("--list-checks", action="store_true", help="list the checks and exit")
    lint.add_argument("--version", action="store_true", help="print the linter version")
    add_root_argument(lint)
    lint.set_defaults(func=run_lint)


def run_lint(args: argparse.Namespace) -> int:
    from argus import __version__
    from argus.layout.checks import CHECKS, Settings
    from argus.layout.lint import SCHEMA_VERSION, LintOptions, lint, render_text

    if args.version:
        print(f"argus layout lint {__version__} (envelope schema_version {SCHEMA_VERSION})")
        return 0
    if args.list_checks:
        rows = [
            {
                "id": c.id,
                "name": c.name,
                "severity": c.severity,
                "pbir": c.pbir,
                "checks": c.summary,
            }
            for c in CHECKS.values()
        ]
        if args.format == "json":
            print(json.dumps(rows, indent=2))
        else:
            for row in rows:
                scope = " (PBIR)" if row["pbir"] else ""
                print(f"{row['id']} {row['name']:18} {row['severity']:7} {row['checks']}{scope}")
        return 0
    if args.path is None:
        raise InputError("layout lint needs a PATH (a page.json, a page directory or boxes JSON)")
    if args.visual_types is not None and not args.visual_types.is_file():
        # Read only when a page has visuals: a wrong path must not pass a page without any.
        raise InputError(
            f"{args.visual_types}: no visual-type reference there (--visual-types or "
            "$ARGUS_VISUAL_TYPES); fix the path, or unset it to use Argus's own"
        )
    root = repo_root(args)
    path = args.path if args.path.is_absolute() else Path.cwd() / args.path
    settings = Settings(args.tolerance_gap, args.tolerance_align, args.max_overrides)
    options = LintOptions(args.pbir, args.strict, settings, args.visual_types)
    result = lint(path, root, options)
    if args.format == "json":
        print(json.dumps(result.to_json(), indent=2))
    else:
        print(render_text(result))
    return result.exit_code
