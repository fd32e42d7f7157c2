"""`argus ids`: the accessibility-id gate for one target against a sensed probe."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from argus.errors import InputError
from argus.evidence.a11y_ids import IdReport, check_ids, harvest_ids
from argus.io import read_bytes, read_json
from argus.spec import load_spec


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "ids",
        help="check a probe against a target's a11y id contract",
        description="Harvest element ids from a probe (probe.json of any shape, or Playwright "
        "ARIA snapshot text) and check the target's a11y_contract; an entry ending in '*' "
        "needs at least one id with that prefix. Exit 0 when none is missing, 1 when one is, "
        "2 on bad input or an unknown target.",
    )
    parser.add_argument("--spec", type=Path, required=True, help="the feature's spec.json")
    parser.add_argument("--target", required=True, help="target id in the spec")
    parser.add_argument(
        "--probe",
        type=Path,
        required=True,
        help="probe.json, or an ARIA snapshot text file (.yml, .yaml, .txt)",
    )
    parser.add_argument("--json", action="store_true", help="print a JSON report")
    parser.set_defaults(func=run_ids)


def run_ids(args: argparse.Namespace) -> int:
    target = load_spec(args.spec).target(args.target)
    report = check_ids(target.a11y_contract, harvest_ids(read_probe(args.probe)))
    if args.json:
        print(json.dumps({"target": args.target, **report.as_json()}, indent=2))
    else:
        print(render_text(args.target, report))
    return 0 if report.passed else 1


def read_probe(path: Path) -> Any:
    """Parsed JSON for ``.json`` files; text (an ARIA snapshot) for anything else."""
    if path.suffix.lower() == ".json":
        return read_json(path, what="probe")
    try:
        return read_bytes(path, what="probe").decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: probe is not UTF-8 text") from exc


def render_text(target: str, report: IdReport) -> str:
    if not report.expected:
        return f"a11y ids: target '{target}' has an empty a11y_contract; nothing to check"
    lines = [f"a11y ids: {len(report.present)}/{len(report.expected)} present for '{target}'"]
    lines.extend(f"  missing  {entry}" for entry in report.missing)
    lines.append(f"a11y ids: {'PASS' if report.passed else 'FAIL'}")
    return "\n".join(lines)
