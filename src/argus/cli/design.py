"""`argus design diff|extract`: design systems compared, and extracted from a rendered page."""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

from argus.errors import InputError


def _ratio(text: str) -> float:
    try:
        value = float(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from exc
    if not math.isfinite(value) or not 0 <= value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be a fraction in [0, 1)")
    return value


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "design",
        help="design systems: extract one from a rendered page, compare two",
        description="Design-schema files (docs/design.md).",
    )
    actions = parser.add_subparsers(dest="design_action", metavar="ACTION", required=True)
    diff = actions.add_parser(
        "diff",
        help="what CANDIDATE lacks of REFERENCE's design system",
        description="Asymmetric per-dimension diff (spacing base unit, type ratio, elevation "
        "levels, breakpoints, components): prints {status, deltas}. Exit 0 pass, 1 the "
        "candidate lacks something, 2 unreadable, partial or unrecognised files.",
    )
    diff.add_argument("candidate", type=Path, metavar="CANDIDATE")
    diff.add_argument("reference", type=Path, metavar="REFERENCE")
    diff.add_argument(
        "--tolerance", type=_ratio, default=0.05, help="type ratio tolerance (relative, 0.05)"
    )
    diff.set_defaults(func=run_diff)


def run_diff(args: argparse.Namespace) -> int:
    from argus.design.diff import diff_documents
    from argus.io import read_json

    candidate = read_json(args.candidate, what="candidate design schema")
    reference = read_json(args.reference, what="reference design schema")
    result = diff_documents(candidate, reference, args.tolerance)
    if result.status == "not_captured":
        raise InputError(f"{args.candidate} vs {args.reference}: {result.reason}")
    print(json.dumps(result.to_json(), indent=2))
    return 0 if result.status == "pass" else 1
