"""A read-only view over probe.json's ``graphics`` section: inline SVG marks and text, the
charts they belong to and their legends, and the canvases a page declares as charts.

The section is written by the probe (argus/sense/graphics.js; docs/internals.md) or forged by
whoever wrote probe.json, so it is validated here: a malformed entry is an InputError naming
the field. A probe without the section (a project adapter's, an older sense) reads as
``Graphics.absent()``: nothing was recorded, which the gates say rather than pass over.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from argus.color import RGBA, parse_color
from argus.diff.masks import Box
from argus.errors import InputError
from argus.evidence.probe import Probe

# Shapes whose fill paints nothing (a line is all stroke).
FILL_LESS = frozenset({"line"})


@dataclass(frozen=True)
class Paint:
    """A fill or stroke as computed: a colour, nothing (``none``, transparent), or a paint
    server (gradient, pattern) or context paint no single colour describes."""

    raw: str
    color: RGBA | None  # None: nothing painted, or not a plain colour (see ``unmeasured``)
    unmeasured: str = ""  # why no colour stands for it ("" for a colour or nothing)

    @property
    def painted(self) -> bool:
        return self.unmeasured != "" or (self.color is not None and self.color.a > 0)


def paint_of(raw: str, where: str) -> Paint:
    value = raw.strip()
    low = value.lower()
    if low in ("", "none"):
        return Paint(value, None)
    if low.startswith("url("):
        return Paint(value, None, "a gradient or pattern (url(...)): no single colour")
    if low.startswith("context-"):
        return Paint(value, None, f"{low}: painted from the referencing element")
    try:
        return Paint(value, parse_color(value))
    except InputError as exc:
        raise InputError(f"{where} {value!r} is not a paint; re-sense the view") from exc


@dataclass(frozen=True)
class Mark:
    """One SVG shape or text run as drawn."""

    index: int
    svg: int  # the element index of the <svg> it is drawn in
    tag: str
    path: str  # a selector below the <svg> (the mark's id when it has one)
    id: str
    testid: str
    role: str
    name: str
    series: str  # the series it draws ("" when none is named)
    decorative: str  # why it is decoration ("aria-hidden", "role=presentation", ...) or ""
    box: Box
    fill: Paint
    stroke: Paint
    stroke_width: float
    opacity: float  # every group opacity from the mark up to the root, multiplied
    fill_opacity: float
    stroke_opacity: float
    text: str = ""
    font_size: float = 16.0
    font_weight: str = "400"

    @property
    def is_text(self) -> bool:
        return bool(self.text)

    def paints(self) -> list[tuple[str, Paint, float]]:
        """(property, paint, its alpha factor) for what the shape really paints."""
        out = []
        if self.tag not in FILL_LESS and self.fill.painted:
            out.append(("fill", self.fill, self.opacity * self.fill_opacity))
        if self.stroke_width > 0 and self.stroke.painted:
            out.append(("stroke", self.stroke, self.opacity * self.stroke_opacity))
        return [p for p in out if p[2] > 0]


@dataclass(frozen=True)
class Swatch:
    kind: str  # "mark" (an SVG shape) or "box" (an HTML element's background or border)
    color: Paint
    box: Box
    mark: int | None = None
    element: int | None = None


@dataclass(frozen=True)
class LegendItem:
    series: str
    label: str
    swatch: Swatch | None


@dataclass(frozen=True)
class Legend:
    source: str  # how it was found: "data-argus-legend", "role", "class"
    items: tuple[LegendItem, ...]
    items_total: int


@dataclass(frozen=True)
class Chart:
    svg: int
    role: str
    name: str
    legend: Legend | None


@dataclass(frozen=True)
class CanvasChart:
    element: int
    tag: str
    name: str
    how: str  # "role=img" (a named canvas) or "data-argus-chart"
    box: Box


@dataclass(frozen=True)
class Graphics:
    recorded: bool
    marks: tuple[Mark, ...] = ()
    marks_total: int = 0
    charts: tuple[Chart, ...] = ()
    charts_total: int = 0
    canvases: tuple[CanvasChart, ...] = ()
    canvases_total: int = 0
    # Canvases the page does not declare as charts (no role=img with a name, no
    # data-argus-chart): their bounds are not a chart's, so their pixels are not read.
    canvases_undeclared: int = 0

    @classmethod
    def absent(cls) -> Graphics:
        return cls(False)

    @property
    def marks_left_out(self) -> int:
        return max(0, self.marks_total - len(self.marks))

    @property
    def charts_left_out(self) -> int:
        """SVG charts past the probe's cap: their marks are no chart's, so none is checked as
        one (colours, legends, non-text contrast)."""
        return max(0, self.charts_total - len(self.charts))

    @property
    def canvases_left_out(self) -> int:
        """Declared canvas charts past the probe's cap: their pixels are not read."""
        return max(0, self.canvases_total - len(self.canvases))

    def left_out(self, *, canvases: bool = True) -> str:
        """What the probe's caps left out, for a gate's summary ("" when nothing); without
        the canvas charts for a gate that never reads them."""
        counts = (
            (self.marks_left_out, "SVG mark(s)"),
            (self.charts_left_out, "SVG chart(s)"),
            (self.canvases_left_out if canvases else 0, "canvas chart(s)"),
        )
        listed = [f"{count} {what}" for count, what in counts if count]
        return f"{', '.join(listed)} past the probe's cap not read" if listed else ""

    def chart_of(self, mark: Mark) -> Chart | None:
        for chart in self.charts:
            if chart.svg == mark.svg:
                return chart
        return None

    def swatch_marks(self) -> frozenset[int]:
        """Marks that are legend swatches (not data)."""
        return frozenset(
            item.swatch.mark
            for chart in self.charts
            if chart.legend is not None
            for item in chart.legend.items
            if item.swatch is not None and item.swatch.mark is not None
        )


def mark_selector(probe: Probe, mark: Mark) -> str:
    """A selector naming the mark: its id or test id, else its path below its <svg>."""
    if mark.testid:
        return f'[data-testid="{mark.testid}"]'
    if mark.path.startswith("#"):
        return mark.path
    return f"{probe.selector(probe.elements[mark.svg])} > {mark.path}"


def backdrop_marks(graphics: Graphics) -> frozenset[int]:
    """Filled shapes that hold a later, smaller shape of the same <svg> wholly inside them:
    a plot background, not a mark. Text (a value label inside a bar) and lines (an axis along
    a bar's foot) do not make one."""
    out: set[int] = set()
    for mark in graphics.marks:
        if mark.is_text or mark.box.width <= 0 or mark.box.height <= 0:
            continue
        for under in marks_under(graphics, mark):
            if _holds(under.box, mark.box):
                out.add(under.index)
    return frozenset(out)


def _holds(outer: Box, inner: Box) -> bool:
    return (
        outer.x <= inner.x
        and outer.y <= inner.y
        and inner.x + inner.width <= outer.x + outer.width
        and inner.y + inner.height <= outer.y + outer.height
    )


def marks_under(graphics: Graphics, mark: Mark) -> list[Mark]:
    """Earlier filled shapes of the same <svg> covering ``mark``'s centre, bottom first."""
    cx = mark.box.x + mark.box.width / 2
    cy = mark.box.y + mark.box.height / 2
    area = mark.box.width * mark.box.height
    return [
        other
        for other in graphics.marks[: mark.index]
        if other.svg == mark.svg
        and not other.is_text
        and other.tag != "line"
        and other.fill.color is not None
        and other.fill.color.a > 0
        and other.box.width * other.box.height > area
        and _contains(other.box, cx, cy)
    ]


def _contains(box: Box, x: float, y: float) -> bool:
    return box.x <= x <= box.x + box.width and box.y <= y <= box.y + box.height


def parse_graphics(data: Mapping[str, Any], probe: Probe, source: str = "probe.json") -> Graphics:
    raw = data.get("graphics")
    if raw is None:
        return Graphics.absent()
    where = f"{source}: graphics"
    if not isinstance(raw, dict):
        raise InputError(f"{where} must be an object; re-sense the view")
    marks = tuple(
        _mark(m, i, probe, f"{where}.marks[{i}]") for i, m in enumerate(_list(raw, "marks", where))
    )
    charts = tuple(
        _chart(c, probe, len(marks), f"{where}.charts[{i}]")
        for i, c in enumerate(_list(raw, "charts", where))
    )
    canvases = tuple(
        _canvas(c, probe, f"{where}.canvases[{i}]")
        for i, c in enumerate(_list(raw, "canvases", where))
    )
    return Graphics(
        True,
        marks,
        max(_int(raw.get("marks_total", len(marks)), f"{where}.marks_total"), len(marks)),
        charts,
        max(_int(raw.get("charts_total", len(charts)), f"{where}.charts_total"), len(charts)),
        canvases,
        max(
            _int(raw.get("canvases_total", len(canvases)), f"{where}.canvases_total"),
            len(canvases),
        ),
        _int(raw.get("canvases_undeclared", 0), f"{where}.canvases_undeclared"),
    )


def _list(raw: Mapping[str, Any], key: str, where: str) -> list[Any]:
    value = raw.get(key, [])
    if not isinstance(value, list):
        raise InputError(f"{where}.{key} must be a list; re-sense the view")
    return value


def _object(raw: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(raw, dict):
        raise InputError(f"{where} must be an object; re-sense the view")
    return raw


def _int(raw: Any, where: str) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < 0:
        raise InputError(f"{where} must be a non-negative integer")
    return raw


def _float(raw: Any, where: str, default: float) -> float:
    if raw is None:
        return default
    if isinstance(raw, bool) or not isinstance(raw, int | float):
        raise InputError(f"{where} must be a number")
    return float(raw)


def _str(raw: Mapping[str, Any], key: str, where: str) -> str:
    value = raw.get(key, "")
    if value is None:
        return ""
    if not isinstance(value, str):
        raise InputError(f"{where}.{key} must be a string")
    return value


def _box(raw: Any, where: str) -> Box:
    box = _object(raw, where)
    return Box(*(_float(box.get(k, 0), f"{where}.{k}", 0.0) for k in ("x", "y", "width", "height")))


def _element_index(raw: Any, probe: Probe, where: str, tag: str | None = None) -> int:
    index = _int(raw, where)
    if index >= len(probe.elements):
        raise InputError(f"{where} {index} is not an element index")
    if tag is not None and probe.elements[index].tag != tag:
        raise InputError(f"{where} {index} is a <{probe.elements[index].tag}>, not an <{tag}>")
    return index


def _mark(raw: Any, position: int, probe: Probe, where: str) -> Mark:
    m = _object(raw, where)
    if m.get("index", position) != position:
        raise InputError(f"{where}.index is {m.get('index')!r}, expected {position}")
    size = m.get("font_size")
    font_size = 16.0
    if isinstance(size, str) and size.endswith("px"):
        try:
            font_size = float(size[:-2])
        except ValueError:
            font_size = 16.0
    return Mark(
        index=position,
        svg=_element_index(m.get("svg"), probe, f"{where}.svg", "svg"),
        tag=_str(m, "tag", where).lower(),
        path=_str(m, "path", where) or _str(m, "tag", where),
        id=_str(m, "id", where),
        testid=_str(m, "testid", where),
        role=_str(m, "role", where),
        name=_str(m, "name", where),
        series=_str(m, "series", where),
        decorative=_str(m, "decorative", where),
        box=_box(m.get("box", {}), f"{where}.box"),
        fill=paint_of(_str(m, "fill", where) or "none", f"{where}.fill"),
        stroke=paint_of(_str(m, "stroke", where) or "none", f"{where}.stroke"),
        stroke_width=_float(m.get("stroke_width"), f"{where}.stroke_width", 1.0),
        opacity=_unit(m.get("opacity"), f"{where}.opacity"),
        fill_opacity=_unit(m.get("fill_opacity"), f"{where}.fill_opacity"),
        stroke_opacity=_unit(m.get("stroke_opacity"), f"{where}.stroke_opacity"),
        text=_str(m, "text", where).strip(),
        font_size=font_size,
        font_weight=_str(m, "font_weight", where) or "400",
    )


def _unit(raw: Any, where: str) -> float:
    return min(max(_float(raw, where, 1.0), 0.0), 1.0)


def _chart(raw: Any, probe: Probe, marks: int, where: str) -> Chart:
    c = _object(raw, where)
    legend_raw = c.get("legend")
    legend = None
    if legend_raw is not None:
        lg = _object(legend_raw, f"{where}.legend")
        items = tuple(
            _item(item, probe, marks, f"{where}.legend.items[{i}]")
            for i, item in enumerate(_list(lg, "items", f"{where}.legend"))
        )
        total = _int(lg.get("items_total", len(items)), f"{where}.legend.items_total")
        legend = Legend(_str(lg, "source", f"{where}.legend"), items, max(total, len(items)))
    return Chart(
        svg=_element_index(c.get("svg"), probe, f"{where}.svg", "svg"),
        role=_str(c, "role", where),
        name=_str(c, "name", where),
        legend=legend,
    )


def _item(raw: Any, probe: Probe, marks: int, where: str) -> LegendItem:
    item = _object(raw, where)
    swatch_raw = item.get("swatch")
    swatch = None
    if swatch_raw is not None:
        s = _object(swatch_raw, f"{where}.swatch")
        kind = _str(s, "kind", f"{where}.swatch")
        if kind not in ("mark", "box"):
            raise InputError(f"{where}.swatch.kind must be 'mark' or 'box'")
        mark = s.get("mark")
        if mark is not None and (_int(mark, f"{where}.swatch.mark") >= marks):
            raise InputError(f"{where}.swatch.mark {mark} is not a mark index")
        element = s.get("element")
        swatch = Swatch(
            kind,
            paint_of(_str(s, "color", f"{where}.swatch") or "none", f"{where}.swatch.color"),
            _box(s.get("box", {}), f"{where}.swatch.box"),
            mark,
            None if element is None else _element_index(element, probe, f"{where}.swatch.element"),
        )
    return LegendItem(_str(item, "series", where), _str(item, "label", where), swatch)


def _canvas(raw: Any, probe: Probe, where: str) -> CanvasChart:
    c = _object(raw, where)
    return CanvasChart(
        element=_element_index(c.get("element"), probe, f"{where}.element"),
        tag=_str(c, "tag", where),
        name=_str(c, "name", where),
        how=_str(c, "how", where),
        box=_box(c.get("box", {}), f"{where}.box"),
    )
