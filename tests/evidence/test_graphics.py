"""probe.json's graphics section as the chart gates read it: every field of a mark, chart,
legend item and canvas read with its default, each malformed entry refused naming its field,
and the geometry the gates ask of it (which marks lie under another, which are backdrops)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from argus.color import RGBA, parse_color
from argus.diff.masks import Box
from argus.errors import InputError
from argus.evidence.graphics import (
    CanvasChart,
    Chart,
    Graphics,
    Legend,
    LegendItem,
    Mark,
    Paint,
    Swatch,
    backdrop_marks,
    mark_selector,
    marks_under,
    paint_of,
    parse_graphics,
)
from argus.evidence.probe import parse_probe
from tests.gates.probes import el, page

WHERE = "probe.json: graphics"
BLUE = parse_color("rgb(52, 71, 196)")
NONE = Paint("none", None)


def doc(
    *marks: dict[str, Any],
    charts: tuple[dict[str, Any], ...] = (),
    canvases: tuple[dict[str, Any], ...] = (),
    **section: Any,
) -> dict[str, Any]:
    """Elements: 0 body, 1 <svg id=chart>, 2 <div id=key>, 3 <canvas>, 4 a second <svg>."""
    out = page(
        el("svg", id="chart"),
        el("div", id="key"),
        el("canvas", id="sales"),
        el("svg", parent=2),
    )
    out["graphics"] = {
        "marks": list(marks),
        "charts": list(charts),
        "canvases": list(canvases),
        **section,
    }
    return out


def read(data: dict[str, Any], **kw: Any) -> Graphics:
    return parse_graphics(data, parse_probe(data), **kw)


def refused(data: dict[str, Any], message: str, **kw: Any) -> None:
    """The whole one-line refusal, exactly."""
    with pytest.raises(InputError, match=f"^{re.escape(message)}$"):
        read(data, **kw)


def rect(x: float, y: float, w: float, h: float, **kw: Any) -> dict[str, Any]:
    return {"svg": 1, "tag": "rect", "box": {"x": x, "y": y, "width": w, "height": h}, **kw}


# --- the section and its totals ---


def test_a_probe_without_the_section_is_absent_not_empty() -> None:
    data = doc()
    del data["graphics"]
    assert read(data) == Graphics.absent() == Graphics(False)
    assert Graphics.absent().recorded is False
    assert read(doc()) == Graphics(True)


def test_the_totals_are_read_and_never_below_the_entries_read() -> None:
    one = rect(0, 0, 1, 1)
    canvas = {"element": 3}
    full = read(
        doc(
            one,
            charts=({"svg": 1},),
            canvases=(canvas,),
            marks_total=7,
            charts_total=4,
            canvases_total=5,
            canvases_undeclared=2,
        )
    )
    assert (full.marks_total, full.charts_total, full.canvases_total) == (7, 4, 5)
    assert full.canvases_undeclared == 2
    assert full.marks_left_out == 6
    low = read(
        doc(
            one,
            one | {"index": 1},
            charts=({"svg": 1},),
            marks_total=0,
            charts_total=0,
            canvases_undeclared=0,
        )
    )
    assert (low.marks_total, low.charts_total) == (2, 1)
    assert (low.canvases_undeclared, low.marks_left_out) == (0, 0)
    counted = read(doc(one, one, charts=({"svg": 1},), canvases=(canvas, canvas, canvas)))
    assert (counted.marks_total, counted.charts_total, counted.canvases_total) == (2, 1, 3)
    assert counted.canvases_undeclared == 0


def test_a_canvas_total_below_the_canvases_read_is_raised_to_their_count() -> None:
    """As for marks and charts: a forged total cannot say fewer canvases than were read."""
    canvas = {"element": 3}
    assert read(doc(canvases=(canvas, canvas), canvases_total=1)).canvases_total == 2
    assert read(doc(canvases=(canvas, canvas), canvases_total=0)).canvases_total == 2


def test_what_the_caps_left_out_is_counted_and_said() -> None:
    mark = read(doc(rect(0, 0, 1, 1))).marks[0]
    chart = read(doc(charts=({"svg": 1},))).charts[0]
    full = Graphics(True, (mark,), 3, (chart,), 5, (), 2)
    assert (full.charts_left_out, full.canvases_left_out) == (4, 2)
    assert full.left_out() == (
        "2 SVG mark(s), 4 SVG chart(s), 2 canvas chart(s) past the probe's cap not read"
    )
    assert full.left_out(canvases=False) == (
        "2 SVG mark(s), 4 SVG chart(s) past the probe's cap not read"
    )
    assert Graphics(True, (), 0, (chart,), 1, (), 2).left_out() == (
        "2 canvas chart(s) past the probe's cap not read"
    )
    assert Graphics(True, (mark, mark), 1, (chart, chart), 1).left_out() == ""


def test_marks_left_out_is_never_negative() -> None:
    mark = read(doc(rect(0, 0, 1, 1))).marks[0]
    assert Graphics(True, (mark, mark), marks_total=1).marks_left_out == 0
    assert Graphics(True, (mark,), marks_total=3).marks_left_out == 2


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ([], f"{WHERE} must be an object; re-sense the view"),
        ({"marks": {}}, f"{WHERE}.marks must be a list; re-sense the view"),
        ({"charts": "x"}, f"{WHERE}.charts must be a list; re-sense the view"),
        ({"canvases": None}, f"{WHERE}.canvases must be a list; re-sense the view"),
        ({"marks_total": -1}, f"{WHERE}.marks_total must be a non-negative integer"),
        ({"marks_total": True}, f"{WHERE}.marks_total must be a non-negative integer"),
        ({"charts_total": 1.0}, f"{WHERE}.charts_total must be a non-negative integer"),
        ({"canvases_total": "2"}, f"{WHERE}.canvases_total must be a non-negative integer"),
        (
            {"canvases_undeclared": -2},
            f"{WHERE}.canvases_undeclared must be a non-negative integer",
        ),
    ],
)
def test_a_malformed_section_is_refused_naming_the_field(section: Any, message: str) -> None:
    data = doc()
    data["graphics"] = section
    refused(data, message)


def test_the_refusal_names_the_file_it_was_read_from() -> None:
    data = doc()
    data["graphics"] = 3
    refused(
        data,
        "views/home/probe.json: graphics must be an object; re-sense the view",
        source="views/home/probe.json",
    )


# --- marks ---


def test_every_field_of_a_mark_is_read() -> None:
    raw = {
        "index": 0,
        "svg": 1,
        "tag": "TSpan",
        "path": "g > tspan:nth-of-type(2)",
        "id": "jan",
        "testid": "bar-jan",
        "role": "img",
        "name": "January",
        "series": "sales",
        "decorative": "aria-hidden",
        "box": {"x": 1.5, "y": 2, "width": 30, "height": 40.25},
        "fill": " rgb(52, 71, 196) ",
        "stroke": "url(#grad)",
        "stroke_width": 2,
        "opacity": 0.5,
        "fill_opacity": 0.25,
        "stroke_opacity": 0.75,
        "text": "  120  ",
        "font_size": "12.5px",
        "font_weight": "700",
    }
    (mark,) = read(doc(raw)).marks
    assert mark == Mark(
        index=0,
        svg=1,
        tag="tspan",
        path="g > tspan:nth-of-type(2)",
        id="jan",
        testid="bar-jan",
        role="img",
        name="January",
        series="sales",
        decorative="aria-hidden",
        box=Box(1.5, 2.0, 30.0, 40.25),
        fill=Paint("rgb(52, 71, 196)", BLUE),
        stroke=Paint("url(#grad)", None, "a gradient or pattern (url(...)): no single colour"),
        stroke_width=2.0,
        opacity=0.5,
        fill_opacity=0.25,
        stroke_opacity=0.75,
        text="120",
        font_size=12.5,
        font_weight="700",
    )
    assert isinstance(mark.stroke_width, float) and isinstance(mark.box.y, float)


def test_a_bare_mark_reads_its_defaults() -> None:
    """Only the svg given, at position 1 (no index: its position is its index)."""
    marks = read(doc(rect(0, 0, 1, 1), {"svg": 4, "id": None})).marks
    assert marks[1] == Mark(
        index=1,
        svg=4,
        tag="",
        path="",
        id="",
        testid="",
        role="",
        name="",
        series="",
        decorative="",
        box=Box(0.0, 0.0, 0.0, 0.0),
        fill=NONE,
        stroke=NONE,
        stroke_width=1.0,
        opacity=1.0,
        fill_opacity=1.0,
        stroke_opacity=1.0,
        text="",
        font_size=16.0,
        font_weight="400",
    )
    assert marks[0].path == "rect"  # no path: the tag names it below its <svg>


def test_a_box_side_given_as_null_reads_as_zero() -> None:
    raw = rect(0, 0, 1, 1)
    raw["box"] = {"x": None, "y": 2, "width": None, "height": None}
    assert read(doc(raw)).marks[0].box == Box(0.0, 2.0, 0.0, 0.0)


@pytest.mark.parametrize(
    ("size", "px"),
    [("9px", 9.0), ("wide px", 16.0), ("px", 16.0), ("12", 16.0), (12, 16.0), (None, 16.0)],
)
def test_a_marks_font_size_is_read_in_px_else_16(size: Any, px: float) -> None:
    assert read(doc(rect(0, 0, 1, 1, font_size=size))).marks[0].font_size == px


@pytest.mark.parametrize(
    ("given", "read_as"), [(1.5, 1.0), (-0.25, 0.0), (0, 0.0), (1, 1.0), (0.4, 0.4)]
)
def test_opacities_are_held_to_zero_to_one(given: float, read_as: float) -> None:
    raw = rect(0, 0, 1, 1, opacity=given, fill_opacity=given, stroke_opacity=given)
    mark = read(doc(raw)).marks[0]
    assert (mark.opacity, mark.fill_opacity, mark.stroke_opacity) == (read_as,) * 3


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("nope", f"{WHERE}.marks[0] must be an object; re-sense the view"),
        ({"index": 1}, f"{WHERE}.marks[0].index is 1, expected 0"),
        ({"index": None}, f"{WHERE}.marks[0].index is None, expected 0"),
        ({"svg": None}, f"{WHERE}.marks[0].svg must be a non-negative integer"),
        ({"svg": 5}, f"{WHERE}.marks[0].svg 5 is not an element index"),
        ({"svg": 2}, f"{WHERE}.marks[0].svg 2 is a <div>, not an <svg>"),
        ({"tag": 3}, f"{WHERE}.marks[0].tag must be a string"),
        ({"path": ["g"]}, f"{WHERE}.marks[0].path must be a string"),
        ({"id": 1}, f"{WHERE}.marks[0].id must be a string"),
        ({"testid": 1}, f"{WHERE}.marks[0].testid must be a string"),
        ({"role": 1}, f"{WHERE}.marks[0].role must be a string"),
        ({"name": 1}, f"{WHERE}.marks[0].name must be a string"),
        ({"series": 1}, f"{WHERE}.marks[0].series must be a string"),
        ({"decorative": True}, f"{WHERE}.marks[0].decorative must be a string"),
        ({"text": 1}, f"{WHERE}.marks[0].text must be a string"),
        ({"font_weight": 700}, f"{WHERE}.marks[0].font_weight must be a string"),
        ({"fill": 1}, f"{WHERE}.marks[0].fill must be a string"),
        ({"stroke": 1}, f"{WHERE}.marks[0].stroke must be a string"),
        (
            {"stroke": "wobbly"},
            f"{WHERE}.marks[0].stroke 'wobbly' is not a paint; re-sense the view",
        ),
        ({"fill": " bad "}, f"{WHERE}.marks[0].fill 'bad' is not a paint; re-sense the view"),
        ({"box": [0, 0, 1, 1]}, f"{WHERE}.marks[0].box must be an object; re-sense the view"),
        ({"box": {"x": "1"}}, f"{WHERE}.marks[0].box.x must be a number"),
        ({"box": {"y": True}}, f"{WHERE}.marks[0].box.y must be a number"),
        ({"box": {"width": False}}, f"{WHERE}.marks[0].box.width must be a number"),
        ({"box": {"height": []}}, f"{WHERE}.marks[0].box.height must be a number"),
        ({"stroke_width": "2"}, f"{WHERE}.marks[0].stroke_width must be a number"),
        ({"stroke_width": False}, f"{WHERE}.marks[0].stroke_width must be a number"),
        ({"opacity": "1"}, f"{WHERE}.marks[0].opacity must be a number"),
        ({"fill_opacity": True}, f"{WHERE}.marks[0].fill_opacity must be a number"),
        ({"stroke_opacity": "0"}, f"{WHERE}.marks[0].stroke_opacity must be a number"),
    ],
)
def test_a_malformed_mark_is_refused_naming_the_field(change: Any, message: str) -> None:
    raw = change if isinstance(change, str) else {"svg": 1, "tag": "rect", **change}
    refused(doc(raw), message)


def test_the_second_mark_is_named_by_its_position() -> None:
    refused(doc(rect(0, 0, 1, 1), {"svg": 0}), f"{WHERE}.marks[1].svg 0 is a <body>, not an <svg>")


# --- paints ---


@pytest.mark.parametrize(
    ("raw", "paint"),
    [
        ("", Paint("", None)),
        ("  ", Paint("", None)),
        (" NONE ", Paint("NONE", None)),
        ("URL(#g)", Paint("URL(#g)", None, "a gradient or pattern (url(...)): no single colour")),
        (
            " Context-Stroke ",
            Paint("Context-Stroke", None, "context-stroke: painted from the referencing element"),
        ),
        ("rgb(52, 71, 196)", Paint("rgb(52, 71, 196)", BLUE)),
        ("transparent", Paint("transparent", RGBA(0, 0, 0, 0))),
    ],
)
def test_a_paint_is_a_colour_nothing_or_unmeasured(raw: str, paint: Paint) -> None:
    assert paint_of(raw, "fill") == paint


def test_a_paint_that_is_no_colour_is_refused_naming_where() -> None:
    with pytest.raises(InputError, match=r"^x\.fill 'blurple' is not a paint; re-sense the view$"):
        paint_of(" blurple ", "x.fill")


def test_what_a_paint_paints() -> None:
    assert not Paint("none", None).painted
    assert not Paint("transparent", RGBA(0, 0, 0, 0)).painted
    assert Paint("#000", RGBA(0, 0, 0, 0.01)).painted
    assert Paint("url(#g)", None, "a gradient").painted


def mark_with(**kw: Any) -> Mark:
    return read(doc(rect(0, 0, 10, 10, **kw))).marks[0]


def test_a_shape_paints_its_fill_and_a_stroked_outline_with_their_alphas() -> None:
    both = mark_with(
        fill="rgb(52, 71, 196)",
        stroke="#000",
        stroke_width=2,
        opacity=0.5,
        fill_opacity=0.5,
        stroke_opacity=0.8,
    )
    assert both.paints() == [
        ("fill", both.fill, 0.25),
        ("stroke", both.stroke, 0.4),
    ]
    assert mark_with(fill="rgb(52, 71, 196)", stroke="#000", stroke_width=0).paints() == [
        ("fill", Paint("rgb(52, 71, 196)", BLUE), 1.0)
    ]
    # a line's fill paints nothing, whatever it says
    line = mark_with(tag="line", fill="rgb(52, 71, 196)", stroke="#000")
    assert [p[0] for p in line.paints()] == ["stroke"]
    assert mark_with(fill="none", stroke="none").paints() == []
    # a fully transparent part is not painted
    assert [
        p[0] for p in mark_with(fill="rgb(52, 71, 196)", stroke="#000", fill_opacity=0).paints()
    ] == ["stroke"]
    assert [
        p[0] for p in mark_with(fill="rgb(52, 71, 196)", stroke="#000", stroke_opacity=0).paints()
    ] == ["fill"]
    assert mark_with(fill="rgb(52, 71, 196)", stroke="#000", opacity=0).paints() == []


def test_a_mark_is_text_when_it_has_text() -> None:
    assert mark_with(tag="text", text=" 12 ").is_text
    assert not mark_with(tag="text", text="   ").is_text


# --- charts and legends ---


def test_a_chart_and_its_legend_are_read() -> None:
    chart = {
        "svg": 4,
        "role": "img",
        "name": "Sales",
        "legend": {
            "source": "data-argus-legend",
            "items_total": 5,
            "items": [
                {
                    "series": "north",
                    "label": "North",
                    "swatch": {
                        "kind": "mark",
                        "mark": 1,
                        "color": "rgb(52, 71, 196)",
                        "box": {"x": 1, "y": 2, "width": 3, "height": 4},
                    },
                },
                {
                    "series": "south",
                    "label": "South",
                    "swatch": {"kind": "box", "element": 2, "color": " ", "mark": None},
                },
                {"label": "East"},
            ],
        },
    }
    graphics = read(doc(rect(0, 0, 1, 1), rect(0, 0, 1, 1), charts=({"svg": 1}, chart)))
    assert graphics.charts == (
        Chart(1, "", "", None),
        Chart(
            4,
            "img",
            "Sales",
            Legend(
                "data-argus-legend",
                (
                    LegendItem(
                        "north",
                        "North",
                        Swatch("mark", Paint("rgb(52, 71, 196)", BLUE), Box(1, 2, 3, 4), 1, None),
                    ),
                    LegendItem(
                        "south", "South", Swatch("box", Paint("", None), Box(0, 0, 0, 0), None, 2)
                    ),
                    LegendItem("", "East", None),
                ),
                5,
            ),
        ),
    )


def test_a_legends_total_is_never_below_its_items() -> None:
    def total(legend: dict[str, Any]) -> int:
        (chart,) = read(doc(charts=({"svg": 1, "legend": legend},))).charts
        assert chart.legend is not None
        return chart.legend.items_total

    items = [{"label": "A"}, {"label": "B"}]
    assert total({"items": items}) == 2
    assert total({"items": items, "items_total": 1}) == 2
    assert total({"items": items, "items_total": 9}) == 9
    assert total({}) == 0


@pytest.mark.parametrize(
    ("chart", "message"),
    [
        (7, f"{WHERE}.charts[0] must be an object; re-sense the view"),
        ({}, f"{WHERE}.charts[0].svg must be a non-negative integer"),
        ({"svg": 3}, f"{WHERE}.charts[0].svg 3 is a <canvas>, not an <svg>"),
        ({"svg": 1, "role": 1}, f"{WHERE}.charts[0].role must be a string"),
        ({"svg": 1, "name": 1}, f"{WHERE}.charts[0].name must be a string"),
        (
            {"svg": 1, "legend": []},
            f"{WHERE}.charts[0].legend must be an object; re-sense the view",
        ),
        ({"svg": 1, "legend": {"source": 1}}, f"{WHERE}.charts[0].legend.source must be a string"),
        (
            {"svg": 1, "legend": {"items": {}}},
            f"{WHERE}.charts[0].legend.items must be a list; re-sense the view",
        ),
        (
            {"svg": 1, "legend": {"items_total": -1}},
            f"{WHERE}.charts[0].legend.items_total must be a non-negative integer",
        ),
    ],
)
def test_a_malformed_chart_is_refused_naming_the_field(chart: Any, message: str) -> None:
    refused(doc(charts=(chart,)), message)


ITEM = f"{WHERE}.charts[0].legend.items[0]"


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ("x", f"{ITEM} must be an object; re-sense the view"),
        ({"series": 1}, f"{ITEM}.series must be a string"),
        ({"label": 1}, f"{ITEM}.label must be a string"),
        ({"swatch": "x"}, f"{ITEM}.swatch must be an object; re-sense the view"),
        ({"swatch": {}}, f"{ITEM}.swatch.kind must be 'mark' or 'box'"),
        ({"swatch": {"kind": "MARK"}}, f"{ITEM}.swatch.kind must be 'mark' or 'box'"),
        ({"swatch": {"kind": 1}}, f"{ITEM}.swatch.kind must be a string"),
        ({"swatch": {"kind": "mark", "mark": 2}}, f"{ITEM}.swatch.mark 2 is not a mark index"),
        ({"swatch": {"kind": "mark", "mark": 5}}, f"{ITEM}.swatch.mark 5 is not a mark index"),
        (
            {"swatch": {"kind": "mark", "mark": "0"}},
            f"{ITEM}.swatch.mark must be a non-negative integer",
        ),
        ({"swatch": {"kind": "box", "color": 3}}, f"{ITEM}.swatch.color must be a string"),
        (
            {"swatch": {"kind": "box", "color": "wobbly"}},
            f"{ITEM}.swatch.color 'wobbly' is not a paint; re-sense the view",
        ),
        (
            {"swatch": {"kind": "box", "box": None}},
            f"{ITEM}.swatch.box must be an object; re-sense the view",
        ),
        (
            {"swatch": {"kind": "box", "box": {"width": "3"}}},
            f"{ITEM}.swatch.box.width must be a number",
        ),
        (
            {"swatch": {"kind": "box", "element": 5}},
            f"{ITEM}.swatch.element 5 is not an element index",
        ),
        (
            {"swatch": {"kind": "box", "element": -1}},
            f"{ITEM}.swatch.element must be a non-negative integer",
        ),
    ],
)
def test_a_malformed_legend_item_is_refused_naming_the_field(item: Any, message: str) -> None:
    chart = {"svg": 1, "legend": {"items": [item]}}
    refused(doc(rect(0, 0, 1, 1), rect(0, 0, 1, 1), charts=(chart,)), message)


def test_a_swatch_may_name_the_last_mark_and_any_element() -> None:
    swatch = {"kind": "mark", "mark": 1, "element": 4}
    chart = {"svg": 1, "legend": {"items": [{"swatch": swatch}]}}
    (chart_read,) = read(doc(rect(0, 0, 1, 1), rect(0, 0, 1, 1), charts=(chart,))).charts
    assert chart_read.legend is not None
    item = chart_read.legend.items[0]
    assert item.swatch == Swatch("mark", NONE, Box(0, 0, 0, 0), 1, 4)


def test_swatch_marks_are_the_legends_mark_swatches() -> None:
    def legend(*swatches: dict[str, Any] | None) -> dict[str, Any]:
        return {"items": [{} if s is None else {"swatch": s} for s in swatches]}

    graphics = read(
        doc(
            *(rect(0, 0, 1, 1) for _ in range(4)),
            charts=(
                {
                    "svg": 1,
                    "legend": legend(
                        {"kind": "mark", "mark": 0}, None, {"kind": "box", "element": 2}
                    ),
                },
                {"svg": 4},
                {"svg": 4, "legend": legend({"kind": "mark", "mark": 3})},
            ),
        )
    )
    assert graphics.swatch_marks() == frozenset({0, 3})
    assert Graphics(True).swatch_marks() == frozenset()


def test_a_mark_belongs_to_the_chart_of_its_svg() -> None:
    graphics = read(
        doc(
            rect(0, 0, 1, 1),
            rect(0, 0, 1, 1) | {"svg": 4},
            charts=({"svg": 4, "name": "B"}, {"svg": 1, "name": "A"}),
        )
    )
    first, second = graphics.marks
    assert graphics.chart_of(first) == Chart(1, "", "A", None)
    assert graphics.chart_of(second) == Chart(4, "", "B", None)
    alone = read(doc(rect(0, 0, 1, 1), charts=({"svg": 4},)))
    assert alone.chart_of(alone.marks[0]) is None


# --- canvases ---


def test_a_canvas_is_read_with_its_defaults() -> None:
    raw = {
        "element": 3,
        "tag": "canvas",
        "name": "Sales",
        "how": "role=img",
        "box": {"x": 5, "y": 6, "width": 70, "height": 80},
    }
    graphics = read(doc(canvases=(raw, {"element": 2})))
    assert graphics.canvases == (
        CanvasChart(3, "canvas", "Sales", "role=img", Box(5, 6, 70, 80)),
        CanvasChart(2, "", "", "", Box(0, 0, 0, 0)),
    )


CANVAS = f"{WHERE}.canvases[0]"


@pytest.mark.parametrize(
    ("canvas", "message"),
    [
        (None, f"{CANVAS} must be an object; re-sense the view"),
        ({}, f"{CANVAS}.element must be a non-negative integer"),
        ({"element": 5}, f"{CANVAS}.element 5 is not an element index"),
        ({"element": 3, "tag": 1}, f"{CANVAS}.tag must be a string"),
        ({"element": 3, "name": 1}, f"{CANVAS}.name must be a string"),
        ({"element": 3, "how": 1}, f"{CANVAS}.how must be a string"),
        ({"element": 3, "box": 1}, f"{CANVAS}.box must be an object; re-sense the view"),
        ({"element": 3, "box": {"x": "0"}}, f"{CANVAS}.box.x must be a number"),
    ],
)
def test_a_malformed_canvas_is_refused_naming_the_field(canvas: Any, message: str) -> None:
    refused(doc(canvases=(canvas,)), message)


# --- naming a mark ---


def test_a_mark_is_named_by_test_id_then_id_then_its_path_below_its_svg() -> None:
    data = doc(
        rect(0, 0, 1, 1, testid="bar", path="#jan"),
        rect(0, 0, 1, 1, path="#feb"),
        rect(0, 0, 1, 1, path="g > rect:nth-of-type(3)"),
        rect(0, 0, 1, 1, svg=4),
    )
    probe = parse_probe(data)
    names = [mark_selector(probe, m) for m in parse_graphics(data, probe).marks]
    assert names == [
        '[data-testid="bar"]',
        "#feb",
        "#chart > g > rect:nth-of-type(3)",
        "#key > svg > rect",
    ]


# --- what lies under a mark ---


def under(data: dict[str, Any], index: int) -> list[int]:
    graphics = read(data)
    return [m.index for m in marks_under(graphics, graphics.marks[index])]


def test_marks_under_are_earlier_bigger_filled_shapes_of_the_svg_over_the_centre() -> None:
    top = rect(40, 40, 20, 20, fill="#000")  # centre (50, 50), area 400
    shapes = [
        rect(0, 0, 100, 100, fill="rgb(52, 71, 196)"),  # 0: under
        rect(0, 0, 100, 100, fill="rgb(52, 71, 196)", svg=4),  # 1: another <svg>
        rect(0, 0, 100, 100, tag="text", text="Sales", fill="#000"),  # 2: text
        rect(0, 0, 100, 100, tag="line", fill="#000"),  # 3: a line
        rect(0, 0, 100, 100, fill="none"),  # 4: no fill
        rect(0, 0, 100, 100, fill="url(#g)"),  # 5: no single colour
        rect(0, 0, 100, 100, fill="transparent"),  # 6: transparent
        rect(40, 40, 20, 20, fill="rgb(52, 71, 196)"),  # 7: same area
        rect(50, 50, 50, 50, fill="rgb(52, 71, 196)"),  # 8: the centre on its corner
        rect(0, 0, 50, 50, fill="rgb(52, 71, 196)"),  # 9: the centre on its far corner
        rect(51, 0, 49, 100, fill="rgb(52, 71, 196)"),  # 10: right of the centre
        rect(0, 51, 100, 49, fill="rgb(52, 71, 196)"),  # 11: below it
        rect(0, 0, 49.9, 100, fill="rgb(52, 71, 196)"),  # 12: left of it
        rect(0, 0, 100, 49.9, fill="rgb(52, 71, 196)"),  # 13: above it
        rect(0, 0, 100, 100, fill="rgba(0, 0, 0, 0.1)"),  # 14: faint but painted
    ]
    data = doc(*shapes, top, rect(0, 0, 200, 200, fill="#000"))
    assert under(data, len(shapes)) == [0, 8, 9, 14]


def test_a_backdrop_holds_a_later_smaller_shape_wholly() -> None:
    def backdrops(*marks: dict[str, Any]) -> frozenset[int]:
        return backdrop_marks(read(doc(*marks)))

    plot = rect(10, 10, 100, 100, fill="#eee")
    assert backdrops(plot, rect(20, 20, 10, 10, fill="#000")) == {0}
    # flush with its top-left, then with its bottom-right: still held
    assert backdrops(plot, rect(10, 10, 10, 10, fill="#000")) == {0}
    assert backdrops(plot, rect(100, 100, 10, 10, fill="#000")) == {0}
    # out by a pixel on any side: a mark over another, not a backdrop
    assert backdrops(plot, rect(9, 20, 10, 10, fill="#000")) == frozenset()
    assert backdrops(plot, rect(20, 9, 10, 10, fill="#000")) == frozenset()
    assert backdrops(plot, rect(101, 20, 10, 10, fill="#000")) == frozenset()
    assert backdrops(plot, rect(20, 101, 10, 10, fill="#000")) == frozenset()
    # however thin or short the shape it holds
    assert backdrops(plot, rect(20, 20, 1, 10, fill="#000")) == {0}
    assert backdrops(plot, rect(20, 20, 10, 0.5, fill="#000")) == {0}
    # text inside it and shapes with no width or no height do not make it one
    assert backdrops(plot, rect(20, 20, 10, 10, tag="text", text="9")) == frozenset()
    # but a value label ahead of a bar does not hide the bar
    label = rect(20, 20, 10, 10, tag="text", text="9")
    assert backdrops(plot, label, rect(40, 20, 10, 10, fill="#000")) == {0}
    assert backdrops(plot, rect(20, 20, 0, 10, fill="#000")) == frozenset()
    assert backdrops(plot, rect(20, 20, 10, 0, fill="#000")) == frozenset()
    # each holder of a later shape is one, bottom first
    assert backdrops(rect(0, 0, 200, 200, fill="#fff"), plot, rect(20, 20, 10, 10)) == {0, 1}
