"""sort: a column or list is in ascending or descending order, read as numbers, text or dates.

number: the figure in the text (currency symbols, thousands separators and ``%`` set aside);
text: case-insensitive; date: an ISO date, or the spec's ``date_format`` (strftime). A value
that does not read as its kind fails the check (an order of unreadable values means nothing).
Equal neighbours are in order either way.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any

from argus.judge.metric.checks._values import Tree, describe, values_of

Check = tuple[str, bool]
Key = float | str | date
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def sort_key(text: str, by: str, date_format: str | None) -> Key | None:
    """The value as its kind orders it, or None when it does not read as one."""
    if by == "number":
        found = _NUMBER.search(text.replace(",", ""))
        if found is None:
            return None
        negative = text.lstrip().startswith(("-", "−", "(")) and not found.group().startswith("-")
        return -float(found.group()) if negative else float(found.group())
    if by == "date":
        try:
            if date_format:
                return datetime.strptime(text, date_format).date()
            return date.fromisoformat(text)
        except ValueError:
            return None
    return text.casefold()


def first_out_of_order(keys: list[Key], descending: bool) -> int | None:
    """The 1-based position of the first value out of order, or None when all are in order."""
    for i in range(1, len(keys)):
        a, b = keys[i - 1], keys[i]
        if (a < b) if descending else (b < a):  # type: ignore[operator]
            return i + 1
    return None


def sort_check(tree: Tree, entry: dict[str, Any], numbers: dict[str, Any]) -> Check:
    where = entry["values"]
    label = describe(where)
    by, order = str(entry.get("by") or "text"), str(entry["order"])
    values = values_of(tree, where)
    if not values or len(values) < 2:
        numbers[f"{label} sort"] = {"values": len(values or [])}
        return (f"{label}: fewer than two values, so its order ({order}) was not measured", False)
    keys = [sort_key(v.text, by, entry.get("date_format")) for v in values]
    unreadable = [i + 1 for i, k in enumerate(keys) if k is None]
    numbers[f"{label} sort"] = {"values": len(values), "by": by, "order": order}
    if unreadable:
        numbers[f"{label} sort"]["unreadable"] = unreadable
        return (f"{label}: value {unreadable[0]} does not read as a {by}", False)
    wrong = first_out_of_order([k for k in keys if k is not None], order == "desc")
    numbers[f"{label} sort"]["first_out_of_order"] = wrong
    if wrong is not None:
        return (f"{label}: not in {order} {by} order (value {wrong} breaks it)", False)
    return (f"{label}: {len(values)} values in {order} {by} order", True)
