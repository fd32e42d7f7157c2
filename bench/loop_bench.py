"""Loop overhead per iteration against the sensing + gates time of the same view, same run.

The real loop (argus.loop.run_loop, headless, the real services) converges the canonical view
of a copy of the Habits example with two seeded defects (a gate and a judge-only one) and the
example implementer, so a round has the usual iteration kinds: gates red, judged fail, judged
pass, unchanged confirm. The services are timed from the outside, and the browser and web
server are warmed up before the loop starts.

Per iteration, wall time runs from one committed iteration to the next (state, files, store
events and progress included). The loop overhead is that wall time minus the implementer's
own run (its subprocess) and nothing else, per the issue: "everything but the implementer
and the judge's model time". The only time that may be left out besides the implementer is
a model's; this bench judges with the metric judge, which has no model, so the whole judge
(packet, measuring, verdict) counts as loop overhead. The judge backend's own time is still
reported apart (``judge_backend_ms_median_judged``), as is the overhead without it, for
reading only. Each round starts as a new ``argus loop`` process would: the metric judge's
pictures kept from an earlier round are dropped (within a round it keeps the reference and
the previous render, as the loop does). Target: overhead at most 1.2x the view's sense +
gates time, as a ratio of medians. ``run(quick)`` returns the report;
``python -m bench.loop_bench`` prints it (``--quick``, ``--out PATH``).
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Self

from argus.cli import apply_defects
from argus.config import ProjectConfig
from argus.io import read_json
from argus.judge.packet import Packet
from argus.judge.picture import forget_pictures
from argus.loop.engine.modes import Mode
from argus.loop.engine.progress import SilentProgress
from argus.loop.engine.run import LoopOptions, run_loop
from argus.loop.engine.services import GateReport, JudgeInputs, SenseResult
from argus.loop.engine.web_services import ArgusServices
from argus.loop.records.layout import RunLayout
from argus.schemas import Rubric
from argus.spec import Spec, View
from argus.verdict import NormalizedVerdict
from bench.area_cli import area_main
from bench.example import SPEC, copy_example

TARGET_RATIO = 1.2
DEFECTS = ["missing_id", "missing_row"]
IMPLEMENTER = Path(__file__).resolve().parent.parent / "examples/implementer/fix_one_defect.py"


class TimedServices(ArgusServices):
    """The real services, each call timed; the judge backend's own time recorded too."""

    def __init__(self, spec: Spec, config: ProjectConfig, rubric: Rubric, layout: RunLayout):
        super().__init__(spec, config, rubric, layout)
        self.times: dict[str, list[float]] = {"sense": [], "gates": [], "judge": [], "backend": []}
        backend = self.judge_backend
        inner = backend.judge
        times = self.times

        def timed_judge(packet: Packet) -> dict[str, Any]:
            started = time.perf_counter()
            try:
                return inner(packet)
            finally:
                times["backend"].append(time.perf_counter() - started)

        backend.judge = timed_judge  # type: ignore[method-assign]

    def __enter__(self) -> Self:
        super().__enter__()
        # Warm up: launch the browser and start the web server before anything is timed.
        view = self.spec.canonical_view(self.spec.targets[0].id)
        with tempfile.TemporaryDirectory(prefix="argus-loop-bench-warm-") as tmp:
            super().sense(view, Path(tmp))
        return self

    def sense(self, view: View, out_dir: Path) -> SenseResult:
        started = time.perf_counter()
        try:
            return super().sense(view, out_dir)
        finally:
            self.times["sense"].append(time.perf_counter() - started)

    def gates(self, view: View, sensed: Path, *, iteration: int) -> GateReport:
        started = time.perf_counter()
        try:
            return super().gates(view, sensed, iteration=iteration)
        finally:
            self.times["gates"].append(time.perf_counter() - started)

    def judge(self, view: View, sensed: Path, inputs: JudgeInputs) -> NormalizedVerdict:
        started = time.perf_counter()
        try:
            return super().judge(view, sensed, inputs)
        finally:
            self.times["judge"].append(time.perf_counter() - started)


class Clock(SilentProgress):
    """Records when each iteration was committed."""

    def __init__(self) -> None:
        self.marks: list[tuple[str, float]] = []

    def view_started(self, slug: str) -> None:
        self.marks.append(("start", time.perf_counter()))

    def iteration_done(self, slug: str, iteration: int, result: str) -> None:
        self.marks.append((f"iteration-{iteration}", time.perf_counter()))


def _one_view(root: Path) -> None:
    """Narrow the copy's spec to its canonical view."""
    path = root / SPEC
    spec = json.loads(path.read_text(encoding="utf-8"))
    target = spec["targets"][0]
    spec["targets"] = [target]  # the example has other targets (the add form) since issue 16
    target["states"], target["appearances"] = ["populated"], ["light"]
    target["fixtures"] = {"populated": target["fixtures"]["populated"]}
    target["expectations"] = {"populated": target["expectations"]["populated"]}
    path.write_text(json.dumps(spec, indent=2), encoding="utf-8")


def _round(tmp: Path) -> list[dict[str, float | str]]:
    """One converging run; a row of timings (seconds) per iteration."""
    forget_pictures()  # a round is a fresh process: nothing kept from the round before
    root = copy_example(tmp)
    _one_view(root)
    apply_defects(root, DEFECTS)
    services: list[TimedServices] = []

    def factory(*args: Any) -> TimedServices:
        services.append(TimedServices(*args))
        return services[-1]

    clock = Clock()
    implementer = f"{sys.executable} {IMPLEMENTER} --workdir {{workdir}} --prompt {{prompt_file}}"
    options = LoopOptions("habits", root, mode=Mode.HEADLESS, implementer=implementer)
    outcome = run_loop(options, services_factory=factory, progress=clock)
    if outcome.status.value != "DONE":
        raise SystemExit(f"loop bench: the loop ended {outcome.status.value}: {outcome.notes}")
    view_dir = root / "argus/specs/habits/.argus-runs/list-populated-light"
    rows: list[dict[str, float | str]] = []
    marks = [t for _, t in clock.marks]
    for n in range(1, len(marks)):
        outcome_json = read_json(view_dir / f"iteration-{n}" / "outcome.json")
        phases = outcome_json["timings"]
        record = view_dir / f"iteration-{n}" / "implementer.json"
        implementer_s = float(read_json(record)["duration_s"]) if record.is_file() else 0.0
        rows.append(
            {
                "kind": outcome_json["kind"],
                "wall": marks[n] - marks[n - 1],
                "implementer": implementer_s,
                # The dead-control probe, part of sensing, runs apart on judged iterations
                # only (after green gates): it counts as sensing, not as loop overhead.
                "sense": float(phases.get("sense", 0.0)) + float(phases.get("probe", 0.0)),
                "gates": float(phases.get("gates", 0.0)),
                "judge": float(phases.get("judge", 0.0)),
            }
        )
    # The judge backend's own times, in the order the judged iterations ran.
    backend = iter(services[0].times["backend"])
    for row in rows:
        row["backend"] = next(backend) if row["kind"] == "judged" else 0.0
    return rows


def _median_ms(values: list[float]) -> float:
    return round(statistics.median(values) * 1000, 1)


def run(quick: bool = False) -> dict[str, Any]:
    rounds = 1 if quick else 3
    rows: list[dict[str, float | str]] = []
    for i in range(rounds):
        with tempfile.TemporaryDirectory(prefix=f"argus-loop-bench-{i}-") as tmp:
            rows += _round(Path(tmp))
    # The metric judge has no model time: all of it is loop overhead.
    overhead = [float(r["wall"]) - float(r["implementer"]) for r in rows]
    without_judge = [o - float(r["backend"]) for o, r in zip(overhead, rows, strict=True)]
    sense_gates = [float(r["sense"]) + float(r["gates"]) for r in rows]
    own = [o - s - float(r["judge"]) for o, s, r in zip(overhead, sense_gates, rows, strict=True)]
    judged = [r for r in rows if r["kind"] == "judged"]
    ratio = statistics.median(overhead) / statistics.median(sense_gates)
    return {
        "benchmark": "loop",
        "quick": quick,
        "rounds": rounds,
        "iterations": len(rows),
        "kinds": [r["kind"] for r in rows],
        "summary": {
            "overhead_ms_median": _median_ms(overhead),
            "sense_gates_ms_median": _median_ms(sense_gates),
            "overhead_over_sense_gates": round(ratio, 3),
            "loop_own_ms_median": _median_ms(own),
            "overhead_without_metric_judge_ms_median": _median_ms(without_judge),
            "judge_ms_median_judged": _median_ms([float(r["judge"]) for r in judged] or [0.0]),
            "judge_backend_ms_median_judged": _median_ms(
                [float(r["backend"]) for r in judged] or [0.0]
            ),
            "overhead_ms_median_judged": _median_ms(
                [o for o, r in zip(overhead, rows, strict=True) if r["kind"] == "judged"] or [0.0]
            ),
            "sense_gates_ms_median_judged": _median_ms(
                [s for s, r in zip(sense_gates, rows, strict=True) if r["kind"] == "judged"]
                or [0.0]
            ),
            "implementer_ms_median_edits": _median_ms(
                [float(r["implementer"]) for r in rows if float(r["implementer"]) > 0] or [0.0]
            ),
        },
        "per_iteration_ms": [
            {k: (round(float(v) * 1000, 1) if k != "kind" else v) for k, v in r.items()}
            for r in rows
        ],
        "targets": {"overhead_over_sense_gates": TARGET_RATIO},
        "meets_targets": {"overhead_over_sense_gates": ratio <= TARGET_RATIO},
    }


def main(argv: list[str] | None = None) -> int:
    return area_main(run, __doc__.splitlines()[0], "one round instead of three", argv)


if __name__ == "__main__":
    raise SystemExit(main())
