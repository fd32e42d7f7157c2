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
from argus.shard.results import RESULTS_DIR, RESULTS_SCHEMA, parse_results


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "merge",
        help="merge the results files of a sharded run into one report and exit code",
        description="Combine the results files that `argus sense|gates|loop --shard I/N` wrote "
        "on each machine into one results file, one durations.json (for balancing the next "
        "split with --durations) and one HTML report. Every shard of the run must be given, "
        "and every view of the plan must appear exactly once. Exit as the unsharded command "
        "would: gates 0 all green / 1 red; sense 0 / 2; loop the loop's status code; 2 when "
        "the shards do not fit together.",
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
    files = [parse_results(read_json(p, what="results file"), p) for p in args.results]
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
