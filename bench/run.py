"""Run every benchmark area in one process and report the ratios side by side.

    python -m bench.run [--quick] [--only AREA[,AREA]] [--no-peers] [--no-browser] [--smoke]
                        [--out PATH] [--readme PATH] [--from-results]

Installs the npm peers (pixelmatch 7.2.0, pngjs, odiff-bin, @playwright/test) into
bench/.peers first, runs each area's ``run(quick)``, prints the comparisons with the targets
from the issues beside them, writes bench/results/latest.json and regenerates the table in
README.md between ``<!-- bench:start -->`` and ``<!-- bench:end -->``. Exit 0 when every
selected area ran (a missed target is a finding, not a failure), 1 when one crashed, 2 on
bad arguments. See docs/bench.md.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import os
import sys
import time
import traceback
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from argus.errors import ArgusError
from argus.io import atomic_write_json, atomic_write_text, read_json
from bench import summary
from bench.environment import machine, source, versions
from bench.peers import ALL_PEERS, PeerError, ensure_peers
from bench.tables import readme_table, replace_between_markers, terminal

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "latest.json"
README = HERE.parent / "README.md"


@dataclass(frozen=True)
class Area:
    name: str
    module: str
    peers: bool  # needs the npm peers
    browser: bool  # needs Chromium throughout (scaling only for its sense half)
    what: str


AREAS = (
    Area("diff", "bench.diff_bench", True, False, "diff kernel vs pixelmatch (Node) and odiff"),
    Area("view", "bench.view_bench", True, True, "one view vs Playwright Test toHaveScreenshot"),
    Area(
        "plugin",
        "bench.plugin_bench",
        True,
        True,
        "pytest plugin per assertion vs toHaveScreenshot and pytest-playwright-visual",
    ),
    Area("sense", "bench.sense_bench", False, True, "per-view sense, probe overhead, pools"),
    Area("gates", "bench.gates_bench", False, True, "all gates vs sensing time"),
    Area("loop", "bench.loop_bench", False, True, "loop overhead per iteration"),
    Area(
        "scaling",
        "bench.scaling_bench",
        False,
        False,
        "diff and sense time by size; views per minute by pages and --shard machines",
    ),
    Area("huge", "bench.huge_page_bench", False, True, "1k/5k/20k-row pages sensed and gated"),
    Area(
        "startup",
        "bench.startup_bench",
        True,
        False,
        "CPU time of `argus --version`, `hook stop` and `diff` as processes vs odiff",
    ),
)
AREA_NAMES = tuple(area.name for area in AREAS)


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.run", description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds and repeats")
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="AREA",
        help=f"run only these areas (repeat or comma-separate): {', '.join(AREA_NAMES)}",
    )
    parser.add_argument("--no-peers", action="store_true", help="no npm: skip areas needing peers")
    parser.add_argument(
        "--no-browser", action="store_true", help="skip what needs Chromium (scaling: diff only)"
    )
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="harness check: --quick --no-peers --no-browser, smallest cases once",
    )
    parser.add_argument("--out", type=Path, default=RESULTS, help=f"default: {RESULTS}")
    parser.add_argument(
        "--from-results",
        action="store_true",
        help="measure nothing: print and write the README table from the --out file",
    )
    parser.add_argument(
        "--readme", type=Path, default=README, help="README whose marked table is regenerated"
    )
    parser.add_argument(
        "--merge",
        action="store_true",
        help="keep the areas of the --out file this run does not measure (with --only)",
    )
    args = parser.parse_args(argv)
    only = [name.strip() for item in args.only for name in item.split(",") if name.strip()]
    unknown = sorted(set(only) - set(AREA_NAMES))
    if unknown:
        parser.error(f"unknown area {unknown[0]!r} (areas: {', '.join(AREA_NAMES)})")
    args.only = only
    if args.smoke:
        args.quick = args.no_peers = args.no_browser = True
    return args


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"


def _run_area(area: Area, args: argparse.Namespace, peer_error: str | None) -> dict[str, Any]:
    """Run one area; its entry in latest.json (status ok/skipped/missing/error)."""
    if area.peers and args.no_peers:
        return {"status": "skipped", "reason": "--no-peers"}
    if area.peers and peer_error:
        return {"status": "error", "reason": peer_error}
    if area.browser and args.no_browser:
        return {"status": "skipped", "reason": "--no-browser"}
    try:
        module = importlib.import_module(area.module)
    except ModuleNotFoundError as exc:
        if exc.name != area.module:
            raise
        return {
            "status": "missing",
            "reason": f"{area.module.replace('.', '/')}.py not written yet",
        }
    params = inspect.signature(module.run).parameters
    kwargs: dict[str, Any] = {"quick": args.quick}
    if "browser" in params:
        kwargs["browser"] = not args.no_browser
    if "smoke" in params:
        kwargs["smoke"] = args.smoke
    print(f"bench: {area.name}: {area.what} ...", file=sys.stderr, flush=True)
    started = time.perf_counter()
    try:
        report = module.run(**kwargs)
    except (Exception, SystemExit) as exc:  # one area failing must not lose the others
        traceback.print_exc(file=sys.stderr)
        return {"status": "error", "reason": _one_line(exc)}
    seconds = round(time.perf_counter() - started, 1)
    print(f"bench: {area.name}: done in {seconds} s", file=sys.stderr, flush=True)
    return {"status": "ok", "seconds": seconds, "report": report}


def _medians(name: str, report: dict[str, Any]) -> dict[str, Any]:
    """The medians an area reported, under the keys it used."""
    if name == "diff":
        return {row["pair"]: row["medians_ms"] for row in report["pairs"]}
    if name == "sense":
        return {"per_view": report["per_view_ms_median"], "probe": report["probe"]}
    if name == "scaling":
        return {part: report[part].get("sizes", {}) for part in ("diff", "sense")}
    if name == "huge":
        return {rows: size["total_s"] for rows, size in report["sizes"].items()}
    for key in ("medians_ms", "summary"):
        if key in report:
            return dict(report[key])
    return {}


def _load() -> float | None:
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None


def collect(args: argparse.Namespace) -> dict[str, Any]:
    selected = [area for area in AREAS if not args.only or area.name in args.only]
    peer_error = None
    if not args.no_peers and any(area.peers for area in selected):
        print("bench: installing npm peers into bench/.peers ...", file=sys.stderr, flush=True)
        try:
            ensure_peers(ALL_PEERS)
        except PeerError as exc:
            peer_error = str(exc)
            print(f"bench: {peer_error}", file=sys.stderr)
    # The machine is shared: the load around the run says how much to trust its ratios.
    load_before = _load()
    areas = {area.name: _run_area(area, args, peer_error) for area in selected}
    load_after = _load()
    reports = {name: entry["report"] for name, entry in areas.items() if entry["status"] == "ok"}
    rows: list[summary.Comparison] = []
    for name, report in reports.items():
        try:
            rows += summary.comparisons(name, report)
        except KeyError as exc:  # an area changed its report: say so, keep the rest
            areas[name]["reason"] = f"report lacks {exc} for the side-by-side table"
    return {
        "version": 1,
        "generated_at": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "command": "python -m bench.run " + " ".join(sys.argv[1:]),
        "quick": args.quick,
        "smoke": args.smoke,
        "source": source(),
        "machine": {**machine(), "load_1min_before": load_before, "load_1min_after": load_after},
        "versions": versions(browser=not args.no_browser),
        "comparisons": [row.to_json() for row in rows],
        "targets": [row.to_json() for row in rows if row.target is not None],
        "medians": {name: _medians(name, report) for name, report in reports.items()},
        "scaling": summary.scaling_table(reports.get("scaling"), reports.get("diff")),
        "throughput": summary.throughput_table(reports.get("scaling")),
        "areas": areas,
    }


def merge(older: dict[str, Any], newer: dict[str, Any]) -> dict[str, Any]:
    """``newer`` with the areas it did not measure taken from ``older`` (their rows, medians,
    tables), and ``kept`` saying which areas come from which run: each row's ratio is still
    from one run, but the machine's load is the newer run's only."""
    ran = set(newer["areas"])
    kept = [name for name in older.get("areas", {}) if name not in ran]
    if not kept:
        return newer

    def rows(key: str) -> list[dict[str, Any]]:
        old = [row for row in older.get(key, []) if row["area"] in kept]
        order = {name: i for i, name in enumerate(AREA_NAMES)}
        return sorted([*old, *newer[key]], key=lambda row: order.get(row["area"], len(order)))

    merged = {**newer, "comparisons": rows("comparisons"), "targets": rows("targets")}
    merged["medians"] = {
        **{k: v for k, v in older.get("medians", {}).items() if k in kept},
        **newer["medians"],
    }
    merged["areas"] = {**{k: older["areas"][k] for k in kept}, **newer["areas"]}
    for table, area in (("scaling", "scaling"), ("throughput", "scaling")):
        if area in kept:
            merged[table] = older.get(table, newer[table])
    merged["kept"] = _provenance(older, kept)
    return merged


def _provenance(older: dict[str, Any], kept: list[str]) -> list[dict[str, Any]]:
    """For the ``kept`` areas of ``older``, the run each was measured in: the one ``older``
    was, or, for an area it had kept itself, the run it said."""
    own: dict[str, Any] = {
        "areas": [],
        "from": older.get("generated_at"),
        "command": older.get("command"),
        "machine": older.get("machine"),
    }
    groups: list[dict[str, Any]] = []
    earlier = older.get("kept") or []
    earlier = [earlier] if isinstance(earlier, dict) else earlier
    for area in kept:
        group = next((g for g in earlier if area in g.get("areas", [])), None)
        target = (
            own
            if group is None
            else next((g for g in groups if g["from"] == group.get("from")), None)
        )
        if target is None:
            target = {**group, "areas": []} if group is not None else own
        if target not in groups:
            groups.append(target)
        target["areas"].append(area)
    return groups


def update_readme(path: Path, results: dict[str, Any]) -> bool:
    """Regenerate the marked table; False (and a note) when the markers are missing."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    updated = replace_between_markers(text, readme_table(results))
    if updated is None:
        print(
            f"bench: note: {path} has no <!-- bench:start --> / <!-- bench:end --> markers; "
            "the table was not written there",
            file=sys.stderr,
        )
        return False
    if updated != text:
        atomic_write_text(path, updated)
    return True


def main(argv: list[str] | None = None) -> int:
    args = _parse(argv)
    if args.from_results:
        try:
            results = read_json(args.out, what="benchmark results")
        except ArgusError as exc:
            print(f"bench: {exc}", file=sys.stderr)
            return 2
        print(terminal(results))
    else:
        results = collect(args)
        if args.merge:
            try:
                results = merge(read_json(args.out, what="benchmark results"), results)
            except ArgusError as exc:
                print(f"bench: {exc}; nothing to merge with", file=sys.stderr)
        atomic_write_json(args.out, results)
        print(terminal(results))
        print(f"\nbench: wrote {args.out}")
    if update_readme(args.readme, results):
        print(f"bench: updated the table in {args.readme}")
    failed = [name for name, area in results["areas"].items() if area["status"] == "error"]
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
