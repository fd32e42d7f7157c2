"""Which shown texts are figures (data), not headings or prose.

The hierarchy check holds every text to "no larger than the h1"; on a dashboard the largest
text is a KPI value, set large on purpose, and it leads as data, not as a heading. A text is a
figure when:

- its own text is a number, an amount or a date as a whole: ``$12,480``, ``€1.2M``, ``42%``,
  ``+3.5 %``, ``−1,204``, ``1 204,50 €``, ``3.4k``, ``2026-12-02``, ``12/02/2026``,
  ``Dec 2, 2026``, ``14:30`` (a currency or percent sign alone, drawn apart from its number,
  too), and it is not a heading element;
- it is, or sits inside, a table cell (role ``cell``/``gridcell``), a table or grid, or a
  ``<data>``, ``<meter>`` or ``<output>`` element;
- the spec's ``hierarchy.figures`` selectors name it or an ancestor.

The spec's ``hierarchy.headings`` selectors win over all of these: what they name (or what sits
inside it) is measured as a heading whatever its text. Selectors are those of snapshot masks:
``#id``, ``[data-testid=x]``, an id, a test id or a tag name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from argus.diff.masks import select_elements
from argus.judge.metric._context import MetricContext, Node

FIGURE_TAGS = frozenset({"table", "data", "meter", "output"})
FIGURE_ROLES = frozenset({"cell", "gridcell", "table", "grid", "meter"})

_SIGN = r"[+\-−±]?"
_MONEY = r"[$€£¥₹₩₽¢]"
_AMOUNT = (
    rf"{_SIGN}\s*(?:{_MONEY}\s*)?\d[\d\s.,'’]*"
    rf"(?:\s*(?:%|‰|{_MONEY}|bn|mn|[kmbtx×]))?"
)
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_DATES = (
    r"\d{4}-\d{1,2}-\d{1,2}",
    r"\d{1,2}[/.]\d{1,2}[/.]\d{2,4}",
    rf"{_MONTH}\s+\d{{1,2}},?\s+\d{{4}}",
    rf"\d{{1,2}}\.?\s+{_MONTH}\s+\d{{4}}",
    rf"{_MONTH}\s+\d{{4}}",
    r"\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]\.?m\.?)?",
)
FIGURE_TEXT = re.compile("|".join((_AMOUNT, rf"{_MONEY}|%|‰", *_DATES)), re.IGNORECASE | re.UNICODE)


@dataclass(frozen=True)
class Figures:
    indices: frozenset[int]  # probe element indices measured as data
    unmatched: tuple[str, ...]  # spec selectors that named no element


def is_figure_text(text: str) -> bool:
    """Whether ``text`` as a whole is a number, an amount or a date."""
    return FIGURE_TEXT.fullmatch(text.strip()) is not None


def figures(ctx: MetricContext) -> Figures:
    """The shown texts of the page that are figures (see the module docstring)."""
    options = ctx.contract.get("hierarchy")
    chosen: Mapping[str, Any] = options if isinstance(options, Mapping) else {}
    headings, unmatched_h = _named(ctx, chosen.get("headings"))
    marked, unmatched_f = _named(ctx, chosen.get("figures"))
    nodes = ctx.nodes
    found = set()
    for index, node in enumerate(nodes):
        line = _lineage(nodes, index)
        if headings & line:
            continue
        if marked & line or _is_figure(nodes, node, line):
            found.add(index)
    return Figures(frozenset(found), unmatched_h + unmatched_f)


def _is_figure(nodes: Sequence[Node], node: Node, line: set[int]) -> bool:
    if node.heading_level is None and is_figure_text(node.element.text):
        return True
    for index in line:
        other = nodes[index]
        if other.element.tag.lower() in FIGURE_TAGS or other.role in FIGURE_ROLES:
            return True
    return False


def _lineage(nodes: Sequence[Node], index: int) -> set[int]:
    """``index`` and the indices of its ancestors."""
    line = {index}
    parent = nodes[index].element.parent
    while parent is not None and parent not in line and 0 <= parent < len(nodes):
        line.add(parent)
        parent = nodes[parent].element.parent
    return line


def _named(ctx: MetricContext, selectors: object) -> tuple[set[int], tuple[str, ...]]:
    """The indices of the elements ``selectors`` name, and the selectors naming none."""
    if not isinstance(selectors, Iterable) or isinstance(selectors, str | bytes):
        return set(), ()
    wanted = [str(s) for s in selectors]
    if not wanted:
        return set(), ()
    hits, unmatched = select_elements(wanted, ctx.probe_raw, what="hierarchy selector")
    raw = ctx.probe_raw.get("elements", [])
    by_identity = {id(element): index for index, element in enumerate(raw)}
    return {by_identity[id(hit)] for hit in hits if id(hit) in by_identity}, unmatched
