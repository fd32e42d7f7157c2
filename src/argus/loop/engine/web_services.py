"""The loop's services backed by the real parts: the warm Sensor, the gates, the judge, the diff.

One ``ArgusServices`` lives for a whole run, so the browser (and the project's web server)
start once and are reused by every view and iteration. During iterations the snapshot gate
only compares (update mode ``compare``: compare if present, never write): a baseline written
from a render that is still being fixed would lock the defect in. Baselines are written at
sign-off, from the signed-off render.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Self

from argus.closing import Closing
from argus.config import ProjectConfig
from argus.diff import is_unchanged
from argus.diff.snapshot import COMPARE_IF_PRESENT
from argus.diff.unchanged import UnchangedResult
from argus.errors import ArgusError
from argus.gates import configured_gates, run_gates
from argus.gates.inputs import check_sensed_view, gate_inputs
from argus.io import atomic_write_json
from argus.judge.assemble import packet_for_view
from argus.judge.base import run_judge
from argus.judge.cache import CachingJudge
from argus.judge.picture import warm_picture
from argus.judge.registry import get_judge
from argus.loop.engine.services import GateReport, JudgeInputs, SenseResult
from argus.loop.human.baseline import keeps_baselines, write_baseline
from argus.loop.records.layout import RunLayout
from argus.schemas import Rubric
from argus.sense.controls_choice import LOOP_DEFERRED
from argus.sense.sensor import Sensor
from argus.spec.model import Spec, View
from argus.verdict import NormalizedVerdict

MAX_FINDINGS_IN_EVIDENCE = 5
JUDGE_CACHE_DIR = "judge-cache"  # under a report-only run directory


def gate_evidence(detail: dict[str, object]) -> str:
    """One line per red gate for the implementer: its summary and the first findings."""
    summary = str(detail.get("summary", "")).strip()
    findings = detail.get("findings")
    parts = [summary] if summary else []
    if isinstance(findings, list):
        for finding in findings[:MAX_FINDINGS_IN_EVIDENCE]:
            if not isinstance(finding, dict):
                continue
            where = f"{finding.get('element', '')} {finding.get('property', '')}".strip()
            text = f"{where}={finding.get('value', '')}"
            if finding.get("expected"):
                text += f" (expected {finding['expected']})"
            if finding.get("message"):
                text += f": {finding['message']}"
            parts.append(text.strip())
        if len(findings) > MAX_FINDINGS_IN_EVIDENCE:
            parts.append(f"and {len(findings) - MAX_FINDINGS_IN_EVIDENCE} more")
    return "; ".join(parts) or "red"


def picture_judge(backend: Any) -> bool:
    """Whether ``backend`` reads pictures in this process (the metric judge, alone or in the
    composite): only then is reading the reference ahead of it of any use."""
    return getattr(backend, "name", "") in ("metric", "composite")


class ArgusServices(Closing):
    """LoopServices over argus.sense, argus.gates, argus.judge and argus.diff."""

    def __init__(
        self, spec: Spec, config: ProjectConfig, rubric: Rubric, layout: RunLayout
    ) -> None:
        self.spec = spec
        self.config = config
        # Compare only when a baseline exists, never write: before a view's first sign-off
        # there is none, and that must not turn the snapshot gate red.
        self.gate_config = config.with_snapshot_update(COMPARE_IF_PRESENT)
        self.rubric = rubric
        self.layout = layout
        self.judge_backend = get_judge(config.judge.backend, config)
        if layout.report_only and isinstance(self.judge_backend, CachingJudge):
            # report-only writes nothing outside its run directory: the model's answers too.
            self.judge_backend.use_cache_dir(layout.runs_dir / JUDGE_CACHE_DIR)
        # The dead-control probe only on iterations the loop judges: ``probe``, after green gates.
        self.sensor = Sensor(config, spec.root, controls=LOOP_DEFERRED)
        self._warmed: set[View] = set()
        self._warming = ThreadPoolExecutor(max_workers=1, thread_name_prefix="argus-warm")

    def __enter__(self) -> Self:
        self.sensor.__enter__()
        return self

    def close(self) -> None:
        self._warming.shutdown(wait=True, cancel_futures=True)
        self.sensor.close()

    def _warm_reference(self, view: View) -> None:
        """Read the view's reference for the judge while the browser renders: the pictures a
        judge keeps are keyed by the file's digest, so the judge finds exactly what it would
        have computed itself, only sooner. Once per view; failures are the judge's to meet."""
        if view in self._warmed or not picture_judge(self.judge_backend):
            return
        self._warmed.add(view)
        reference = self.spec.target(view.target).reference_for(view.state, view.appearance)
        if reference is None or reference.status != "present" or reference.file is None:
            return
        self._warming.submit(warm_picture, reference.file)

    def sense(self, view: View, out_dir: Path) -> SenseResult:
        if self.spec.adapter == "web":
            # A server that cannot start is not one view's failed render but a run that cannot
            # go on: raised (said once, exit 2), never recorded against every view.
            self.sensor.start_server(self.spec)
        self._warm_reference(view)
        try:
            result = self.sensor.sense(self.spec, view, out_dir)
        except ArgusError as err:  # a bad plan (config) is still a failed render for the loop
            return SenseResult(False, str(err))
        return SenseResult(result.ok, result.error or "")

    def gates(self, view: View, sensed: Path, *, iteration: int) -> GateReport:
        # The files are all of this iteration's sense, which succeeded (evidence.attempt):
        # nothing changed them between the sense and here.
        check_sensed_view(sensed, view)
        inputs = gate_inputs(self.spec, view, sensed, config=self.gate_config, run_dir=sensed)
        run = run_gates(inputs, record=False, iteration=iteration)
        run.write(sensed / "gate-result.json")
        details = run.result.get("details", {})
        evidence = {
            name: gate_evidence(details.get(name, {}) if isinstance(details, dict) else {})
            for name in run.red_gates
        }
        return GateReport(run.all_green, run.red_gates, evidence, run.result)

    def probe(self, view: View, sensed: Path) -> None:
        # Only on this iteration's own files (the sensor adds controls.json to their seal).
        check_sensed_view(sensed, view)
        self.sensor.probe_controls(self.spec, view, sensed)

    def judge(self, view: View, sensed: Path, inputs: JudgeInputs) -> NormalizedVerdict:
        check_sensed_view(sensed, view)
        packet = packet_for_view(
            self.spec,
            view,
            sensed=sensed,
            gate_result=sensed / "gate-result.json",
            run_dir=sensed,
            iteration=inputs.iteration,
            prev_render=inputs.prev_render,
            gates=configured_gates(
                gate_inputs(self.spec, view, sensed, config=self.gate_config, run_dir=sensed)
            ),
        )
        verdict = run_judge(self.judge_backend, packet, self.rubric)
        atomic_write_json(sensed / "verdict.json", verdict.to_json())
        return verdict

    def unchanged(self, previous: Path, current: Path) -> UnchangedResult:
        return is_unchanged(previous, current)

    def write_baseline(self, view: View, render: Path) -> str | None:
        if not keeps_baselines(self.spec, self.config, view, render.parent):
            return None
        outcome = write_baseline(self.spec, self.config, view, render, "changed")
        return outcome.baseline.relative_to(self.spec.root).as_posix()
