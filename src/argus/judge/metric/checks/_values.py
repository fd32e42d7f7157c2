"""Where a typed check reads its values in the probe: a table's column, or a list's items.

A column is found by its header's text (white space collapsed): the header cell (``th`` or
role ``columnheader``) and, in every other row of its table, the cell at the same position
among the row's cells (``colspan`` is not followed). A list is the element with the given id
or ``data-testid``; its items are its child elements that show text. Each value is the text of
the cell or item with its descendants, in document order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from argus.evidence.probe import Element, Probe
from argus.judge._aria import collapse

CELL_TAGS = frozenset({"td", "th"})
CELL_ROLES = frozenset({"cell", "gridcell", "columnheader", "rowheader"})
TABLE_ROLES = frozenset({"table", "grid", "treegrid"})


@dataclass(frozen=True)
class Value:
    element: Element
    text: str


class Tree:
    """The probe's elements as a tree, with the roles the probe recorded."""

    def __init__(self, probe: Probe, raw_elements: list[Any]) -> None:
        self.probe = probe
        self.roles = [str(r.get("role") or "") if isinstance(r, dict) else "" for r in raw_elements]
        self.children: dict[int, list[Element]] = {}
        for element in probe.elements:
            if element.parent is not None:
                self.children.setdefault(element.parent, []).append(element)

    def by_id(self, ident: str) -> list[Element]:
        return [e for e in self.probe.elements if ident in (e.id, e.testid)]

    def descendants(self, root: Element) -> list[Element]:
        out: list[Element] = []
        stack = list(reversed(self.children.get(root.index, [])))
        while stack:
            node = stack.pop()
            out.append(node)
            stack.extend(reversed(self.children.get(node.index, [])))
        return out

    def text(self, element: Element) -> str:
        """The element's shown text with its descendants', in document order."""
        parts = [e.text for e in [element, *self.descendants(element)] if e.visible and e.has_text]
        return collapse(" ".join(parts))

    def is_cell(self, element: Element) -> bool:
        return element.tag in CELL_TAGS or self.roles[element.index] in CELL_ROLES

    def is_header(self, element: Element) -> bool:
        return element.tag == "th" or self.roles[element.index] == "columnheader"

    def table_of(self, element: Element) -> Element | None:
        for node in self.probe.ancestors(element):
            if node.tag == "table" or self.roles[node.index] in TABLE_ROLES:
                return node
        return None

    def cells(self, row: Element) -> list[Element]:
        return [c for c in self.children.get(row.index, []) if self.is_cell(c)]


def column_values(tree: Tree, column: str, table: str | None) -> list[Value] | None:
    """The column's cells below its header, or None when no header has that text."""
    scopes = tree.by_id(table) if table is not None else None
    wanted = collapse(column)
    for header in tree.probe.elements:
        if not (tree.is_header(header) and header.parent is not None):
            continue
        if tree.text(header) != wanted:
            continue
        grid = tree.table_of(header)
        if grid is None:
            continue
        if scopes is not None and not any(
            s.index == grid.index or s in tree.probe.ancestors(grid) for s in scopes
        ):
            continue
        row = tree.probe.elements[header.parent]
        position = [c.index for c in tree.cells(row)].index(header.index)
        out = []
        for node in tree.descendants(grid):
            if node.index == row.index or not tree.cells(node) or tree.table_of(node) != grid:
                continue
            cells = tree.cells(node)
            if position < len(cells) and cells[position].visible:
                out.append(Value(cells[position], tree.text(cells[position])))
        return out
    return None


def list_values(tree: Tree, ident: str) -> list[Value] | None:
    """The list's items that show text, or None when no element has that id."""
    found = tree.by_id(ident)
    if not found:
        return None
    items = [Value(e, tree.text(e)) for e in tree.children.get(found[0].index, []) if e.visible]
    return [item for item in items if item.text]


def values_of(tree: Tree, where: dict[str, Any]) -> list[Value] | None:
    """The values a contract entry names (``column``/``table`` or ``list``)."""
    if where.get("list"):
        return list_values(tree, str(where["list"]))
    return column_values(tree, str(where.get("column") or ""), where.get("table"))


def describe(where: dict[str, Any]) -> str:
    if where.get("list"):
        return f"list {where['list']!r}"
    table = f" of {where['table']!r}" if where.get("table") else ""
    return f"column {where.get('column')!r}{table}"
