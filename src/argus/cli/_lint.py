"""`argus lint [SPEC...] [--json]`: check feature specs and list the references still needed."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from argus.errors import InputError
from argus.spec.paths import SPECS_DIR, find_repo_root, find_specs

if TYPE_CHECKING:
    from argus.spec.lint import LintReport


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "lint",
        help="validate spec.json files and list missing references",
        description="Validate feature specs: the schema, then consistency, paths and the files "
        "they name; then warn about what a valid spec will not do (WCAG gates left out of an "
        "explicit gate list, views that cannot sign off under the metric judge alone). Exit 0 "
        "valid (warnings or not), 1 invalid (or warned, with --strict), 2 unreadable. Without "
        "SPEC, lint every argus/specs/*/spec.json of the project.",
    )
    parser.add_argument(
        "specs", nargs="*", type=Path, metavar="SPEC", help="spec.json files or feature directories"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON report")
    parser.add_argument("--strict", action="store_true", help="exit 1 on warnings too (for CI)")
    parser.set_defaults(func=run)


def _spec_paths(given: list[Path]) -> list[Path]:
    if given:
        return [path / "spec.json" if path.is_dir() else path for path in given]
    root = find_repo_root(Path.cwd())
    found = find_specs(root)
    if not found:
        raise InputError(
            f"{root / SPECS_DIR}: no */spec.json found; create one with 'argus init FEATURE'"
        )
    return [_shown(path) for path in found]


def _shown(path: Path) -> Path:
    """``path`` relative to the working directory when it lies below it."""
    try:
        return path.relative_to(Path.cwd())
    except ValueError:
        return path


def _print_text(report: LintReport) -> None:
    if report.valid:
        print(f"{report.spec}: valid")
    else:
        count = len(report.errors)
        print(f"{report.spec}: INVALID ({count} error{'s' if count != 1 else ''})")
    for issue in report.errors:
        print(f"  error {issue}")
    for issue in report.warnings:
        print(f"  warning {issue}")
    for item in report.worklist:
        view = f"{item.target} {item.state}/{item.appearance}"
        label = "reference" if item.canonical else "extra reference"
        file = item.file or f"references/{item.slug}.png"
        if item.status == "needed":
            hint = f"put the image at {file} or let 'argus loop' render a candidate"
        elif item.status == "candidate":
            hint = "approve it with 'argus approve' or replace it"
        else:
            hint = file
        print(f"  {label} {view}: {item.status} ({hint})")


def run(args: argparse.Namespace) -> int:
    # The validator and the gates load only when a spec is linted.
    from argus.gates import wcag_gates
    from argus.spec.lint import lint_spec

    reports: list[LintReport] = []
    unreadable: list[tuple[Path, str]] = []
    for path in _spec_paths(args.specs):
        try:
            reports.append(lint_spec(path, wcag=wcag_gates()))
        except InputError as err:
            unreadable.append((path, str(err)))
    valid = not unreadable and all(report.valid for report in reports)
    warned = any(report.warnings for report in reports)
    if args.json:
        document = {
            "valid": valid,
            "warnings": sum(len(report.warnings) for report in reports),
            "specs": [report.to_json() for report in reports],
            "unreadable": [{"spec": str(path), "error": error} for path, error in unreadable],
        }
        print(json.dumps(document, indent=2))
    else:
        for report in reports:
            _print_text(report)
    # A file a spec names that cannot be read at all is bad input too (exit 2), while a
    # readable file with wrong contents (an unknown token) makes the spec invalid (exit 1).
    named = [issue.message for report in reports for issue in report.unreadable]
    for error in [e for _, e in unreadable] + named:
        print(f"argus: {error}", file=sys.stderr)
    if unreadable or named:
        return 2
    return 0 if valid and not (args.strict and warned) else 1
