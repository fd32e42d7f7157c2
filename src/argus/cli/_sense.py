"""`argus sense`: render views and write what the sensor saw (render, probe, console, axe, meta)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from argus.cli._args import add_root_argument, add_view_arguments, feature_spec, repo_root
from argus.cli._shard import add_shard_arguments, selected_views, write_shard_results
from argus.cli._types import count
from argus.config import load_config
from argus.errors import InputError, SensorError
from argus.shard.results import ViewEntry
from argus.spec import Spec, View

RUNS_DIR = ".argus-runs"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "sense",
        help="render views in a browser (or an adapter) and probe them",
        description="Render one view (--target --state --appearance) or every view (--all) "
        "against its fixture and write render.png, probe.json, console.json, axe.json and "
        "meta.json. Exit 0 when every view was sensed, 2 when one could not be.",
    )
    add_view_arguments(
        parser,
        target_required=False,
        view_required=False,
        target_help="target id (with --all: only this target's views)",
    )
    parser.add_argument("--all", action="store_true", help="sense every view of the spec")
    add_shard_arguments(parser)
    parser.add_argument(
        "--out", type=Path, metavar="DIR", help="output directory for one view "
        "(default: argus/specs/FEATURE/.argus-runs/SLUG)"
    )  # fmt: skip
    parser.add_argument(
        "--out-root", type=Path, metavar="DIR", help="with --all: one SLUG/ directory per view "
        "under DIR (default: argus/specs/FEATURE/.argus-runs)"
    )  # fmt: skip
    parser.add_argument(
        "--snapshot-only", action="store_true", help="collect less, faster: render.png, "
        "console.json and meta.json only (meta.json: probed false, evidence snapshot-only); no "
        "probe, axe, focus walk or dead-control probe, so only the snapshot and console gates "
        "have their evidence and the judge refuses the view"
    )  # fmt: skip
    parser.add_argument("--workers", type=count, help="views sensed at once (default: config)")
    parser.add_argument("--base-url", help="override base_url (no web server is started)")
    add_root_argument(parser)
    parser.set_defaults(func=run_sense)


def _one_view(spec: Spec, args: argparse.Namespace) -> View:
    missing = [f"--{name}" for name in ("target", "state", "appearance") if not getattr(args, name)]
    if missing:
        raise InputError(f"argus sense: give {', '.join(missing)} for one view, or --all")
    return View(spec.feature, args.target, args.state, args.appearance)


def run_sense(args: argparse.Namespace) -> int:
    from argus.sense.controls_choice import SENSE_CLI
    from argus.sense.progress import describe, progress
    from argus.sense.sensor import Sensor

    root = repo_root(args)
    config = load_config(root)
    spec = feature_spec(config.root, args.feature)
    if args.all or args.shard is not None:
        views = selected_views(spec, args)
        out_root = (args.out_root or spec.spec_dir / RUNS_DIR).resolve()
        with Sensor(config, workers=args.workers, controls=SENSE_CLI) as sensor:
            for view in views:
                sensor.plan(spec, view, args.base_url)  # bad input fails before any browser
            if args.base_url is None and spec.adapter == "web":
                # A server that cannot start, or that is not the app, is one line for the
                # run, not the same failure once per view.
                sensor.start_server(spec)
            with progress(len(views)) as on_done:
                results = sensor.sense_many(
                    spec,
                    views,
                    out_root,
                    base_url=args.base_url,
                    on_done=on_done,
                    capture_only=args.snapshot_only,
                )
        failed = [r for r in results if not r.ok]
        unsettled = [r for r in results if r.ok and r.settled is False]
        print(f"sensed {len(results) - len(failed)} of {len(results)} views into {out_root}")
        entries = {
            r.view.slug: ViewEntry(
                view=r.view,
                status="sensed" if r.ok else "failed",
                duration_ms=float(r.timings_ms.get("total", 0.0)),
                error=None if r.ok else str(r.error),
                detail={"settled": r.settled, "attempts": r.attempts},
            )
            for r in results
        }
        write_shard_results(args, config.root, "sense", spec, views, entries)
        for result in unsettled:
            print(f"argus: {describe(result)}", file=sys.stderr)
        if failed:
            errors = {str(r.error) for r in failed}
            if len(failed) == 1:
                more = ""
            elif len(errors) == 1:
                more = f" (all {len(failed)} failed views)"
            else:
                more = f" (and {len(failed) - 1} more failed views)"
            raise SensorError(f"{failed[0].error}{more}")
        return 0
    view = _one_view(spec, args)
    out = (args.out or spec.spec_dir / RUNS_DIR / view.slug).resolve()
    with Sensor(config, controls=SENSE_CLI) as sensor:
        sensor.plan(spec, view, args.base_url)
        result = sensor.sense(
            spec, view, out, base_url=args.base_url, capture_only=args.snapshot_only
        )
    if not result.ok:
        raise SensorError(str(result.error))
    if result.settled is False:
        print(
            f"argus: {view.slug} never settled: {result.attempts} screenshots all differed; "
            "render.png is the last one (meta.json: settled=false)",
            file=sys.stderr,
        )
    print(f"sensed {view.slug} into {out}")
    return 0
