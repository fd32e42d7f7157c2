"""`argus gates`: run every configured gate on one view (or every view, --all) and write
gate-result.json per view."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from argus.cli._args import add_root_argument, add_view_arguments, feature_spec, repo_root
from argus.cli._reporters import add_reporter_argument, check_reporters, emit, gate_cases
from argus.cli._shard import add_shard_arguments, selected_views, write_shard_results
from argus.config import ProjectConfig, load_config, running_in_ci
from argus.diff import UPDATE_MODES
from argus.errors import InputError, SensorError
from argus.gates.base import GateOutcome
from argus.gates.inputs import RUNS_DIR, check_sensed_view, gate_inputs, view_dir
from argus.gates.runner import RESULT_FILE, GateRun, run_gates
from argus.sense.controls_choice import GATES  # gates only: no dead-control probe
from argus.sense.views import check_view
from argus.shard.results import ViewEntry
from argus.spec import Spec, View

FINDINGS_SHOWN = 2


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "gates",
        help="run the deterministic gates on one view",
        description="Run every configured gate on one view (target, state, appearance) and "
        "write gate-result.json, or every view of the feature in one process (--all, "
        "optionally one --shard of them). The sensed files come from --sensed DIR, from a "
        "fresh render (--sense), or by default from the view's run directory. Exit 0 when "
        "every gate is green, 1 when one is red (fail, error or diff), 2 on bad input.",
    )
    add_view_arguments(
        parser,
        target_required=False,
        view_required=False,
        target_help="target id (with --all: only this target's views)",
    )
    parser.add_argument("--all", action="store_true", help="gate every view of the spec")
    add_shard_arguments(parser)
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--sense", action="store_true", help="render the view now, then gate it")
    source.add_argument(
        "--sensed",
        type=Path,
        metavar="DIR",
        help="a directory a sensor wrote (with --all: one SLUG/ directory per view under DIR)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="where gate-result.json (and --sense output) go (default: the view's run "
        "directory; with --all, one SLUG/ directory per view under DIR)",
    )
    parser.add_argument(
        "--update-snapshots",
        choices=UPDATE_MODES,
        help="what the snapshot gate does with the view's baseline, as in Playwright: missing "
        "writes it when absent, changed also overwrites one that differs, all overwrites it "
        "even when it matches, none never writes (default: [gates.snapshot] update, missing)",
    )
    parser.add_argument(
        "--ci",
        action="store_true",
        help="a CI run (also when the CI environment variable is set): unless "
        "--update-snapshots is given, no baseline is written, and a missing one fails",
    )
    add_root_argument(parser)
    parser.add_argument("--json", action="store_true", help="print gate-result.json")
    add_reporter_argument(parser)
    parser.set_defaults(func=run_gates_command)


def run_gates_command(args: argparse.Namespace) -> int:
    check_reporters(args)
    root = repo_root(args)
    config = load_config(root)
    if args.update_snapshots is not None:
        config = config.with_snapshot_update(args.update_snapshots)
    elif args.ci or running_in_ci():
        # As in Playwright on CI: a missing baseline fails instead of being written there.
        config = config.with_snapshot_update("none")
    spec = feature_spec(config.root, args.feature)
    if args.all or args.shard is not None:
        return _gate_all(args, config, spec)
    view = _one_view(spec, args)
    out = (args.out or view_dir(spec, view)).resolve()
    if args.sense or (args.sensed is None and never_sensed(out)):
        if not args.sense:
            print(f"argus: {view.slug}: {NOT_SENSED}", file=sys.stderr)
        sensed = _sense(config, spec, view, out)
    else:
        sensed = (args.sensed or out).resolve()
        if not sensed.is_dir():
            raise InputError(f"{sensed}: no sensed directory; pass --sense or --sensed DIR")
        check_sensed_view(sensed, view)
    run = _gate(config, spec, view, sensed, out)
    note = baseline_note(run)
    if args.json:
        print(json.dumps(run.result, indent=2))
        if note:
            print(f"argus: {view.slug}: {note}", file=sys.stderr)
    else:
        print(render_table(run))
        if note:
            print(note)
        print(f"wrote {out / RESULT_FILE}")
    emit(args, gate_cases(spec, {view: run}), "argus gates", config.root)
    return 0 if run.all_green else 1


def _one_view(spec: Spec, args: argparse.Namespace) -> View:
    missing = [f"--{name}" for name in ("target", "state", "appearance") if not getattr(args, name)]
    if missing:
        raise InputError(f"argus gates: give {', '.join(missing)} for one view, or --all")
    view = View(spec.feature, args.target, args.state, args.appearance)
    check_view(spec, view)
    return view


def _gate(config: ProjectConfig, spec: Spec, view: View, sensed: Path, out: Path) -> GateRun:
    inputs = gate_inputs(spec, view, sensed, config=config, run_dir=out)
    run = run_gates(inputs)
    run.write(out / RESULT_FILE)
    return run


def _gate_all(args: argparse.Namespace, config: ProjectConfig, spec: Spec) -> int:
    """Every view (of one target, of one shard) in this process: one browser when sensing,
    one config and token load, one gate-result.json per view and one line each."""
    if args.state or args.appearance:
        raise InputError("argus gates: --all takes no --state/--appearance (use --target)")
    views = selected_views(spec, args)
    out_root = (args.out or spec.spec_dir / RUNS_DIR).resolve()
    sensed_root = out_root if args.sensed is None else args.sensed.resolve()
    durations: dict[str, float] = {}  # ms per view: its sensing (when asked) and gating
    to_sense = views if args.sense else []
    if args.sensed is None and not args.sense:
        to_sense = [v for v in views if never_sensed(out_root / v.slug)]
        for view in to_sense:
            print(f"argus: {view.slug}: {NOT_SENSED}", file=sys.stderr)
    if to_sense:
        from argus.sense.sensor import Sensor  # starts a browser: only when needed

        with Sensor(config, controls=GATES) as sensor:
            results = sensor.sense_many(spec, to_sense, out_root)
        failed = [r for r in results if not r.ok]
        if failed:
            raise SensorError(f"sensing {failed[0].view.slug} failed: {failed[0].error}")
        durations = {r.view.slug: float(r.timings_ms.get("total", 0.0)) for r in results}
    entries: dict[str, ViewEntry] = {}
    runs: dict[View, GateRun] = {}
    notes: dict[str, str] = {}
    for view in views:
        sensed = sensed_root / view.slug
        if not sensed.is_dir():
            raise InputError(f"{sensed}: no sensed directory for {view.slug}; pass --sense")
        check_sensed_view(sensed, view)
        started = time.perf_counter()
        run = runs[view] = _gate(config, spec, view, sensed, out_root / view.slug)
        gating = (time.perf_counter() - started) * 1000
        note = baseline_note(run)
        if note:
            notes[view.slug] = note
        entries[view.slug] = ViewEntry(
            view=view,
            status="green" if run.all_green else "red",
            duration_ms=durations.get(view.slug, 0.0) + gating,
            red_gates=run.red_gates,
            gate_result=run.result,
        )
    if args.json:
        print(json.dumps({slug: e.gate_result for slug, e in entries.items()}, indent=2))
        for slug, note in notes.items():
            print(f"argus: {slug}: {note}", file=sys.stderr)
    else:
        for slug, entry in entries.items():
            if entry.status == "green":
                verdict = "all green"
            elif entry.red_gates:
                verdict = f"red: {', '.join(entry.red_gates)}"
            else:
                verdict = "not green: every gate skipped, so nothing was measured"
            print(f"{slug}  {verdict}" + (f"; {notes[slug]}" if slug in notes else ""))
        print(f"gated {len(entries)} views into {out_root}")
    if notes:
        print(
            f"argus: {len(notes)} baseline(s) written or replaced from these renders: look at "
            "each before committing it (argus ui, or argus report); --ci or CI=1 writes none",
            file=sys.stderr,
        )
    write_shard_results(args, config.root, "gates", spec, views, entries)
    emit(args, gate_cases(spec, runs), "argus gates", config.root)
    return 0 if all(e.status == "green" for e in entries.values()) else 1


NOT_SENSED = (
    "nothing sensed in its run directory yet (a loop keeps its renders per iteration); "
    "sensing it now"
)


def never_sensed(directory: Path) -> bool:
    """No sense ever finished here: no meta.json (a fresh checkout, or a directory only a loop
    has used). Files a sense did leave are checked as evidence instead (check_sensed_view)."""
    return not (directory / "meta.json").is_file()


def _sense(config: ProjectConfig, spec: Spec, view: View, out: Path) -> Path:
    from argus.sense.sensor import sense_view  # starts a browser: only when asked to

    result = sense_view(spec, view, config, out, controls=GATES)
    if not result.ok:
        raise SensorError(f"sensing failed: {result.error}")
    return out


def baseline_note(run: GateRun) -> str | None:
    """What this run did to the view's snapshot baseline, when it wrote one: a baseline is
    what every later run is held to, so it is never written without a word."""
    try:
        snapshot = run.outcome("snapshot")
    except KeyError:
        return None
    action, path = snapshot.data.get("action"), snapshot.data.get("baseline")
    if action == "written":
        return f"NEW baseline written at {path}"
    if action == "updated":
        return f"baseline updated at {path}"
    return None


def render_table(run: GateRun) -> str:
    rows = [("gate", "status", "summary")]
    notes: list[str] = []
    for outcome in run.outcomes:
        status = outcome.status.value
        rows.append((outcome.name, status.upper() if status != "pass" else status, outcome.summary))
        notes.extend(_finding_lines(outcome))
    widths = [max(len(r[i]) for r in rows) for i in range(2)]
    lines = [f"{r[0]:<{widths[0]}}  {r[1]:<{widths[1]}}  {r[2]}" for r in rows]
    if run.all_green:
        verdict = "all green"
    elif run.red_gates:
        verdict = f"red: {', '.join(run.red_gates)}"
    else:
        verdict = "not green: every gate skipped, so nothing was measured"
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
