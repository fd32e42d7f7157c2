"""How cost grows with the work: diff time and sense time at 720p, 1440x900 and 4K.

* diff: Argus ``pixelmatch`` on the UI-like sparse (one edited row) and dense (light against
  dark) pairs of bench.images at 1280x720, 1440x900 and 3840x2160, in-process on decoded
  arrays and file to count (PNG decode included). The pixelmatch/odiff side at these sizes is
  the diff area's job (bench.diff_bench); bench.run puts the two side by side.
* sense: the Habits example's canonical view sensed by a warm ``Sensor`` (stable capture,
  probe, axe) at a 1280x720 and a 1440x900 viewport, and full page at a 3840x2160 viewport,
  with the sensor's own capture-and-probe phase from meta.json.

Each size is also given as time and pixels relative to 1440x900, so growth reads at a glance.
``run(quick, browser=True)`` returns the report (``browser=False`` skips sensing);
``python -m bench.scaling_bench`` prints it (``--quick``, ``--no-browser``, ``--out PATH``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from argus.diff import load_png, load_png_pair, pixelmatch, save_png
from bench.images import dense_pair, sparse_pair

DIFF_SIZES = {"720p": (1280, 720), "1440x900": (1440, 900), "4k": (3840, 2160)}
# name -> (viewport width, height, full page)
SENSE_SIZES = {
    "720p": (1280, 720, False),
    "1440x900": (1440, 900, False),
    "4k-full-page": (3840, 2160, True),
}
BASE = "1440x900"


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
    with served(root) as base_url, Sensor(config) as sensor:
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
        else:
            report["sense"] = {"skipped": "run without a browser (--no-browser)"}
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
