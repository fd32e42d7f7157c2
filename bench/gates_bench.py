"""All gates for one example view, against that view's sensing time, in the same run.

A copy of the Habits example is served by its own server on a free port; a warm sensor
(browser already launched, one warm-up view) senses its canonical view (list-populated-light)
each round, and each round then runs every configured gate on what was sensed, through
``run_gates`` with fresh inputs (probe parsing, store write and snapshot diff included).
axe-core runs inside the sensor, so its time is moved from the sensing side to the gates
side. An untimed first gates run writes the snapshot baseline, so the rounds compare against
it as the loop does. Target: gates at most 0.75x sensing, as a ratio of medians.
``run(quick)`` returns the report; ``python -m bench.gates_bench`` prints it (``--quick``,
``--out PATH``).
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from argus.config import load_config
from argus.gates.inputs import gate_inputs
from argus.gates.runner import run_gates
from argus.io import read_json
from argus.sense.controls_choice import LOOP
from argus.sense.sensor import Sensor
from argus.spec import View, load_spec
from bench.area_cli import area_main
from bench.example import CANONICAL, SPEC, copy_example, served

VIEW = CANONICAL
TARGET_RATIO = 0.75


def run(quick: bool = False) -> dict[str, Any]:
    rounds = 3 if quick else 9
    with tempfile.TemporaryDirectory(prefix="argus-gates-bench-") as tmp:
        root = copy_example(Path(tmp))
        config = load_config(root)
        spec = load_spec(root / SPEC)
        view = View(spec.feature, *VIEW)
        sense_ms: list[float] = []
        axe_ms: list[float] = []
        gates_ms: list[float] = []
        per_gate: dict[str, list[float]] = {}
        with served(root) as base_url, Sensor(config, controls=LOOP) as sensor:
            warm = sensor.sense(spec, view, Path(tmp) / "warm", base_url=base_url)
            if not warm.ok:
                raise SystemExit(f"gates bench: sensing failed: {warm.error}")
            # The first gates run writes the snapshot baseline; the rounds measure the steady
            # state, where it is compared.
            run_gates(gate_inputs(spec, view, warm.out_dir, config=config))
            for i in range(rounds):
                out = Path(tmp) / f"round-{i}"
                started = time.perf_counter()
                result = sensor.sense(spec, view, out, base_url=base_url)
                sensed = (time.perf_counter() - started) * 1000
                if not result.ok:
                    raise SystemExit(f"gates bench: sensing failed: {result.error}")
                axe = float(read_json(out / "meta.json")["timings_ms"].get("axe", 0.0))
                started = time.perf_counter()
                gate_run = run_gates(gate_inputs(spec, view, out, config=config))
                gated = (time.perf_counter() - started) * 1000
                sense_ms.append(sensed - axe)
                axe_ms.append(axe)
                gates_ms.append(gated + axe)
                for name, seconds in gate_run.durations.items():
                    per_gate.setdefault(name, []).append(seconds * 1000)
        all_green = gate_run.all_green
    sense_median = statistics.median(sense_ms)
    gates_median = statistics.median(gates_ms)
    ratio = gates_median / sense_median
    return {
        "benchmark": "gates",
        "quick": quick,
        "rounds": rounds,
        "view": "-".join(VIEW),
        "machine": {
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
            "python": sys.version.split()[0],
        },
        "summary": {
            "sense_ms_median_without_axe": round(sense_median, 1),
            "axe_ms_median": round(statistics.median(axe_ms), 1),
            "gates_ms_median_with_axe": round(gates_median, 1),
            "gates_over_sense": round(ratio, 3),
            "all_green": all_green,
        },
        "per_gate_ms_median": {k: round(statistics.median(v), 2) for k, v in per_gate.items()},
        "targets": {"gates_over_sense": TARGET_RATIO},
        "meets_targets": {"gates_over_sense": ratio <= TARGET_RATIO},
    }


def main(argv: list[str] | None = None) -> int:
    return area_main(run, __doc__.splitlines()[0], "fewer rounds", argv)


if __name__ == "__main__":
    raise SystemExit(main())
