"""What Lighthouse costs: one `lighthouse` run on the example's canonical view, against the
time Argus takes to sense that view, in the same run.

Lighthouse is found or installed as `argus lighthouse` does (argus.lighthouse.lighthouse_command,
into the cache, outside the timing). A warm sensor senses the canonical view each round; Lighthouse
then runs on the same URL (its own Chromium launch included, as in the gate). There is no
target: the number says how much slower a loop iteration gets with the opt-in gate on, which is
why it is off by default. Separate from `bench.run` (`python -m bench.lighthouse_bench
[--quick] [--out PATH]`); it needs Node.js with npm.
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
from argus.lighthouse import lighthouse_command
from argus.lighthouse.run import run_lighthouse
from argus.sense.browser import discover_browser
from argus.sense.controls_choice import LOOP
from argus.sense.sensor import Sensor
from argus.sense.views import plan_view
from argus.spec import View, load_spec
from bench.area_cli import area_main
from bench.example import CANONICAL, SPEC, copy_example, served


def run(quick: bool = False) -> dict[str, Any]:
    rounds = 1 if quick else 3
    lighthouse_command()  # install outside the timing
    with tempfile.TemporaryDirectory(prefix="argus-lighthouse-bench-") as tmp:
        root = copy_example(Path(tmp))
        config = load_config(root)
        spec = load_spec(root / SPEC)
        view = View(spec.feature, *CANONICAL)
        browser = discover_browser(config)
        sense_ms: list[float] = []
        lighthouse_ms: list[float] = []
        scores: dict[str, Any] = {}
        with served(root) as base_url, Sensor(config, controls=LOOP) as sensor:
            url = plan_view(spec, view, config, base_url=base_url).url
            assert url is not None
            sensor.sense(spec, view, Path(tmp) / "warm", base_url=base_url)
            for i in range(rounds):
                started = time.perf_counter()
                result = sensor.sense(spec, view, Path(tmp) / f"sense-{i}", base_url=base_url)
                sense_ms.append((time.perf_counter() - started) * 1000)
                if not result.ok:
                    raise SystemExit(f"lighthouse bench: sensing failed: {result.error}")
                started = time.perf_counter()
                report = run_lighthouse(url, browser=browser, out=Path(tmp) / f"lh-{i}.json")
                lighthouse_ms.append((time.perf_counter() - started) * 1000)
                scores = {k: v.get("score") for k, v in report["categories"].items()}
    sense_median = statistics.median(sense_ms)
    lighthouse_median = statistics.median(lighthouse_ms)
    return {
        "benchmark": "lighthouse",
        "quick": quick,
        "rounds": rounds,
        "view": "-".join(CANONICAL),
        "machine": {
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
            "python": sys.version.split()[0],
        },
        "summary": {
            "sense_ms_median": round(sense_median, 1),
            "lighthouse_ms_median": round(lighthouse_median, 1),
            "lighthouse_over_sense": round(lighthouse_median / sense_median, 2),
            "scores": scores,
        },
    }


def main(argv: list[str] | None = None) -> int:
    return area_main(run, __doc__.splitlines()[0], "one round", argv)


if __name__ == "__main__":
    raise SystemExit(main())
