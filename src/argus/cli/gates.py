"""`argus gates`: run every configured gate on one view and write gate-result.json."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from argus.cli._args import add_root_argument, add_view_arguments, feature_spec, repo_root
from argus.config import ProjectConfig, load_config
from argus.diff import UPDATE_MODES
from argus.errors import InputError, SensorError
from argus.gates.base import GateOutcome
from argus.gates.inputs import check_sensed_view, gate_inputs, view_dir
from argus.gates.runner import RESULT_FILE, GateRun, run_gates
from argus.sense.views import check_view
from argus.spec import Spec, View

FINDINGS_SHOWN = 2


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "gates",
        help="run the deterministic gates on one view",
        description="Run every configured gate on one view (target, state, appearance) and "
        "write gate-result.json. The sensed files come from --sensed DIR, from a fresh render "
        "(--sense), or by default from the view's run directory. Exit 0 when every gate is "
        "green, 1 when one is red (fail, error or diff), 2 on bad input.",
    )
    add_view_arguments(parser)
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--sense", action="store_true", help="render the view now, then gate it")
    source.add_argument("--sensed", type=Path, metavar="DIR", help="a directory a sensor wrote")
    parser.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="where gate-result.json (and --sense output) go (default: the view's run directory)",
    )
    parser.add_argument(
        "--update-snapshots",
        choices=UPDATE_MODES,
        help="what the snapshot gate does with the view's baseline, as in Playwright: missing "
        "writes it when absent, changed also overwrites one that differs, all overwrites it "
        "even when it matches, none never writes (default: [gates.snapshot] update, missing)",
    )
    add_root_argument(parser)
    parser.add_argument("--json", action="store_true", help="print gate-result.json")
    parser.set_defaults(func=run_gates_command)


def run_gates_command(args: argparse.Namespace) -> int:
    root = repo_root(args)
    config = load_config(root)
    if args.update_snapshots is not None:
        config = config.with_snapshot_update(args.update_snapshots)
    spec = feature_spec(config.root, args.feature)
    view = View(spec.feature, args.target, args.state, args.appearance)
    check_view(spec, view)
    out = (args.out or view_dir(spec, view)).resolve()
    if args.sense:
        sensed = _sense(config, spec, view, out)
    else:
        sensed = (args.sensed or out).resolve()
        if not sensed.is_dir():
            raise InputError(f"{sensed}: no sensed directory; pass --sense or --sensed DIR")
        check_sensed_view(sensed, view)
    inputs = gate_inputs(spec, view, sensed, config=config, run_dir=out)
    run = run_gates(inputs)
    run.write(out / RESULT_FILE)
    if args.json:
        print(json.dumps(run.result, indent=2))
    else:
        print(render_table(run))
        print(f"wrote {out / RESULT_FILE}")
    return 0 if run.all_green else 1


def _sense(config: ProjectConfig, spec: Spec, view: View, out: Path) -> Path:
    from argus.sense.sensor import sense_view  # starts a browser: only when asked to

    result = sense_view(spec, view, config, out)
    if not result.ok:
        raise SensorError(f"sensing failed: {result.error}")
    return out


def render_table(run: GateRun) -> str:
    rows = [("gate", "status", "summary")]
    notes: list[str] = []
    for outcome in run.outcomes:
        status = outcome.status.value
        rows.append((outcome.name, status.upper() if status != "pass" else status, outcome.summary))
        notes.extend(_finding_lines(outcome))
    widths = [max(len(r[i]) for r in rows) for i in range(2)]
    lines = [f"{r[0]:<{widths[0]}}  {r[1]:<{widths[1]}}  {r[2]}" for r in rows]
    verdict = "all green" if run.all_green else f"red: {', '.join(run.red_gates)}"
    return "\n".join([*lines, *notes, verdict])


def _finding_lines(outcome: GateOutcome) -> list[str]:
    lines = []
    for finding in outcome.findings[:FINDINGS_SHOWN]:
        expected = f" (expected {finding.expected})" if finding.expected else ""
        lines.append(
            f"  {outcome.name}: {finding.element} {finding.property}={finding.value}{expected}"
        )
    more = len(outcome.findings) - FINDINGS_SHOWN
    if more > 0:
        lines.append(f"  {outcome.name}: … {more} more in gate-result.json")
    return lines
