"""Verdict rows from a verdict.json (from the run directory or a ``verdict`` event).

Pass and fail are re-derived from the scores and the rubric's thresholds, never read from the
verdict's own ``all_pass``: the report must not show a pass the numbers do not support. A
dimension with no score is unverified, and a dimension the loop froze is marked as such.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from argus.report.model import DimensionRow, VerdictSummary
from argus.schemas import Rubric

DEFAULT_THRESHOLD = 1.0


def _score(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _status(score: float | None, threshold: float) -> str:
    if score is None:
        return "unverified"
    return "pass" if score >= threshold else "fail"


def dimension_rows(
    dimensions: Mapping[str, Any], rubric: Rubric | None, frozen: Collection[str]
) -> tuple[DimensionRow, ...]:
    order = list(rubric.dimensions) if rubric is not None else []
    names = [n for n in order if n in dimensions] + [n for n in dimensions if n not in order]
    rows: list[DimensionRow] = []
    for name in names:
        entry = dimensions[name]
        entry = entry if isinstance(entry, Mapping) else {}
        rule = rubric.dimensions.get(name) if rubric is not None else None
        threshold = rule.threshold if rule is not None else DEFAULT_THRESHOLD
        score = None if entry.get("abstained") is True else _score(entry.get("score"))
        status = _status(score, threshold)
        rows.append(
            DimensionRow(
                name=str(name),
                status=status,
                score=score,
                threshold=threshold,
                anchor=_text(entry.get("anchor")) or (rule.anchor if rule is not None else ""),
                evidence=_text(entry.get("evidence")),
                judged_by=_text(entry.get("judged_by")),
                frozen=name in frozen,
            )
        )
    return tuple(rows)


def verdict_outcome(status: str, rows: tuple[DimensionRow, ...]) -> str:
    if status == "inconclusive" or not rows or all(r.abstained for r in rows):
        return "inconclusive"
    if any(r.status == "fail" for r in rows):
        return "fail"
    return "unverified" if any(r.status == "unverified" for r in rows) else "pass"


def verdict_summary(
    verdict: Mapping[str, Any],
    rubric: Rubric | None,
    frozen: Collection[str],
    iteration: int | None,
) -> VerdictSummary:
    dimensions = verdict.get("dimensions")
    rows = dimension_rows(dimensions if isinstance(dimensions, Mapping) else {}, rubric, frozen)
    corrections = verdict.get("corrections")
    return VerdictSummary(
        iteration=iteration,
        outcome=verdict_outcome(_text(verdict.get("status")) or "scored", rows),
        backend=_text(verdict.get("backend")),
        model=_text(verdict.get("model")),
        dimensions=rows,
        corrections=tuple(map(str, corrections)) if isinstance(corrections, list) else (),
        error=_text(verdict.get("error")),
        notes=_text(verdict.get("notes")),
        reference_source=_text(verdict.get("reference_source")),
    )
