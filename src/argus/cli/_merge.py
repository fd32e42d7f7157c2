"""`argus merge RESULTS...`: one report and one exit code from the shards of a run."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from argus.errors import InputError
from argus.io import atomic_write_json, atomic_write_text, read_json
from argus.shard.merge import Merged, merge_results
from argus.shard.merge_report import render_merged_page
from argus.shard.pytest_reports import (
    PytestReport,
    is_pytest_report,
    merge_pytest_reports,
    parse_pytest_report,
)
from argus.shard.results import RESULTS_DIR, RESULTS_SCHEMA, parse_results


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "merge",
        help="merge the results files of a sharded run into one report and exit code",
        description="Combine the results files that `argus sense|gates|loop --shard I/N` wrote "
        "on each machine into one results file, one durations.json (for balancing the next "
        "split with --durations) and one HTML report; or the JSON reports that `pytest "
        "--argus-shard I/N --argus-report FILE.json` wrote into one report.json and "
        "report.html. Every shard of the run must be given, and every view of the plan must "
        "appear exactly once. Exit as the unsharded command would: gates 0 all green / 1 red; "
        "sense 0 / 2; loop the loop's status code; pytest reports 0 every assertion passed / "
        "1 one failed; 2 when the shards do not fit together.",
    )
    parser.add_argument("results", nargs="+", type=Path, metavar="RESULTS.json")
    parser.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="where results.json, durations.json and report.html go "
        "(default: .argus/results/merged-COMMAND-FEATURE)",
    )
    parser.add_argument("--json", action="store_true", help="print the merged results")
    parser.set_defaults(func=run_merge)


def run_merge(args: argparse.Namespace) -> int:
    raws = [(p, read_json(p, what="results file")) for p in args.results]
    plugin = [is_pytest_report(raw) for _, raw in raws]
    if any(plugin):
        if not all(plugin):
            where = next(p for (p, _), kind in zip(raws, plugin, strict=True) if not kind)
            raise InputError(f"{where}: a results file cannot be merged with pytest reports")
        return _merge_pytest(args, [parse_pytest_report(raw, p) for p, raw in raws])
    files = [parse_results(raw, p) for p, raw in raws]
    merged = merge_results(files)
    out: Path = args.out or Path.cwd() / RESULTS_DIR / f"merged-{merged.command}-{merged.feature}"
    if out.exists() and not out.is_dir():
        raise InputError(f"{out}: --out must be a directory")
    payload = _payload(merged)
    atomic_write_json(out / "results.json", payload)
    atomic_write_json(out / "durations.json", {"durations_ms": merged.durations_ms})
    atomic_write_text(out / "report.html", render_merged_page(merged))
    if args.json:
        print(json.dumps(payload, indent=2))
    else:
        for entry in merged.views:
            extra = f"  ({', '.join(entry.red_gates)})" if entry.red_gates else ""
            print(f"{entry.view.slug}  {entry.status}{extra}")
        for slug in merged.corrected:
            print(f"argus: {slug}: status re-derived from its gate result")
        print(
            f"merged {len(merged.views)} views from {merged.shards} shard(s) into {out} "
            f"(exit {merged.exit_code})"
        )
    return merged.exit_code


def _merge_pytest(args: argparse.Namespace, reports: list[PytestReport]) -> int:
    """The reports of a pytest run split with ``--argus-shard``: one report, one exit code."""
    from argus.testing.report import write_report

    merged = merge_pytest_reports(reports)
    out: Path = args.out or Path.cwd() / RESULTS_DIR / "merged-pytest"
    if out.exists() and not out.is_dir():
        raise InputError(f"{out}: --out must be a directory")
    assertions = list(merged.assertions)
    tests = merged.tests or {}
    for name in ("report.json", "report.html"):
        write_report(out / name, assertions, None, merged.collected, tests)
    if args.json:
        print((out / "report.json").read_text(encoding="utf-8"))
    else:
        for item in assertions:
            print(f"{item['test']}  {item['name']}  {'ok' if item['ok'] else item['status']}")
        failing = merged.failing_tests
        for test, outcome in failing.items():
            print(f"{test}  {outcome}")
        for name in merged.corrected:
            print(f"argus: {name}: passed or failed re-derived from its status and gates")
        also = f", {len(failing)} test(s) failed or did not run" if failing else ""
        print(
            f"merged {len(assertions)} assertion(s) from {merged.shards} shard(s) into {out}: "
            f"{merged.failed} failed{also} (exit {merged.exit_code})"
        )
    return merged.exit_code


def _payload(merged: Merged) -> dict[str, Any]:
    return {
        "schema": RESULTS_SCHEMA,
        "command": merged.command,
        "feature": merged.feature,
        "target": merged.target,
        "shard": None,
        "merged_from": merged.shards,
        "exit_code": merged.exit_code,
        "planned": list(merged.durations_ms),
        "views": [entry.to_json() for entry in merged.views],
    }
