"""formats: every value of a column or list is written in a named format or matches a pattern.

Named formats (a whole value must match; a leading minus is allowed on figures):

| name | example |
| --- | --- |
| ``iso_date`` | 2026-03-01 (and a real date) |
| ``integer`` | 1200 |
| ``thousands`` | 1,200 or 1,200.50 (groups of three, comma separated) |
| ``decimal2`` | 1200.50 |
| ``currency`` | $1,200.50, €1,200.50 or £1,200.50 (a symbol, groups, two decimals) |
| ``percent`` | 12% or 12.5% |
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from argus.judge.metric.checks._values import Tree, describe, values_of

Check = tuple[str, bool]
_GROUPED = r"\d{1,3}(?:,\d{3})*"
NAMED: dict[str, re.Pattern[str]] = {
    "iso_date": re.compile(r"\d{4}-\d{2}-\d{2}"),
    "integer": re.compile(r"-?\d+"),
    "thousands": re.compile(rf"-?{_GROUPED}(?:\.\d+)?"),
    "decimal2": re.compile(r"-?\d+\.\d{2}"),
    "currency": re.compile(rf"-?[$€£]{_GROUPED}\.\d{{2}}"),
    "percent": re.compile(r"-?\d+(?:\.\d+)?%"),
}


def matches_format(text: str, name: str | None, pattern: str | None) -> bool:
    """Whether one value is written as the named format (or the pattern) says."""
    if name is not None:
        if not NAMED[name].fullmatch(text):
            return False
        return name != "iso_date" or _is_date(text)
    return re.fullmatch(str(pattern), text) is not None


def _is_date(text: str) -> bool:
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return True


def format_check(tree: Tree, entry: dict[str, Any], numbers: dict[str, Any]) -> Check:
    where = entry["values"]
    label = describe(where)
    wanted = entry.get("format") or f"/{entry.get('pattern')}/"
    values = values_of(tree, where)
    if not values:
        numbers[f"{label} format"] = {"values": 0}
        return (f"{label}: not found (or empty), so its format ({wanted}) was not measured", False)
    # Positions, never the page's text: a value is page content, not ours to quote.
    wrong = [
        i + 1
        for i, v in enumerate(values)
        if not matches_format(v.text, entry.get("format"), entry.get("pattern"))
    ]
    numbers[f"{label} format"] = {"values": len(values), "wrong": wrong, "format": wanted}
    if wrong:
        return (
            f"{label}: {len(wrong)} of {len(values)} value(s) not written as {wanted} "
            f"(first: value {wrong[0]})",
            False,
        )
    return (f"{label}: all {len(values)} value(s) written as {wanted}", True)
