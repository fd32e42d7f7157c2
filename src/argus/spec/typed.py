"""Typed checks a spec can state and the metric judge can measure without a reference image.

Per state, beside ``aria_snapshot``, ``counts``, ``texts`` and ``focus_order``:

- ``numeric_columns``: columns (or lists) of figures, right-aligned;
- ``formats``: every value of a column or list in a named format or matching a pattern;
- ``sort``: a column or list in ascending or descending order (as numbers, text or dates);
- ``shown``: elements the state must show, each optionally with a text (an empty or error
  state as the spec describes it);
- ``focus_trap``: whether Tab from inside a region can leave it.

The schema fixes the shapes; this module holds the frozen model, the semantic checks JSON
Schema cannot express (a pattern that does not compile, ``table`` without ``column``, a date
format for a non-date sort) and the contract form the judge reads.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any, Literal

FormatName = Literal["iso_date", "integer", "thousands", "decimal2", "currency", "percent"]
SortBy = Literal["number", "text", "date"]
DEFAULT_TRAP_PRESSES = 10


@dataclass(frozen=True)
class Values:
    """Where a check reads its values: a table's column by header text, or a list's items."""

    column: str | None = None
    table: str | None = None  # id or data-testid of the table; None: any table with the header
    list: str | None = None  # id or data-testid of an element whose children are the items


@dataclass(frozen=True)
class FormatCheck:
    values: Values
    format: FormatName | None = None
    pattern: str | None = None


@dataclass(frozen=True)
class SortCheck:
    values: Values
    order: Literal["asc", "desc"]
    by: SortBy = "text"
    date_format: str | None = None


@dataclass(frozen=True)
class ShownCheck:
    id: str
    text: str | None = None


@dataclass(frozen=True)
class FocusTrap:
    region: str
    traps: bool
    start: str | None = None  # the spec's "from": the control focused before the first Tab
    presses: int = DEFAULT_TRAP_PRESSES


@dataclass(frozen=True)
class TypedChecks:
    numeric_columns: tuple[Values, ...] = ()
    formats: tuple[FormatCheck, ...] = ()
    sort: tuple[SortCheck, ...] = ()
    shown: tuple[ShownCheck, ...] = ()
    focus_trap: FocusTrap | None = None

    def to_contract(self) -> dict[str, Any]:
        """The judge's contract form (only the checks the state states)."""
        out: dict[str, Any] = {}
        for name in ("numeric_columns", "formats", "sort", "shown"):
            items = getattr(self, name)
            if items:
                out[name] = [asdict(item) for item in items]
        if self.focus_trap is not None:
            out["focus_trap"] = asdict(self.focus_trap)
        return out


def _values(raw: Mapping[str, Any]) -> Values:
    return Values(column=raw.get("column"), table=raw.get("table"), list=raw.get("list"))


def parse_typed_checks(raw: Mapping[str, Any]) -> TypedChecks:
    """The typed checks of one schema-valid expectation."""
    trap = raw.get("focus_trap")
    return TypedChecks(
        numeric_columns=tuple(_values(v) for v in raw.get("numeric_columns", ())),
        formats=tuple(
            FormatCheck(_values(f), format=f.get("format"), pattern=f.get("pattern"))
            for f in raw.get("formats", ())
        ),
        sort=tuple(
            SortCheck(
                _values(s),
                order=s["order"],
                by=s.get("by", "text"),
                date_format=s.get("date_format"),
            )
            for s in raw.get("sort", ())
        ),
        shown=tuple(ShownCheck(s["id"], s.get("text")) for s in raw.get("shown", ())),
        focus_trap=None
        if trap is None
        else FocusTrap(
            region=trap["region"],
            traps=trap["traps"],
            start=trap.get("from"),
            presses=trap.get("presses", DEFAULT_TRAP_PRESSES),
        ),
    )


def typed_check_issues(at: str, raw: Mapping[str, Any], adapter: str) -> Iterator[tuple[str, str]]:
    """(JSON path, problem) for what the schema lets through in one state's expectation."""
    for key in ("numeric_columns", "formats", "sort"):
        for i, item in enumerate(raw.get(key, ())):
            if "table" in item and "column" not in item:
                yield f"{at}.{key}[{i}].table", "'table' names where a 'column' is; add 'column'"
    for i, item in enumerate(raw.get("formats", ())):
        if "pattern" in item:
            try:
                re.compile(item["pattern"])
            except re.error as exc:
                yield f"{at}.formats[{i}].pattern", f"not a regular expression ({exc})"
    for i, item in enumerate(raw.get("sort", ())):
        if "date_format" not in item:
            continue
        if item.get("by") != "date":
            yield f"{at}.sort[{i}].date_format", "only a 'by': 'date' sort reads a date format"
        elif "%" not in item["date_format"] or not _formats_a_date(item["date_format"]):
            yield f"{at}.sort[{i}].date_format", "not a strftime date pattern (e.g. '%d %b %Y')"
    if "focus_trap" in raw and adapter != "web":
        yield f"{at}.focus_trap", f"the focus walk runs only in the web sensor, not '{adapter}'"


def _formats_a_date(pattern: str) -> bool:
    try:
        return bool(datetime(2026, 3, 1).strftime(pattern))
    except ValueError:
        return False
