"""Run a view's gates and assemble gate-result.json: the deterministic floor.

Each configured gate runs once (the pixel-heavy snapshot gate on a worker thread alongside
the others); an exception inside one becomes status ``error`` with its one-line reason, never
a crash and never a pass. The result keeps the seed's shape (a status
per gate, ``a11y_ids`` as ``{expected, present, missing}``) plus a ``details`` block with each
gate's summary, findings, data and duration, and ``inputs``: the sha256 of the render.png and
probe.json the gates looked at, so a judge can tell the result belongs to the render it is
given. ``all_green`` is derived by
argus.verdict.normalize_gate_result from the statuses, and the result is appended to the run
store as a ``gate_result`` event.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from argus.errors import ArgusError
from argus.gates._registry import check_plugin_settings, get_gate
from argus.gates._snapshot import settle_baseline
from argus.gates.base import Gate, GateInputs, GateOutcome, GateStatus
from argus.io import atomic_write_json
from argus.store import Event, RunStore
from argus.store.model import utc_now
from argus.verdict import normalize_gate_result

RESULT_FILE = "gate-result.json"
# Gates whose work is image decoding and array maths, which release the GIL: they run on a
# worker thread while the others (pure Python over the probe) run on this one.
BACKGROUND_GATES = frozenset({"snapshot"})


@dataclass(frozen=True)
class GateRun:
    outcomes: tuple[GateOutcome, ...]
    durations: Mapping[str, float]  # seconds per gate
    result: Mapping[str, Any]  # gate-result.json, normalized
    all_green: bool
    red_gates: tuple[str, ...]

    def outcome(self, name: str) -> GateOutcome:
        for outcome in self.outcomes:
            if outcome.name == name:
                return outcome
        raise KeyError(name)

    def write(self, path: Path) -> Path:
        atomic_write_json(path, dict(self.result))
        return path


def configured_gates(inputs: GateInputs) -> tuple[str, ...]:
    """The target's own gate list when the spec gives one, else the project's."""
    return inputs.config.gates.for_target(inputs.target.gates)


def run_gates(
    inputs: GateInputs,
    names: Sequence[str] | None = None,
    *,
    record: bool = True,
    run_id: str | None = None,
    iteration: int | None = None,
) -> GateRun:
    """Run ``names`` (default: the configured gates) on one view and judge the floor."""
    selected = tuple(dict.fromkeys(names if names is not None else configured_gates(inputs)))
    check_plugin_settings(inputs.config)  # a plug-in's [gates.NAME] table: exit 2 when wrong
    gates = [(name, get_gate(name)) for name in selected]  # unknown names: InputError, exit 2
    timed: dict[str, tuple[GateOutcome, float]] = {}
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="argus-gate") as pool:
        background = {
            name: pool.submit(_timed, name, gate, inputs)
            for name, gate in gates
            if name in BACKGROUND_GATES
        }
        for name, gate in gates:
            if name not in background:
                timed[name] = _timed(name, gate, inputs)
        for name, future in background.items():
            timed[name] = future.result()
    outcomes = [timed[name][0] for name in selected]
    settled = settle_baseline(inputs, outcomes)  # a baseline only from an otherwise green view
    if settled is not None:
        outcomes = [settled if o.name == "snapshot" else o for o in outcomes]
    durations = {name: timed[name][1] for name in selected}
    raw = assemble_result(inputs, outcomes, durations, iteration=iteration)
    normalized = normalize_gate_result(raw, source=RESULT_FILE)
    result = normalized.to_json()
    run = GateRun(tuple(outcomes), durations, result, normalized.all_green, normalized.red_gates)
    if record:
        _record(inputs, result, run_id, iteration)
    return run


def _timed(name: str, gate: Gate, inputs: GateInputs) -> tuple[GateOutcome, float]:
    started = time.perf_counter()
    outcome = _run_one(name, gate, inputs)
    return outcome, time.perf_counter() - started


def _run_one(name: str, gate: Gate, inputs: GateInputs) -> GateOutcome:
    try:
        outcome = gate(inputs)
    except ArgusError as exc:
        return GateOutcome(name, GateStatus.ERROR, _one_line(str(exc)))
    except Exception as exc:  # a gate bug must read as "could not run", never as a pass
        return GateOutcome(name, GateStatus.ERROR, _one_line(f"{type(exc).__name__}: {exc}"))
    if outcome.name != name:
        return GateOutcome(name, outcome.status, outcome.summary, outcome.findings, outcome.data)
    return outcome


def _one_line(text: str) -> str:
    line = (text.strip().splitlines() or ["no reason given"])[0]
    return line if len(line) <= 300 else line[:299] + "…"


def assemble_result(
    inputs: GateInputs,
    outcomes: Sequence[GateOutcome],
    durations: Mapping[str, float],
    *,
    iteration: int | None = None,
) -> dict[str, Any]:
    """gate-result.json before normalization: the seed's shape plus ``details``."""
    view = inputs.view
    result: dict[str, Any] = {
        "feature": view.feature,
        "target": view.target,
        "state": view.state,
        "appearance": view.appearance,
    }
    if iteration is not None:
        result["iteration"] = iteration
    result["created_at"] = utc_now()
    result["inputs"] = {
        "render_sha256": _sha256(inputs.sensed.render),
        "probe_sha256": _sha256(inputs.sensed.probe),
    }
    result["gates"] = {o.name: _status_entry(o) for o in outcomes}
    result["details"] = {
        o.name: {**o.to_json(), "duration_ms": round(durations.get(o.name, 0.0) * 1000, 1)}
        for o in outcomes
    }
    return result


def _sha256(path: Path) -> str | None:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None


def _status_entry(outcome: GateOutcome) -> Any:
    data = outcome.data
    counts = all(k in data for k in ("expected", "present", "missing"))
    if (
        outcome.name == "a11y_ids"
        and counts
        and outcome.status in (GateStatus.PASS, GateStatus.FAIL)
    ):
        return {
            "expected": data["expected"],
            "present": data["present"],
            "missing": list(data["missing"]),
        }
    return outcome.status.value


def _record(
    inputs: GateInputs, result: Mapping[str, Any], run_id: str | None, iteration: int | None
) -> None:
    view = inputs.view
    with RunStore.open(inputs.root) as store:
        store.append(
            Event(
                kind="gate_result",
                feature=view.feature,
                run_id=run_id,
                target=view.target,
                state=view.state,
                appearance=view.appearance,
                iteration=iteration,
                payload=dict(result),
            )
        )
