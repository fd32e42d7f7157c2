"""How cost grows with the work: diff and sense time by size, views per minute by pages and
machines.

* diff: Argus ``pixelmatch`` on the UI-like sparse (one edited row) and dense (light against
  dark) pairs of bench.images at 1280x720, 1440x900 and 3840x2160, in-process on decoded
  arrays and file to count (PNG decode included). The pixelmatch/odiff side at these sizes is
  the diff area's job (bench.diff_bench); bench.run puts the two side by side.
* sense: the Habits example's canonical view sensed by a warm ``Sensor`` (stable capture,
  probe, axe) at a 1280x720 and a 1440x900 viewport, and full page at a 3840x2160 viewport,
  with the sensor's own capture-and-probe phase from meta.json.

* throughput (issue 28): a 50-view feature (the example's ``list`` target copied into 13
  targets: 12 with its four views, one with two) sensed with the default evidence
  - in one warm ``Sensor`` with 1, 2 and 4 pages at once (``sense_many``): views per minute
    on this machine (2 cores: more pages than cores shows what contention costs);
  - across machines with ``argus sense --all --shard i/N`` for N = 1, 2, 4, simulated: each
    shard runs as its own process, one after another (so each has the machine to itself, as
    on its own machine), then ``argus merge`` joins their results files; the sharded run's
    wall time is the slowest shard plus the merge, and views per minute are 50 over that.
    Each shard pays its own process start and browser launch, the fixed cost that bounds
    the scaling; ``speedup`` is against N = 1 run the same way.

Each size is also given as time and pixels relative to 1440x900, so growth reads at a glance.
``run(quick, browser=True)`` returns the report (``browser=False`` skips sensing and
throughput);
``python -m bench.scaling_bench`` prints it (``--quick``, ``--no-browser``, ``--out PATH``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from argus.diff import load_png, load_png_pair, pixelmatch, save_png
from argus.sense.controls_choice import LOOP
from bench.example import SPEC
from bench.images import dense_pair, sparse_pair

DIFF_SIZES = {"720p": (1280, 720), "1440x900": (1440, 900), "4k": (3840, 2160)}
# name -> (viewport width, height, full page)
SENSE_SIZES = {
    "720p": (1280, 720, False),
    "1440x900": (1440, 900, False),
    "4k-full-page": (3840, 2160, True),
}
BASE = "1440x900"
FEATURE_VIEWS = 50
PAGES = (1, 2, 4)
SHARDS = (1, 2, 4)
SHARD_WORKERS = 2  # pages per shard process: the 2 cores of the machine it simulates


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000


def _median(values: list[float]) -> float:
    return round(statistics.median(values), 2)


def _timed(fn: Callable[[], object], repeat: int) -> list[float]:
    fn()  # warm-up
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append(_ms(started))
    return times


def _growth(rows: dict[str, dict[str, Any]], key: str) -> None:
    """Add ``{key}_vs_base`` and ``pixels_vs_base`` (relative to 1440x900) to every row."""
    base = rows.get(BASE)
    if base is None:
        return
    for row in rows.values():
        row[f"{key}_vs_{BASE}"] = round(row[key] / base[key], 3)
        row[f"pixels_vs_{BASE}"] = round(row["pixels"] / base["pixels"], 3)


def _file_to_count(a: Path, b: Path) -> int:
    return pixelmatch(*load_png_pair(a, b))


def diff_scaling(quick: bool, workdir: Path, *, smoke: bool = False) -> dict[str, Any]:
    rows: dict[str, dict[str, Any]] = {}
    sizes = {"720p": DIFF_SIZES["720p"]} if smoke else DIFF_SIZES
    for name, (width, height) in sizes.items():
        repeat = 1 if smoke else 3 if quick or name == "4k" else 9
        row: dict[str, Any] = {"width": width, "height": height, "pixels": width * height}
        for make in (sparse_pair, dense_pair):
            pair = make(width, height)
            a_path, b_path = (
                workdir / f"{name}-{pair.name}-a.png",
                workdir / f"{name}-{pair.name}-b.png",
            )
            save_png(a_path, pair.a)
            save_png(b_path, pair.b)
            a, b = load_png(a_path), load_png(b_path)
            row[f"{pair.name}_mismatch"] = pixelmatch(a, b)
            row[f"{pair.name}_ms"] = _median(_timed(partial(pixelmatch, a, b), repeat))
            row[f"{pair.name}_file_ms"] = _median(
                _timed(partial(_file_to_count, a_path, b_path), repeat)
            )
        rows[name] = row
    for key in ("sparse_ms", "dense_ms"):
        _growth(rows, key)
    return {"sizes": rows}


def sense_scaling(quick: bool, workdir: Path, *, smoke: bool = False) -> dict[str, Any]:
    # Imported here so the diff half runs without Playwright or a browser.
    from argus.config import load_config
    from argus.sense.sensor import Sensor
    from argus.spec import View, load_spec
    from bench.example import CANONICAL, SPEC, copy_example, served, write_spec_variant

    rounds, repeat = (1, 1) if smoke else (1, 2) if quick else (3, 3)
    sizes = {"720p": SENSE_SIZES["720p"]} if smoke else SENSE_SIZES
    root = copy_example(workdir)
    config = load_config(root)
    specs = {}
    for name, (width, height, full_page) in sizes.items():
        write_spec_variant(root, width=width, height=height, full_page=full_page)
        specs[name] = load_spec(root / SPEC)
    sense_ms: dict[str, list[float]] = {name: [] for name in sizes}
    capture_ms: dict[str, list[float]] = {name: [] for name in sizes}
    renders: dict[str, tuple[int, int]] = {}
    with served(root) as base_url, Sensor(config, controls=LOOP) as sensor:
        for r in range(rounds):
            for name, spec in specs.items():
                view = View(spec.feature, *CANONICAL)
                for i in range(repeat + (1 if r == 0 else 0)):  # one warm-up per size
                    out = workdir / f"{name}-{r}-{i}"
                    started = time.perf_counter()
                    result = sensor.sense(spec, view, out, base_url=base_url)
                    elapsed = _ms(started)
                    if not result.ok:
                        raise RuntimeError(f"scaling bench: sensing {name} failed: {result.error}")
                    if r == 0 and i == 0:
                        height, width = load_png(out / "render.png").shape[:2]
                        renders[name] = (width, height)
                        continue
                    sense_ms[name].append(elapsed)
                    capture_ms[name].append(float(result.timings_ms["capture_and_probe"]))
    rows: dict[str, dict[str, Any]] = {}
    for name, (width, height, full_page) in sizes.items():
        render_w, render_h = renders[name]
        rows[name] = {
            "viewport": [width, height],
            "full_page": full_page,
            "render": [render_w, render_h],
            "pixels": render_w * render_h,
            "sense_ms": _median(sense_ms[name]),
            "capture_and_probe_ms": _median(capture_ms[name]),
            "samples": len(sense_ms[name]),
        }
    _growth(rows, "sense_ms")
    return {"view": "-".join(CANONICAL), "sizes": rows}


def write_feature_of(root: Path, views: int = FEATURE_VIEWS) -> None:
    """Rewrite the copy's spec into a feature of ``views`` views (an even number): its ``list``
    target copied as often as needed, four views a copy, the last copy with one state if
    two views remain. The copies keep the original's route, states and contracts."""
    path = root / SPEC
    spec: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    original = next(item for item in spec["targets"] if item["id"] == "list")
    targets: list[dict[str, Any]] = []
    left = views
    while left > 0:
        copy = json.loads(json.dumps(original))
        if targets:
            copy["id"] = f"list-{len(targets) + 1}"
            copy.pop("references", None)  # the one reference image is the original's
        if left < 4:
            _keep_state(copy, copy["states"][0])
        targets.append(copy)
        left -= len(copy["states"]) * len(copy["appearances"])
    spec["targets"] = targets
    path.write_text(json.dumps(spec, indent=2), encoding="utf-8")


def _keep_state(target: dict[str, Any], state: str) -> None:
    """Cut a target to one state, with everything keyed by a state cut to match."""
    target["states"] = [state]
    target["canonical"] = {"state": state, "appearance": target["appearances"][0]}
    for key, value in list(target.items()):
        if isinstance(value, dict) and set(value) >= {state} and key != "canonical":
            target[key] = {state: value[state]}
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            target[key] = [v for v in value if v.get("state", state) == state]


def _pages_throughput(root: Path, workdir: Path, batches: int) -> dict[str, Any]:
    from argus.config import load_config
    from argus.sense.sensor import Sensor
    from argus.spec import load_spec
    from bench.example import served

    config = load_config(root)
    spec = load_spec(root / SPEC)
    views = spec.views()
    rows: dict[str, Any] = {}
    with served(root) as base_url, Sensor(config, workers=max(PAGES), controls=LOOP) as sensor:
        sensor.sense_many(spec, views[:2], workdir / "warm", workers=2, base_url=base_url)
        for pages in PAGES:
            seconds = []
            for b in range(batches):
                out = workdir / f"pages-{pages}-{b}"
                started = time.perf_counter()
                results = sensor.sense_many(spec, views, out, workers=pages, base_url=base_url)
                seconds.append(_ms(started) / 1000)
                failed = [r.error for r in results if not r.ok]
                if failed:
                    raise RuntimeError(f"throughput bench: {len(failed)} views failed: {failed[0]}")
            median = statistics.median(seconds)
            rows[str(pages)] = {
                "seconds": round(median, 2),
                "views_per_minute": round(len(views) / median * 60, 1),
            }
    return {"views": len(views), "pages": rows}


def _argus(root: Path, *args: str) -> float:
    """Wall seconds of ``argus ARGS`` as a process in ``root``; a failure is an error."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "argus", *args], cwd=root, capture_output=True, text=True
    )
    seconds = _ms(started) / 1000
    if done.returncode != 0:
        raise RuntimeError(f"throughput bench: argus {args[0]} failed: {done.stderr[-300:]}")
    return seconds


def _shard_throughput(root: Path, workdir: Path, views: int) -> dict[str, Any]:
    from bench.example import served

    rows: dict[str, Any] = {}
    with served(root, _config_port(root)):
        for total in SHARDS:
            shard_s, results = [], []
            for index in range(1, total + 1):
                result = workdir / f"shards-{total}" / f"results-{index}.json"
                shard_s.append(
                    _argus(
                        root, "sense", "--feature", "habits", "--all",
                        "--shard", f"{index}/{total}", "--workers", str(SHARD_WORKERS),
                        "--results", str(result),
                        "--out-root", str(workdir / f"shards-{total}" / f"views-{index}"),
                    )
                )  # fmt: skip
                results.append(str(result))
            merge_s = _argus(
                root, "merge", *results, "--out", str(workdir / f"shards-{total}" / "merged")
            )
            wall = max(shard_s) + merge_s
            rows[str(total)] = {
                "shard_seconds": [round(x, 2) for x in shard_s],
                "merge_seconds": round(merge_s, 2),
                "wall_seconds": round(wall, 2),
                "machine_seconds": round(sum(shard_s) + merge_s, 2),
                "views_per_minute": round(views / wall * 60, 1),
            }
    one = rows["1"]["wall_seconds"]
    for row in rows.values():
        row["speedup"] = round(one / row["wall_seconds"], 2)
    return {"workers_per_shard": SHARD_WORKERS, "shards": rows}


def _config_port(root: Path) -> int:
    """The port the copy's argus.toml names (the shard processes read it from there)."""
    from argus.config import load_config

    base = load_config(root).base_url or ""
    return int(base.rsplit(":", 1)[1].strip("/"))


def throughput(quick: bool, workdir: Path) -> dict[str, Any]:
    """Views per minute of a 50-view feature by pages at once and by shard machines."""
    from bench.example import copy_example

    root = copy_example(workdir / "throughput")
    write_feature_of(root)
    report = _pages_throughput(root, workdir / "throughput-runs", 1 if quick else 2)
    report.update(_shard_throughput(root, workdir / "throughput-runs", report["views"]))
    return report


def run(quick: bool = False, *, browser: bool = True, smoke: bool = False) -> dict[str, Any]:
    """``smoke``: the smallest size once, to check the harness (numbers not worth reading)."""
    with tempfile.TemporaryDirectory(prefix="argus-scaling-bench-") as tmp:
        workdir = Path(tmp)
        report: dict[str, Any] = {
            "benchmark": "scaling",
            "quick": quick,
            "smoke": smoke,
            "numpy": np.__version__,
            "diff": diff_scaling(quick, workdir, smoke=smoke),
        }
        if browser:
            report["sense"] = sense_scaling(quick, workdir, smoke=smoke)
            report["throughput"] = throughput(quick, workdir)
        else:
            skipped = {"skipped": "run without a browser (--no-browser)"}
            report["sense"] = skipped
            report["throughput"] = skipped
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    parser.add_argument("--no-browser", action="store_true", help="diff only")
    parser.add_argument("--smoke", action="store_true", help="smallest size once")
    parser.add_argument("--out", type=Path, help="also write the JSON report here")
    args = parser.parse_args(argv)
    report = run(quick=args.quick, browser=not args.no_browser, smoke=args.smoke)
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
