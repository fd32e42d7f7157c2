"""Lighthouse category scores graded against per-category minimums, with a next action each.

A score is Lighthouse's 0..1 number; it is shown as 0..100 and compared with the category's
minimum (0..100). A score that is null, not a number, non-finite or outside [0, 1] is an
error for that category (a corrupt or forged report never rescales into a pass); a category
the report does not have is ``not_captured``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

CATEGORIES = ("accessibility", "performance", "best-practices", "seo")
DEFAULT_MINIMUMS: Mapping[str, float] = {
    "accessibility": 90.0,
    "performance": 80.0,
    "best-practices": 80.0,
    "seo": 80.0,
}
NEXT_ACTION = {
    "accessibility": "improve-accessibility",
    "performance": "improve-performance",
    "best-practices": "improve-best-practices",
    "seo": "improve-seo",
}


@dataclass(frozen=True)
class CategoryGrade:
    category: str
    status: str  # pass | fail | error | not_captured
    score: float | None  # 0..100
    minimum: float

    def to_json(self) -> dict[str, Any]:
        return {
            "category": self.category,
            "status": self.status,
            "score": self.score,
            "minimum": self.minimum,
        }


def valid_score(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    number = float(value)
    return number if math.isfinite(number) and 0.0 <= number <= 1.0 else None


def grade(report: Any, minimums: Mapping[str, float]) -> tuple[CategoryGrade, ...]:
    categories = report.get("categories") if isinstance(report, dict) else None
    grades = []
    for name, minimum in minimums.items():
        entry = categories.get(name) if isinstance(categories, dict) else None
        if entry is None:
            grades.append(CategoryGrade(name, "not_captured", None, minimum))
            continue
        score = valid_score(entry.get("score") if isinstance(entry, dict) else None)
        if score is None:
            grades.append(CategoryGrade(name, "error", None, minimum))
            continue
        shown = round(score * 100, 1)
        grades.append(CategoryGrade(name, "pass" if shown >= minimum else "fail", shown, minimum))
    return tuple(grades)


def overall(grades: tuple[CategoryGrade, ...]) -> str:
    statuses = {g.status for g in grades}
    for status in ("error", "fail", "pass"):
        if status in statuses:
            return status
    return "not_captured"


def overall_of_all(grades: tuple[CategoryGrade, ...]) -> str:
    """``overall`` for a report Argus asked every category of: a category it asked for and the
    report lacks was not measured, so the report cannot pass (it is an error)."""
    status = overall(grades)
    if status == "pass" and any(g.status == "not_captured" for g in grades):
        return "error"
    return status


def next_action(grades: tuple[CategoryGrade, ...]) -> str | None:
    """The first category that is not passing, in the order of ``CATEGORIES``."""
    for name in CATEGORIES:
        for g in grades:
            if g.category == name and g.status in ("fail", "error"):
                return NEXT_ACTION[name]
    return None
