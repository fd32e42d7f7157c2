"""`argus contrast`: the declared-pair WCAG contrast gate over a feature's tokens."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from argus.errors import InputError
from argus.spec import load_spec
from argus.tokens import load_tokens
from argus.tokens.contrast import ContrastReport, check_pairs, format_ratio


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "contrast",
        help="check WCAG contrast of the declared token pairs",
        description="Measure the WCAG 2.x contrast ratio of every fg/bg pair in "
        "contrast-pairs.json, in every appearance, unrounded. Exit 0 when every pair meets its "
        "minimum (or is whitelisted), 1 when one does not, 2 on bad input.",
    )
    parser.add_argument("--spec", type=Path, help="spec.json naming the tokens and pairs files")
    parser.add_argument("--tokens", type=Path, help="tokens file (instead of --spec)")
    parser.add_argument("--pairs", type=Path, help="contrast-pairs.json (instead of --spec)")
    parser.add_argument(
        "--appearance",
        action="append",
        metavar="NAME",
        help="check only this appearance (repeatable; default: every appearance in the tokens)",
    )
    parser.add_argument("--json", action="store_true", help="print a JSON report")
    parser.set_defaults(func=run_contrast)


def run_contrast(args: argparse.Namespace) -> int:
    tokens_path, pairs_path = _inputs(args)
    report = check_pairs(
        load_tokens(tokens_path),
        pairs_path,
        appearances=tuple(args.appearance) if args.appearance else None,
    )
    if args.json:
        print(json.dumps(report.as_json(), indent=2))
    else:
        print(render_table(report))
    return 0 if report.passed else 1


def _inputs(args: argparse.Namespace) -> tuple[Path, Path]:
    if args.spec is not None:
        if args.tokens is not None or args.pairs is not None:
            raise InputError("give either --spec or --tokens with --pairs, not both")
        spec = load_spec(args.spec)
        if spec.contrast_pairs_path is None:
            raise InputError(
                f"{args.spec}: design_system.contrast_pairs is not set; "
                "add it or pass --tokens and --pairs"
            )
        return spec.tokens_path, spec.contrast_pairs_path
    if args.tokens is None or args.pairs is None:
        raise InputError("argus contrast needs --spec SPEC, or --tokens TOKENS and --pairs PAIRS")
    return args.tokens, args.pairs


def render_table(report: ContrastReport) -> str:
    rows = [("status", "fg / bg", "appearance", "ratio", "min")]
    for row in report.rows:
        rows.append(
            (
                row.status.upper() if row.status == "fail" else row.status,
                f"{row.fg} / {row.bg}",
                "all" if row.appearance == "*" else row.appearance,
                format_ratio(row.ratio),
                f"{row.minimum:g}",
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = [
        "  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip() for r in rows
    ]
    failing = len(report.failures)
    verdict = "PASS" if report.passed else "FAIL"
    lines.append(f"contrast: {verdict} ({failing} of {len(report.rows)} failing)")
    return "\n".join(lines)
