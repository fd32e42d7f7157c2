"""`argus runs`: recent runs and their events from the run store (.argus/argus.db).

Reviews (``argus review``) are advice filed outside any loop run: they are listed after the
runs (the latest ``--limit``), and ``--kind`` keeps only the runs, and the reviews, with events
of that kind.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

from argus.cli._args import add_root_argument, repo_root
from argus.cli._types import count
from argus.errors import InputError
from argus.loop.records.layout import RunLayout
from argus.spec.paths import find_specs
from argus.store import EVENT_KINDS, BrokenLink, Disagreement, Event, Run, RunStore, db_path

LOOSE_KINDS = ("acceptance_fidelity_review", "review_outcome")  # filed outside any run


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "runs",
        help="list recent runs and their events",
        description="Read the run store (.argus/argus.db, and each feature's report-only "
        "store): recent runs with their event counts, "
        "or every event of one run with --run; --verify checks the events' hash chain. "
        "Exit 0, 1 when --verify finds a broken link, 2 when the store is unreadable.",
    )
    parser.add_argument("--feature", help="only runs of this feature")
    parser.add_argument("--run", metavar="RUN_ID", help="show every event of this run")
    parser.add_argument("--kind", choices=EVENT_KINDS, help="only events of this kind")
    parser.add_argument("--limit", type=count, default=10, help="runs to list (default 10)")
    parser.add_argument(
        "--verify",
        action="store_true",
        help="walk each store's hash-chained events and name the first broken link (exit 1)",
    )
    add_root_argument(parser)
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(func=run_runs)


def run_stores(root: Path) -> list[Path]:
    """Every run store under ``root`` that exists: the repository's, then each feature's
    report-only store (report-only writes nothing outside the feature's run directory)."""
    stores = [root] if db_path(root).is_file() else []
    for spec in find_specs(root):
        report_only = RunLayout(spec.parent, report_only=True).runs_dir
        if db_path(report_only).is_file():
            stores.append(report_only)
    return stores


def run_runs(args: argparse.Namespace) -> int:
    root = repo_root(args)
    stores = run_stores(root)  # reading must not create a store
    if not stores:
        print(
            json.dumps({"runs": [], "reviews": []})
            if args.json
            else f"no runs recorded yet in {root}"
        )
        return 0
    if args.verify:
        return verify_stores(stores, args.json, root)
    runs: list[Run] = []
    events: dict[str, list[Event]] = {}
    loose: list[Event] = []
    for where in stores:
        with RunStore.open(where) as store:
            found = store.runs(feature=args.feature, limit=None if args.run else args.limit)
            if args.run is not None:
                found = [run for run in found if run.run_id == args.run]
            for run in found:
                runs.append(run)
                events[run.run_id] = store.events(run_id=run.run_id, kind=args.kind)
            if args.run is None:
                for kind in [args.kind] if args.kind else LOOSE_KINDS:
                    loose += [
                        e for e in store.events(kind=kind, feature=args.feature) if not e.run_id
                    ]
    loose = sorted(loose, key=lambda e: e.created_at or "")[-args.limit :]
    if args.kind is not None and args.run is None:
        runs = [run for run in runs if events[run.run_id]]
    if args.run is not None and not runs:
        raise InputError(f"{db_path(root)}: no run {args.run!r}; 'argus runs' lists them")
    # Most recent first across the stores (ISO timestamps sort as text).
    runs = sorted(runs, key=lambda run: run.started_at, reverse=True)[: args.limit]
    if args.json:
        payload = [
            {**run.to_json(), "events": [e.to_json() for e in events[run.run_id]]} for run in runs
        ]
        print(json.dumps({"runs": payload, "reviews": [e.to_json() for e in loose]}, indent=2))
    elif args.run is not None:
        print(render_events(runs[0], events[runs[0].run_id]))
    else:
        print(render_runs(runs, events, loose))
    return 0


def verify_stores(stores: list[Path], as_json: bool = False, root: Path | None = None) -> int:
    """One line a store (or one JSON document): how many events its chain holds, or the first
    link that is broken; then each contract run whose state.json is not its ledger's view.
    Exit 1 when any is."""
    from argus.contract.history import check_runs, contract_ids

    found = []
    for where in stores:
        with RunStore.open(where) as store:
            count, bad = store.verify()
            # The runs table is compared with the chain only once the chain holds.
            off = store.verify_runs() if bad is None else None
        found.append((db_path(where), count, bad, off))
    # Contract runs keep their ledger in the repository's store (argus.contract._ledger): once
    # its chain holds, each run's state.json must be what its records fold to.
    home = [bad for path, _, bad, _ in found if root is not None and path == db_path(root)]
    contracts = (
        [run for i in contract_ids(root) for run in check_runs(root, i)]
        if root is not None and home == [None]
        else []
    )
    wrong = [run for run in contracts if run.problem is not None]
    if as_json:
        listed = [
            {
                "store": str(path),
                "events": count,
                "broken": None if bad is None else {"event": bad.seq, "why": bad.why},
                "runs_disagree": None if off is None else {"run": off.run_id, "why": off.why},
            }
            for path, count, bad, off in found
        ]
        runs = [run.to_json() for run in contracts]
        print(json.dumps({"stores": listed, "contract_runs": runs}, indent=2))
        return 1 if wrong else _verify_exit(found)
    for path, count, bad, off in found:
        if bad is not None:
            print(
                f"{path}: hash chain broken at event {bad.seq}: {bad.why}; the store was "
                "changed outside Argus (keep it aside as evidence)"
            )
        elif off is not None:
            print(
                f"{path}: {count} event(s), hash chain intact, but the runs table disagrees "
                f"with it at {off}; the table was changed outside Argus (keep it aside as "
                "evidence)"
            )
        else:
            print(f"{path}: {count} event(s), hash chain intact, runs table agrees")
    for run in wrong:
        print(f"contract {run.contract_id}, run {run.run_id}: {run.problem}")
    if contracts and not wrong:
        print(f"{len(contracts)} contract run(s): each state.json is its ledger's view")
    return 1 if wrong else _verify_exit(found)


def _verify_exit(found: list[tuple[Path, int, BrokenLink | None, Disagreement | None]]) -> int:
    return 1 if any(bad is not None or off is not None for _, _, bad, off in found) else 0


def render_runs(runs: list[Run], events: dict[str, list[Event]], loose: list[Event]) -> str:
    if not runs and not loose:
        return "no runs match"
    table = _run_table(runs, events) if runs else ""
    if not loose:
        return table
    lines = ["reviews (advice, outside any run):"]
    for event in loose:
        p = event.payload
        if event.kind == "review_outcome":
            what = f"outcome of review {p.get('review')}: {p.get('outcome')}"
        else:
            what = f"{p.get('verdict') or 'no verdict'}, confidence {p.get('confidence')}, "
            what += f"flag {p.get('flag')}"
        lines.append(f"  #{event.id}  {event.created_at}  {event.feature}  {what}")
    return "\n".join(filter(None, [table, "\n".join(lines)]))


def _run_table(runs: list[Run], events: dict[str, list[Event]]) -> str:
    rows = [("run", "feature", "mode", "started", "status", "events")]
    for run in runs:
        counts = Counter(event.kind for event in events[run.run_id])
        summary = ", ".join(f"{kind} {counts[kind]}" for kind in EVENT_KINDS if counts[kind])
        rows.append(
            (
                run.run_id,
                run.feature,
                run.mode,
                run.started_at,
                run.shown_status,
                summary or "-",
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(row[:-1], widths, strict=True))
        + "  "
        + row[-1]
        for row in rows
    )


def render_events(run: Run, events: list[Event]) -> str:
    lines = [
        f"run {run.run_id}: {run.feature}, {run.mode}, started {run.started_at}, "
        f"{run.status or 'running'}"
    ]
    for event in events:
        view = "/".join(p for p in (event.target, event.state, event.appearance) if p)
        iteration = f" #{event.iteration}" if event.iteration is not None else ""
        payload = json.dumps(dict(event.payload), sort_keys=True)
        if len(payload) > 100:
            payload = payload[:99] + "…"
        lines.append(f"  {event.created_at}  {event.kind:<14} {view}{iteration}  {payload}")
    return "\n".join(lines)
