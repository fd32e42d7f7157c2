"""numeric_columns: figures sit at the right edge of their cells, so digits line up.

Measured from geometry, not from a declared ``text-align``: each cell's text rectangles (the
probe's ``text_rects`` of the cell and its descendants) must end within ``TOLERANCE_PX`` of
the cell's content edge (its box less right border and padding). A cell whose text rectangles
were not recorded cannot be measured, and a column where no cell could be is a failed check,
never a pass.
"""

from __future__ import annotations

from typing import Any

from argus.judge.metric.checks._values import Tree, Value, describe, values_of

Check = tuple[str, bool]
TOLERANCE_PX = 2.0


def right_gap(tree: Tree, value: Value) -> float | None:
    """Space between the cell's text and its content edge (px); None: no text box recorded."""
    cell = value.element
    rects = [r for e in [cell, *tree.descendants(cell)] if e.visible for r in e.text_rects]
    if not rects:
        return None
    text_right = max(r.x + r.width for r in rects)
    inset = sum(cell.px(p) or 0.0 for p in ("padding-right", "border-right-width"))
    return cell.box.x + cell.box.width - inset - text_right


def numeric_column_check(tree: Tree, where: dict[str, Any], numbers: dict[str, Any]) -> Check:
    label = describe(where)
    values = values_of(tree, where)
    if not values:
        numbers[label] = {"cells": 0}
        return (f"{label}: not found, so its alignment was not measured", False)
    gaps = [right_gap(tree, v) for v in values]
    measured = [g for g in gaps if g is not None]
    off = [round(g, 1) for g in measured if g > TOLERANCE_PX]
    numbers[label] = {"cells": len(values), "measured": len(measured), "not_right_aligned": off}
    if not measured:
        return (
            f"{label}: no cell's text box was recorded, so its alignment was not measured",
            False,
        )
    if off:
        return (
            f"{label}: {len(off)} of {len(measured)} figure(s) are not right-aligned "
            f"(up to {max(off):g}px short of the cell's right edge)",
            False,
        )
    return (f"{label}: all {len(measured)} figures right-aligned", True)
