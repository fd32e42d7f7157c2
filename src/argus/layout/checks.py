"""The seven layout checks: each a pure function of one page and the settings, returning findings.

A visual that lists a check in ``_lintIgnore`` is invisible to that check (not part of its
pairs, rows or columns). Hidden visuals (bookmark toggles) and visual groups (which enclose
their members by design) take no part in the geometric checks 1, 3 and 4.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from argus.layout._geometry import (
    EPSILON,
    Axis,
    gaps,
    intersecting_pairs,
    lines,
    misalignment,
    neighbours,
    overlap,
)
from argus.layout.model import Box, Page, bound_roles
from argus.layout.reference import VisualTypes


@dataclass(frozen=True)
class Settings:
    equal_gap_px: float = 4.0
    column_align_px: float = 2.0  # columns' left/right edges and rows' top/bottom edges
    max_overrides: int = 10


@dataclass(frozen=True)
class Finding:
    check: str
    severity: str  # error | warning | info
    page: str
    visuals: tuple[str, ...]
    message: str
    fix: str
    measured: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "check": self.check,
            "name": CHECKS[self.check].name,
            "severity": self.severity,
            "page": self.page,
            "visuals": list(self.visuals),
            "message": self.message,
            "fix": self.fix,
            "measured": dict(self.measured),
        }


CheckFn = Callable[[Page, Settings, VisualTypes | None], Iterator[Finding]]


@dataclass(frozen=True)
class Check:
    id: str
    name: str
    severity: str
    pbir: bool  # runs only when PBIR checks are on
    needs_reference: bool
    summary: str
    run: CheckFn


def _n(value: float) -> str:
    return f"{value:g}"


def _subjects(page: Page, check: str, *, geometric: bool = False) -> list[Box]:
    """The boxes a check looks at: not opted out (by id or name), and for a geometric check
    neither hidden nor a group."""
    names = {check, CHECKS[check].name}
    return [
        b for b in page.boxes if not names & b.ignore and not (geometric and (b.hidden or b.group))
    ]


def no_overlap(page: Page, settings: Settings, types: VisualTypes | None) -> Iterator[Finding]:
    boxes = _subjects(page, "check-1", geometric=True)
    for i, j in intersecting_pairs(boxes):  # touching edges (0) are not overlap
        a, b = boxes[i], boxes[j]
        width, height = overlap(a, b, "x"), overlap(a, b, "y")
        yield Finding(
            "check-1",
            "error",
            page.name,
            (a.name, b.name),
            f"{a.name} and {b.name} overlap by {_n(width)}x{_n(height)} px",
            f"move {b.name} to x={_n(a.right)} (right of {a.name}) or to "
            f"y={_n(a.bottom)} (below it), or shrink one of them",
            {"overlap_width": width, "overlap_height": height},
        )


def within_canvas(page: Page, settings: Settings, types: VisualTypes | None) -> Iterator[Finding]:
    if page.width is None or page.height is None:
        return
    for box in _subjects(page, "check-2"):
        over_x = max(0.0, box.right - page.width, -box.x)
        over_y = max(0.0, box.bottom - page.height, -box.y)
        if over_x > EPSILON or over_y > EPSILON:
            x = min(max(box.x, 0.0), max(page.width - box.width, 0.0))
            y = min(max(box.y, 0.0), max(page.height - box.height, 0.0))
            yield Finding(
                "check-2",
                "error",
                page.name,
                (box.name,),
                f"{box.name} ({_n(box.x)},{_n(box.y)} {_n(box.width)}x{_n(box.height)}) "
                f"leaves the {_n(page.width)}x{_n(page.height)} canvas",
                f"move {box.name} to x={_n(x)}, y={_n(y)} or shrink it to fit",
                {"outside_x": over_x, "outside_y": over_y},
            )


def _misaligned(
    page: Page, check: str, found: list[list[Box]], axis: Axis, tolerance: float
) -> Iterator[Finding]:
    """One finding per pair of neighbours that miss their shared edge. The fix moves the box
    that misses more of its neighbours (the card 3 px below its row, not the row around it)."""
    pairs = [
        (a, b, miss)
        for a, b in neighbours(found)
        if (miss := misalignment(a, b, axis, tolerance)) is not None
    ]
    misses = Counter(id(box) for a, b, _ in pairs for box in (a, b))
    for a, b, miss in pairs:
        mover, anchor = (a, b) if misses[id(a)] > misses[id(b)] else (b, a)
        start = miss.edge in ("left", "top")
        if axis == "x":
            target, coordinate = (anchor.x if start else anchor.right - mover.width), "x"
            relation = "stacked with"
        else:
            target, coordinate = (anchor.y if start else anchor.bottom - mover.height), "y"
            relation = "in a row with"
        yield Finding(
            check,
            "warning",
            page.name,
            (a.name, b.name),
            f"{mover.name} is {relation} {anchor.name} but their {miss.edge} edges are "
            f"{_n(miss.offset)} px apart (> {_n(tolerance)})",
            f"set {mover.name} {coordinate}={_n(target)} to line up with {anchor.name}'s "
            f"{miss.edge} edge",
            {"offset": miss.offset, "edge": miss.edge, "tolerance": tolerance},
        )


def equal_gaps(page: Page, settings: Settings, types: VisualTypes | None) -> Iterator[Finding]:
    """Rows (docs/layout.md): the gaps between neighbours are even, and neighbours share a top
    or bottom edge (a card 3 px below its row is found)."""
    boxes = _subjects(page, "check-3", geometric=True)
    rows = lines(boxes, "y", settings.column_align_px, page.height)
    for row in rows:
        spaced = gaps(row, "x")
        if len(spaced) < 2:
            continue
        spread = max(spaced) - min(spaced)
        if spread > settings.equal_gap_px + EPSILON:
            target = sorted(spaced)[len(spaced) // 2]
            names = tuple(b.name for b in row)
            yield Finding(
                "check-3",
                "warning",
                page.name,
                names,
                f"gaps in the row {', '.join(names)} are {', '.join(_n(g) for g in spaced)} px "
                f"(spread {_n(spread)} > {_n(settings.equal_gap_px)})",
                f"space the row evenly at {_n(target)} px between neighbours",
                {"gaps": spaced, "spread": spread, "tolerance": settings.equal_gap_px},
            )
    yield from _misaligned(page, "check-3", rows, "y", settings.column_align_px)


def column_alignment(
    page: Page, settings: Settings, types: VisualTypes | None
) -> Iterator[Finding]:
    """Columns (docs/layout.md): stacked neighbours share a left or a right edge."""
    boxes = _subjects(page, "check-4", geometric=True)
    columns = lines(boxes, "x", settings.column_align_px, page.width)
    yield from _misaligned(page, "check-4", columns, "x", settings.column_align_px)


def _visual_type(box: Box) -> Any:
    return box.visual.get("visualType") if box.visual is not None else None


def no_empty_binding(
    page: Page, settings: Settings, types: VisualTypes | None
) -> Iterator[Finding]:
    assert types is not None
    for box in _subjects(page, "check-5"):
        kind = _visual_type(box)
        if box.visual is None or not isinstance(kind, str) or not types.is_data_visual(kind):
            continue
        if not bound_roles(box.visual):
            roles = ", ".join(types.roles[kind])
            yield Finding(
                "check-5",
                "error",
                page.name,
                (box.name,),
                f"{box.name} is a {kind} with no field bound in query.queryState",
                f"bind a field to one of {kind}'s roles ({roles}) or remove the visual",
                {"projections": 0},
            )


def _entry_properties(entry: Any) -> int:
    """The properties one formatting entry sets: its ``properties`` object (PBIR), else its own
    keys (a flat entry), never fewer than one for an entry that is not ``properties: {}``."""
    if not isinstance(entry, dict):
        return 1
    props = entry.get("properties")
    if isinstance(props, dict):
        return len(props)
    return len(set(entry) - {"selector", "$id"}) or 1


def _override_count(visual: Mapping[str, Any]) -> int:
    count = 0
    for key in ("objects", "visualContainerObjects"):
        objects = visual.get(key)
        if not isinstance(objects, dict):
            continue
        for entries in objects.values():
            for entry in entries if isinstance(entries, list) else [entries]:
                count += _entry_properties(entry)
    return count


def bounded_overrides(
    page: Page, settings: Settings, types: VisualTypes | None
) -> Iterator[Finding]:
    for box in _subjects(page, "check-6"):
        if box.visual is None:
            continue
        count = _override_count(box.visual)
        if count > settings.max_overrides:
            yield Finding(
                "check-6",
                "warning",
                page.name,
                (box.name,),
                f"{box.name} sets {count} formatting properties of its own "
                f"(limit {settings.max_overrides})",
                f"move {count - settings.max_overrides} or more of {box.name}'s objects/"
                "visualContainerObjects properties into the report theme",
                {"overrides": count, "limit": settings.max_overrides},
            )


def valid_types(page: Page, settings: Settings, types: VisualTypes | None) -> Iterator[Finding]:
    assert types is not None
    if not page.plain and str(page.display_option) not in types.display_options:
        shown = "missing" if page.display_option is None else "not a known value"
        yield Finding(
            "check-7",
            "error",
            page.name,
            (),
            f"page {page.name}: displayOption is {shown}",
            f"set displayOption to one of {', '.join(sorted(types.display_options))}",
            {"display_option_valid": False},
        )
    for box in _subjects(page, "check-7"):
        if box.visual is None:
            continue
        kind = _visual_type(box)
        if not isinstance(kind, str) or kind not in types.roles:
            yield Finding(
                "check-7",
                "error",
                page.name,
                (box.name,),
                f"{box.name}: visualType is not one the reference knows",
                "use a built-in visualType (argus layout lint --list-checks shows the reference), "
                f'or add "check-7" to {box.name}\'s _lintIgnore for a custom visual',
                {"visual_type_valid": False},
            )


CHECKS: dict[str, Check] = {
    c.id: c
    for c in (
        Check("check-1", "no-overlap", "error", False, False, "visuals do not overlap", no_overlap),
        Check("check-2", "within-canvas", "error", False, False, "inside the page", within_canvas),
        Check(
            "check-3",
            "equal-gaps",
            "warning",
            False,
            False,
            "rows: even gaps, a shared top or bottom edge",
            equal_gaps,
        ),
        Check(
            "check-4",
            "column-alignment",
            "warning",
            False,
            False,
            "columns: stacked neighbours share a left or right edge",
            column_alignment,
        ),
        Check(
            "check-5",
            "no-empty-binding",
            "error",
            True,
            True,
            "data visuals have a field bound",
            no_empty_binding,
        ),
        Check(
            "check-6",
            "bounded-overrides",
            "warning",
            True,
            False,
            "few per-visual formatting overrides",
            bounded_overrides,
        ),
        Check(
            "check-7",
            "valid-types",
            "error",
            True,
            True,
            "known visualType and page displayOption",
            valid_types,
        ),
    )
}
