"""One timeline row per iteration, from whatever the run left of it.

An iteration can be known from its directory (outcome.json, gate-result.json, verdict.json,
implementer.json) or only from the run store's events (when a later run reused the view's
directory). Both carry the same facts in slightly different shapes; ``IterationSources``
holds either, and ``iteration_row`` reads them with the files winning where both exist.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from argus.report._gate_rows import gate_summary, red_gate_names
from argus.report._verdict_rows import verdict_summary
from argus.report.model import GateRow, IterationRow
from argus.schemas import Rubric


@dataclass(frozen=True)
class IterationSources:
    iteration: int
    outcome: Mapping[str, Any] | None = None  # iteration-N/outcome.json
    decision_event: Mapping[str, Any] | None = None  # payload of the "decision" event
    gate_result: Mapping[str, Any] | None = None
    verdict: Mapping[str, Any] | None = None
    implementer: Mapping[str, Any] | None = None  # implementer.json, or from the event
    integrity: Mapping[str, Any] | None = None
    sensor_error: str = ""


def _names(value: Any) -> tuple[str, ...]:
    return tuple(str(v) for v in value) if isinstance(value, list) else ()


def _decision(src: IterationSources) -> Mapping[str, Any]:
    for holder in (src.outcome, src.decision_event):
        if holder is not None and isinstance(holder.get("decision"), Mapping):
            found: Mapping[str, Any] = holder["decision"]
            return found
    return {}


def _kind(src: IterationSources, red: tuple[str, ...]) -> str:
    for holder in (src.outcome, src.decision_event):
        if holder is not None and isinstance(holder.get("kind"), str):
            return str(holder["kind"])
    if src.sensor_error:
        return "sensor_failure"
    if red:
        return "gates_red"
    return "judged" if src.verdict is not None else "unknown"


def implementer_text(implementer: Mapping[str, Any] | None) -> tuple[str, str]:
    """What the implementer reported (its four-state status, else how it ended) and its error."""
    if implementer is None:
        return "", ""
    status = implementer.get("status")
    outcome = implementer.get("outcome")
    error = implementer.get("error")
    if isinstance(status, str) and status and outcome in (None, "ok"):
        text = status
    elif isinstance(outcome, str) and outcome:
        text = outcome.replace("_", " ") + (f" ({status})" if isinstance(status, str) else "")
    else:
        text = "ran"
    return text, error if isinstance(error, str) else ""


def _protection(implementer: Mapping[str, Any] | None) -> str:
    value = (implementer or {}).get("protection")
    return value if isinstance(value, str) else ""


def _passed(src: IterationSources) -> bool:
    for holder in (src.outcome, src.decision_event):
        if holder is not None and isinstance(holder.get("passed"), bool):
            return bool(holder["passed"])
    return False


def _changed_protected(integrity: Mapping[str, Any] | None) -> bool:
    if integrity is None:
        return False
    return any(integrity.get(key) for key in ("modified", "added", "removed"))


def iteration_row(
    src: IterationSources, rubric: Rubric | None, frozen: Collection[str]
) -> IterationRow:
    outcome = src.outcome or {}
    red_rows: tuple[GateRow, ...] = ()
    if src.gate_result is not None:
        red = red_gate_names(src.gate_result)
        gates = "red" if red else "green"
        red_rows = tuple(r for r in gate_summary(src.gate_result, src.iteration).rows if r.red)
    else:
        red = _names(outcome.get("red_gates"))
        gates = "red" if red else "none"
    verdict = ""
    failed: tuple[str, ...] = ()
    unverified: tuple[str, ...] = ()
    if src.verdict is not None:
        summary = verdict_summary(src.verdict, rubric, frozen, src.iteration)
        verdict = summary.outcome
        failed = tuple(d.name for d in summary.dimensions if d.status == "fail")
        unverified = tuple(d.name for d in summary.dimensions if d.status == "unverified")
    elif isinstance(outcome.get("verdict_outcome"), str):
        verdict = outcome["verdict_outcome"]
        failed = _names(outcome.get("failed_dimensions"))
        unverified = _names(outcome.get("unverified_dimensions"))
    kind = _kind(src, red)
    decision = _decision(src)
    confirmed = kind == "confirmed" or bool((src.decision_event or {}).get("confirmed_unchanged"))
    implementer, implementer_error = implementer_text(src.implementer)
    if kind == "integrity" or _changed_protected(src.integrity):
        implementer = (implementer + "; " if implementer else "") + "changed protected files"
    unchanged = outcome.get("unchanged")
    passes = decision.get("consecutive_passes")
    error = outcome.get("error")
    return IterationRow(
        iteration=src.iteration,
        kind=kind,
        gates=gates,
        red_gates=red,
        verdict=verdict,
        failed_dimensions=failed,
        unverified_dimensions=unverified,
        unchanged=unchanged if isinstance(unchanged, bool) else (True if confirmed else None),
        confirmed_unchanged=confirmed,
        implementer=implementer,
        implementer_error=implementer_error,
        passes=passes if isinstance(passes, int) and not isinstance(passes, bool) else None,
        next_action=str(decision.get("next_action") or ""),
        newly_frozen=_names(decision.get("newly_frozen")),
        error=error if isinstance(error, str) and error else src.sensor_error,
        red_gate_rows=red_rows,
        counted_pass=_passed(src),
        protection=_protection(src.implementer),
    )
