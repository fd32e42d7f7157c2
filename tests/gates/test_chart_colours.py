"""token_compliance on charts, from hand-written probe.json: SVG fills and strokes against the
palette and the spec's series tokens, legend swatches against their series, canvas charts'
colours from a render, and what is reported unmeasured."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

from argus.errors import InputError
from argus.evidence.graphics import parse_graphics
from argus.evidence.probe import parse_probe
from argus.gates.base import Finding, GateOutcome, GateStatus
from argus.gates.render_pixels import RenderImage
from argus.gates.token_compliance import check_token_compliance
from argus.tokens import Tokens
from tests.gates.probes import el, page

# Habits tokens (light): primary #3447c4, success #1d7a4a, danger #b3261e, surface #ffffff.
PRIMARY = "rgb(52, 71, 196)"
SUCCESS = "rgb(29, 122, 74)"
OFF = "rgb(61, 107, 224)"  # #3d6be0: near primary, not it
COLOURS = ("color", "background-color", "border-color")


def mark(tag: str = "rect", **kw: Any) -> dict[str, Any]:
    out: dict[str, Any] = {
        "svg": 1,
        "tag": tag,
        "path": kw.pop("path", tag),
        "box": kw.pop("box", {"x": 20, "y": 20, "width": 30, "height": 100}),
        "fill": kw.pop("fill", PRIMARY),
        "stroke": kw.pop("stroke", "none"),
        "stroke_width": kw.pop("stroke_width", 1),
        "opacity": kw.pop("opacity", 1),
        "fill_opacity": 1,
        "stroke_opacity": 1,
    }
    out.update(kw)
    return out


def chart_doc(
    *marks: dict[str, Any],
    charts: list[dict[str, Any]] | None = None,
    canvases: list[dict[str, Any]] | None = None,
    extra: tuple[dict[str, Any], ...] = (),
) -> dict[str, Any]:
    doc = page(
        el("svg", id="chart", box={"x": 10, "y": 10, "width": 300, "height": 200}),
        *extra,
    )
    doc["graphics"] = {
        "marks": [{"index": i, **m} for i, m in enumerate(marks)],
        "marks_total": len(marks),
        "charts": charts or [],
        "canvases": canvases or [],
    }
    return doc


def check(
    tokens: Tokens,
    doc: dict[str, Any],
    render: RenderImage | None = None,
    **options: Any,
) -> GateOutcome:
    probe = parse_probe(doc)
    return check_token_compliance(
        probe,
        tokens,
        "light",
        properties=COLOURS,
        graphics=parse_graphics(doc, probe),
        load_render=lambda: render,
        **options,
    )


def test_an_off_palette_svg_fill_fails_naming_the_mark(tokens: Tokens) -> None:
    on = check(tokens, chart_doc(mark(id="jan", path="#jan")))
    assert on.status is GateStatus.PASS and on.data["charts"]["marks_checked"] == 1
    off = check(tokens, chart_doc(mark(id="jan", path="#jan", fill=OFF)))
    assert off.status is GateStatus.FAIL
    (finding,) = off.findings
    assert (finding.element, finding.property, finding.value) == ("#jan", "fill", "#3d6be0")
    assert finding.expected == "primary #3447c4"


def test_a_mark_without_an_id_is_named_below_its_svg(tokens: Tokens) -> None:
    off = check(tokens, chart_doc(mark(path="g:nth-of-type(2) > rect", fill=OFF)))
    assert off.findings[0].element == "#chart > g:nth-of-type(2) > rect"


def test_strokes_are_held_to_the_palette_and_unpainted_parts_are_not(tokens: Tokens) -> None:
    stroke = check(tokens, chart_doc(mark("path", fill="none", stroke=OFF)))
    assert [f.property for f in stroke.findings] == ["stroke"]
    # none, transparent, a zero-width stroke, a line's fill and an invisible mark paint nothing.
    quiet = chart_doc(
        mark(fill="none", stroke="rgba(0, 0, 0, 0)"),
        mark(stroke=OFF, stroke_width=0),
        mark("line", fill=OFF, stroke=PRIMARY),
        mark(fill=OFF, opacity=0),
    )
    outcome = check(tokens, quiet)
    assert outcome.status is GateStatus.PASS, outcome.findings
    assert outcome.data["charts"]["marks_checked"] == 2  # a fill and a line's stroke


def test_svg_text_fill_is_its_text_colour(tokens: Tokens) -> None:
    label = mark("text", text="Jan", fill="rgb(120, 120, 120)", font_size="12px")
    assert check(tokens, chart_doc(label)).findings[0].property == "fill"


def test_a_gradient_fill_is_reported_unmeasured_not_passed_silently(tokens: Tokens) -> None:
    doc = chart_doc(mark(id="fancy", path="#fancy", fill='url("#fade")', stroke=PRIMARY))
    outcome = check(tokens, doc)
    charts = outcome.data["charts"]
    assert charts["unmeasured"] == 1 and charts["marks_checked"] == 1  # the stroke still is
    assert "#fancy fill" in outcome.summary and "not measured" in outcome.summary
    assert "gradient or pattern" in charts["unmeasured_listed"][0]


def test_a_series_mapped_to_a_token_is_held_to_that_token(tokens: Tokens) -> None:
    doc = chart_doc(mark(id="jan", path="#jan", series="Revenue", fill=PRIMARY))
    # On the palette, so the palette alone passes it ...
    assert check(tokens, doc).status is GateStatus.PASS
    # ... but the spec says the revenue series is drawn in success.
    outcome = check(tokens, doc, series={"revenue": "success"})
    assert outcome.status is GateStatus.FAIL
    (finding,) = outcome.findings
    assert finding.expected == "success #1d7a4a" and "series 'Revenue'" in finding.message
    right = chart_doc(mark(series="revenue", fill=SUCCESS))
    assert check(tokens, right, series={"revenue": "success"}).status is GateStatus.PASS


def test_a_series_token_the_tokens_lack_is_bad_input(tokens: Tokens) -> None:
    with pytest.raises(InputError, match=r"charts\.series\.revenue: no colour token 'chart-9'"):
        check(tokens, chart_doc(mark(series="revenue")), series={"revenue": "chart-9"})


def test_the_allow_list_covers_a_chart_by_its_svg(tokens: Tokens) -> None:
    doc = chart_doc(mark(fill=OFF))
    assert check(tokens, doc, allow=["#chart"]).status is GateStatus.PASS


def legend(*items: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {
            "svg": 1,
            "role": "img",
            "name": "Revenue",
            "legend": {"source": "role", "items": list(items)},
        }
    ]


def swatch(
    colour: str, element: int | None = None, mark_index: int | None = None
) -> dict[str, Any]:
    box = {"x": 0, "y": 0, "width": 12, "height": 12}
    return {
        "kind": "box" if element is not None else "mark",
        "color": colour,
        "box": box,
        "element": element,
        "mark": mark_index,
    }


def test_a_legend_swatch_that_does_not_match_its_series_fails(tokens: Tokens) -> None:
    marks = (
        mark(series="revenue", fill=PRIMARY),
        mark(series="revenue", fill=PRIMARY),
        mark(series="costs", fill=SUCCESS),
    )
    key = el("span", id="key-revenue", box={"x": 0, "y": 300, "width": 12, "height": 12})
    wrong = chart_doc(
        *marks,
        charts=legend(
            {"series": "revenue", "label": "Revenue", "swatch": swatch(SUCCESS, element=2)},
            {"series": "costs", "label": "Costs", "swatch": swatch(SUCCESS, element=2)},
        ),
        extra=(key,),
    )
    outcome = check(tokens, wrong)
    assert outcome.status is GateStatus.FAIL
    (finding,) = outcome.findings
    assert (finding.element, finding.property, finding.value) == (
        "#key-revenue",
        "legend swatch",
        "#1d7a4a",
    )
    assert finding.expected == "#3447c4 (series revenue)"
    right = chart_doc(
        *marks,
        charts=legend(
            {"series": "revenue", "label": "Revenue", "swatch": swatch(PRIMARY, element=2)},
            {"series": "", "label": "costs", "swatch": swatch(SUCCESS, element=2)},  # by label
        ),
        extra=(key,),
    )
    outcome = check(tokens, right)
    assert outcome.status is GateStatus.PASS, outcome.findings
    assert outcome.data["charts"]["legend_items"] == 2
    assert outcome.data["charts"]["legend_unmatched"] == 0


def test_a_legend_item_naming_no_drawn_series_is_counted_unmatched(tokens: Tokens) -> None:
    doc = chart_doc(
        mark(series="revenue"),
        mark("rect", series="", fill=SUCCESS),
        charts=legend(
            {"series": "forecast", "label": "Forecast", "swatch": swatch(SUCCESS, mark_index=1)}
        ),
    )
    outcome = check(tokens, doc)
    assert outcome.status is GateStatus.PASS
    assert outcome.data["charts"]["legend_unmatched"] == 1


def render_with(
    tmp_path: Path, paint: dict[tuple[int, int, int, int], tuple[int, int, int]]
) -> RenderImage:
    pixels = np.full((100, 200, 3), 255, dtype=np.uint8)
    for (x0, y0, x1, y1), colour in paint.items():
        pixels[y0:y1, x0:x1] = colour
    path = tmp_path / "render.png"
    Image.fromarray(pixels).save(path)
    return RenderImage.load(path, 200)


CANVAS = {
    "element": 1,
    "tag": "canvas",
    "name": "Sales",
    "how": "role=img",
    "box": {"x": 0, "y": 0, "width": 100, "height": 100},
}


def canvas_doc() -> dict[str, Any]:
    doc = chart_doc(canvases=[CANVAS])
    doc["elements"][1]["tag"] = "canvas"
    doc["elements"][1]["id"] = "sales"
    return doc


def test_a_canvas_charts_colours_are_held_to_the_palette(tmp_path: Path, tokens: Tokens) -> None:
    on = render_with(tmp_path, {(10, 10, 40, 90): (52, 71, 196), (50, 10, 90, 90): (29, 122, 74)})
    outcome = check(tokens, canvas_doc(), on)
    assert outcome.status is GateStatus.PASS, outcome.findings
    assert outcome.data["charts"]["canvas_colours"] == 3  # white, primary, success
    (read,) = outcome.data["charts"]["canvases"]
    assert read["canvas"] == "#sales" and read["unlisted"] == 0.0
    assert read["colours"] == [["#ffffff", 0.44], ["#1d7a4a", 0.32], ["#3447c4", 0.24]]
    off = render_with(tmp_path, {(10, 10, 40, 90): (52, 71, 196), (50, 10, 90, 90): (122, 31, 162)})
    outcome = check(tokens, canvas_doc(), off)
    (finding,) = outcome.findings
    assert (finding.element, finding.property, finding.value) == (
        "#sales",
        "canvas colour",
        "#7a1fa2",
    )
    assert "of the canvas chart" in finding.message
    # Outside the canvas's box, the same colour is not the canvas's.
    beside = render_with(tmp_path, {(150, 10, 190, 90): (122, 31, 162)})
    assert check(tokens, canvas_doc(), beside).status is GateStatus.PASS


def test_a_canvas_that_cannot_be_read_is_said(tmp_path: Path, tokens: Tokens) -> None:
    missing = check(tokens, canvas_doc(), None)
    assert "#sales canvas: no render.png" in missing.summary
    rng = np.random.default_rng(7)
    noise = rng.integers(0, 256, size=(100, 200, 3), dtype=np.uint8)
    path = tmp_path / "noise.png"
    Image.fromarray(noise).save(path)
    outcome = check(tokens, canvas_doc(), RenderImage.load(path, 200))
    assert "no distinct colours" in outcome.summary
    assert outcome.data["charts"]["canvas_colours"] == 0


def test_a_probe_without_graphics_says_svg_was_not_read(tokens: Tokens) -> None:
    doc = chart_doc(mark(fill=OFF))
    del doc["graphics"]
    outcome = check(tokens, doc)
    assert outcome.status is GateStatus.PASS
    assert "SVG and canvas not read" in outcome.summary


def test_marks_charts_and_canvases_past_the_caps_are_counted(tokens: Tokens) -> None:
    doc = chart_doc(mark())
    doc["graphics"]["marks_total"] = 900
    assert "; 899 SVG mark(s) past the probe's cap not read" in check(tokens, doc).summary
    doc["graphics"] |= {"charts_total": 41, "canvases_total": 50}
    outcome = check(tokens, doc)
    assert (
        "; 899 SVG mark(s), 41 SVG chart(s), 50 canvas chart(s) past the probe's cap not read"
        in outcome.summary
    )
    charts = outcome.data["charts"]
    assert (charts["charts_left_out"], charts["canvases_left_out"]) == (41, 50)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"svg": 0}, r"marks\[0\]\.svg 0 is a <body>, not an <svg>"),
        ({"svg": 9}, r"marks\[0\]\.svg 9 is not an element index"),
        ({"fill": "wobbly"}, r"marks\[0\]\.fill 'wobbly' is not a paint"),
        ({"opacity": "1"}, r"marks\[0\]\.opacity must be a number"),
        ({"index": 3}, r"marks\[0\]\.index is 3, expected 0"),
    ],
)
def test_a_forged_graphics_section_is_bad_input(change: dict[str, Any], message: str) -> None:
    doc = chart_doc({**mark(), **change})
    with pytest.raises(InputError, match=message):
        parse_graphics(doc, parse_probe(doc))


def test_a_legend_is_paired_in_order_when_the_marks_name_no_series(tokens: Tokens) -> None:
    """Bars with no series names, a legend of three items: paired with the bars' distinct
    fills in document order. An axis line along the bars' foot and the axis labels do not
    count; with a count that does not agree, nothing is paired."""
    bars = (
        mark(fill=PRIMARY, box={"x": 10, "y": 20, "width": 30, "height": 100}),
        mark(
            "text",
            text="North",
            fill="rgb(22, 24, 29)",
            box={"x": 10, "y": 125, "width": 30, "height": 12},
        ),
        mark(fill=SUCCESS, box={"x": 50, "y": 60, "width": 30, "height": 60}),
        mark(fill="rgb(179, 38, 30)", box={"x": 90, "y": 90, "width": 30, "height": 30}),
        mark(
            "line",
            fill="rgb(0, 0, 0)",
            stroke="rgb(226, 229, 234)",
            box={"x": 0, "y": 120, "width": 200, "height": 0},
        ),
    )
    key = el("span", id="key", box={"x": 0, "y": 300, "width": 12, "height": 12})

    def items(*colours: str) -> list[dict[str, Any]]:
        names = ("North", "South", "West")
        return legend(
            *(
                {"series": n, "label": n, "swatch": swatch(c, element=2)}
                for n, c in zip(names, colours, strict=False)
            )
        )

    right = check(
        tokens, chart_doc(*bars, charts=items(PRIMARY, SUCCESS, "rgb(179, 38, 30)"), extra=(key,))
    )
    assert right.status is GateStatus.PASS, right.findings
    wrong = check(
        tokens,
        chart_doc(
            *bars, charts=items(PRIMARY, "rgb(179, 38, 30)", "rgb(179, 38, 30)"), extra=(key,)
        ),
    )
    (finding,) = wrong.findings
    assert finding.property == "legend swatch" and finding.expected == "#1d7a4a (series South)"
    short = check(tokens, chart_doc(*bars, charts=items(PRIMARY, "rgb(179, 38, 30)"), extra=(key,)))
    assert short.status is GateStatus.PASS
    assert short.data["charts"]["legend_unmatched"] == 2


def test_an_undeclared_canvas_is_said_not_read(tokens: Tokens) -> None:
    doc = chart_doc(mark())
    doc["graphics"]["canvases_undeclared"] = 2
    outcome = check(tokens, doc)
    assert "2 <canvas> not declared as a chart" in outcome.summary
    doc["graphics"]["canvases_undeclared"] = 0
    assert "not declared" not in check(tokens, doc).summary


def test_exact_colours_pass_with_no_tolerance_and_text_is_held_to_the_palette(
    tokens: Tokens,
) -> None:
    exact = chart_doc(mark(series="revenue", fill=SUCCESS))
    assert check(tokens, exact, series={"revenue": "success"}, delta_e=0.0).status is (
        GateStatus.PASS
    )
    # A series label is text: its fill is a text colour on the palette, not the series token.
    label = mark("text", text="Revenue", series="revenue", fill="rgb(22, 24, 29)")
    assert check(tokens, chart_doc(label), series={"revenue": "success"}).status is (
        GateStatus.PASS
    )
    key = el("span", id="key", box={"x": 0, "y": 300, "width": 12, "height": 12})
    same = chart_doc(
        mark(series="revenue", fill=PRIMARY),
        charts=legend({"series": "revenue", "label": "R", "swatch": swatch(PRIMARY, element=2)}),
        extra=(key,),
    )
    assert check(tokens, same, delta_e=0.0).status is GateStatus.PASS


def _canvas(index: int, box: dict[str, float]) -> dict[str, Any]:
    return {
        "element": index,
        "tag": "canvas",
        "name": f"Chart {index}",
        "how": "role=img",
        "box": box,
    }


def canvases_doc() -> dict[str, Any]:
    """Four declared canvases, in order: one outside the render, one of noise, then two that
    read (one on the palette, one with an off-palette colour)."""
    boxes = (
        {"x": 1000, "y": 0, "width": 100, "height": 100},
        {"x": 300, "y": 0, "width": 100, "height": 100},
        {"x": 100, "y": 0, "width": 100, "height": 100},
        {"x": 200, "y": 0, "width": 100, "height": 100},
    )
    doc = page(*(el("canvas", id=f"c{i}", box=box) for i, box in enumerate(boxes)))
    doc["graphics"] = {
        "marks": [],
        "charts": [],
        "canvases": [_canvas(i + 1, box) for i, box in enumerate(boxes)],
    }
    return doc


def canvases_render(tmp_path: Path) -> RenderImage:
    pixels = np.full((100, 400, 3), 255, dtype=np.uint8)
    pixels[0:37, 100:137] = (52, 71, 196)  # 1,369 of c2's 10,000 pixels: primary
    blend = np.arange(1234)  # 1,234 more of c2's pixels, each its own colour: 12.34 % unlisted
    pixels[50 + blend // 100, 100 + blend % 100] = np.stack(
        [blend // 256, blend % 256, np.full(1234, 7)], axis=1
    )
    pixels[10:90, 210:250] = (122, 31, 162)  # c3: 32 % off the palette
    rng = np.random.default_rng(7)
    pixels[:, 300:400] = rng.integers(0, 256, size=(100, 100, 3), dtype=np.uint8)  # c1: noise
    path = tmp_path / "render.png"
    Image.fromarray(pixels).save(path)
    return RenderImage.load(path, 400)


def test_every_declared_canvas_is_read_past_one_that_cannot_be(
    tmp_path: Path, tokens: Tokens
) -> None:
    """A canvas outside the render or without distinct colours is said and the next canvas is
    still read; each read canvas is counted, its shares to three places."""
    outcome = check(tokens, canvases_doc(), canvases_render(tmp_path))
    (finding,) = outcome.findings
    assert (finding.element, finding.property, finding.value, finding.expected) == (
        "#c3",
        "canvas colour",
        "#7a1fa2",
        "primary #3447c4",
    )
    assert outcome.data["charts"] == {
        "recorded": True,
        "marks_checked": 0,
        "canvas_colours": 4,
        "marks_left_out": 0,
        "charts_left_out": 0,
        "canvases_left_out": 0,
        "canvases_checked": 2,
        "legend_items": 0,
        "legend_unmatched": 0,
        "canvases": [
            {
                "canvas": "#c2",
                "colours": [["#ffffff", 0.74], ["#3447c4", 0.137]],
                "unlisted": 0.123,
            },
            {"canvas": "#c3", "colours": [["#ffffff", 0.68], ["#7a1fa2", 0.32]], "unlisted": 0.0},
        ],
        "unmeasured": 2,
        "unmeasured_listed": [
            "#c0 canvas: its box lies outside the render",
            "#c1 canvas: no distinct colours (100% of its pixels are blends, gradients or images)",
        ],
    }


def test_without_a_render_every_canvas_is_said_unmeasured(tokens: Tokens) -> None:
    outcome = check(tokens, canvases_doc(), None)
    charts = outcome.data["charts"]
    assert charts["canvases_checked"] == 0 and charts["unmeasured"] == 4
    assert charts["unmeasured_listed"] == [
        f"#c{i} canvas: no render.png to read its pixels from" for i in range(4)
    ]


def test_a_chart_on_the_allow_list_does_not_hide_the_next_chart(tokens: Tokens) -> None:
    doc = chart_doc(
        {**mark(fill=OFF), "svg": 2},
        mark(id="jan", path="#jan", fill=OFF),
        extra=(el("svg", id="other", box={"x": 10, "y": 300, "width": 300, "height": 200}),),
    )
    outcome = check(tokens, doc, allow=["#other"])
    assert [(f.element, f.property) for f in outcome.findings] == [("#jan", "fill")]


def test_a_swatch_drawn_as_a_mark_is_held_to_the_colour_most_of_its_series_is_drawn_in(
    tokens: Tokens,
) -> None:
    """Two revenue bars in primary, one highlighted in success: the series is drawn in primary.
    The legend's swatch (an SVG mark naming the series, not one of its data marks) shows
    success, so it fails, named by its path below the chart."""
    doc = chart_doc(
        mark(series="revenue", fill=PRIMARY),
        mark(series="revenue", fill=SUCCESS),
        mark(series="revenue", fill=PRIMARY),
        mark(series="revenue", fill=SUCCESS, path="g.legend > rect"),
        charts=legend(
            {"series": "revenue", "label": "Revenue", "swatch": swatch(SUCCESS, mark_index=3)}
        ),
    )
    outcome = check(tokens, doc)
    (finding,) = outcome.findings
    assert finding == Finding(
        "#chart > g.legend > rect",
        "legend swatch",
        "#1d7a4a",
        "#3447c4 (series revenue)",
        "the legend shows 'Revenue' as #1d7a4a but the chart draws series 'revenue' in "
        "#3447c4 (ΔE2000 47.5 > 1)",
    )


def test_a_series_tie_matches_the_swatch_to_the_nearer_colour(tokens: Tokens) -> None:
    doc = chart_doc(
        mark(series="revenue", fill=SUCCESS),
        mark(series="revenue", fill=PRIMARY),
        charts=legend(
            {"series": "revenue", "label": "Revenue", "swatch": swatch(PRIMARY, mark_index=None)}
        ),
    )
    outcome = check(tokens, doc)
    assert outcome.status is GateStatus.PASS, outcome.findings
    assert outcome.data["charts"]["legend_unmatched"] == 0


def test_each_chart_is_matched_to_its_own_marks(tokens: Tokens) -> None:
    """Another chart (listed first, with no legend) draws revenue in success: this chart's
    legend is held to this chart's revenue bars only, read past the other chart's marks, and
    is still read after that chart."""
    other = el("svg", id="other", box={"x": 10, "y": 300, "width": 300, "height": 200})
    doc = chart_doc(
        {**mark(series="revenue", fill=SUCCESS), "svg": 2},
        {**mark(series="revenue", fill=SUCCESS), "svg": 2},
        mark(series="revenue", fill=PRIMARY),
        mark(series="costs", fill=SUCCESS),
        mark(fill="rgb(179, 38, 30)"),  # no series: three fills, so no pairing in order
        charts=[
            {"svg": 2, "role": "img", "name": "Other"},
            *legend(
                {"series": "revenue", "label": "Revenue", "swatch": swatch(PRIMARY, element=3)},
                {"series": "costs", "label": "Costs", "swatch": swatch(PRIMARY, element=3)},
            ),
        ],
        extra=(other, el("span", id="key", box={"x": 0, "y": 600, "width": 12, "height": 12})),
    )
    outcome = check(tokens, doc)
    assert [(f.element, f.expected) for f in outcome.findings] == [
        ("#key", "#1d7a4a (series costs)")
    ]


def test_a_swatch_without_a_plain_colour_is_counted_unmatched(tokens: Tokens) -> None:
    doc = chart_doc(
        mark(series="revenue", fill=PRIMARY),
        charts=legend(
            {"series": "revenue", "label": "Revenue", "swatch": swatch('url("#fade")', element=1)}
        ),
    )
    outcome = check(tokens, doc)
    assert outcome.status is GateStatus.PASS
    assert outcome.data["charts"]["legend_items"] == 1
    assert outcome.data["charts"]["legend_unmatched"] == 1


def test_in_order_pairing_leaves_out_the_plot_background_and_unpainted_shapes(
    tokens: Tokens,
) -> None:
    """A white plot background holding the bars, a transparent hit area and a legend whose
    items are named by label only: the three bars' fills pair with the three items. A swatch
    with neither a mark nor an element is named by its chart."""
    bars = (
        mark(fill="rgb(255, 255, 255)", box={"x": 0, "y": 0, "width": 300, "height": 200}),
        mark(fill=PRIMARY, box={"x": 10, "y": 20, "width": 30, "height": 100}),
        mark(fill=SUCCESS, box={"x": 50, "y": 60, "width": 30, "height": 60}),
        mark(fill="rgba(0, 0, 0, 0)", box={"x": 250, "y": 10, "width": 20, "height": 20}),
        mark(fill="rgb(179, 38, 30)", box={"x": 90, "y": 90, "width": 30, "height": 30}),
    )
    key = el("span", id="key", box={"x": 0, "y": 300, "width": 12, "height": 12})
    items = [
        {"series": "", "label": "North", "swatch": swatch(PRIMARY, element=2)},
        {"series": "", "label": "South", "swatch": swatch("rgb(179, 38, 30)")},
        {"series": "", "label": "West", "swatch": swatch("rgb(179, 38, 30)", element=2)},
    ]
    items[1]["swatch"]["kind"] = "box"
    outcome = check(tokens, chart_doc(*bars, charts=legend(*items), extra=(key,)))
    assert [(f.element, f.expected) for f in outcome.findings] == [
        ("#chart", "#1d7a4a (series South)")
    ]
    assert outcome.data["charts"]["legend_unmatched"] == 0


def test_the_allow_list_covers_a_mark_by_its_own_tag_id_or_test_id(tokens: Tokens) -> None:
    doc = chart_doc(mark(id="jan", path="#jan", testid="bar-jan", fill=OFF))
    assert check(tokens, doc).status is GateStatus.FAIL
    for entry in ("rect", "#jan", "[data-testid=bar-jan]"):
        outcome = check(tokens, doc, allow=[entry])
        assert (outcome.status, outcome.findings) == (GateStatus.PASS, ()), entry
    # An entry naming something else, or another tag, leaves the mark held to the palette.
    for entry in ("circle", "#feb", "[data-testid=bar-feb]"):
        assert check(tokens, doc, allow=[entry]).status is GateStatus.FAIL, entry


def test_without_a_render_reader_every_canvas_is_said_unmeasured(tokens: Tokens) -> None:
    doc = canvases_doc()
    probe = parse_probe(doc)
    outcome = check_token_compliance(
        probe, tokens, "light", properties=COLOURS, graphics=parse_graphics(doc, probe)
    )
    charts = outcome.data["charts"]
    assert (charts["canvases_checked"], charts["canvas_colours"], charts["unmeasured"]) == (0, 0, 4)
    assert charts["unmeasured_listed"][0] == "#c0 canvas: no render.png to read its pixels from"


def test_the_summary_says_what_of_the_charts_was_checked_and_what_was_not(tokens: Tokens) -> None:
    fancy = [mark(id=f"f{i}", path=f"#f{i}", fill='url("#fade")') for i in range(3)]
    sales = el("canvas", id="sales", box=CANVAS["box"])
    doc = chart_doc(
        mark(id="jan", path="#jan"), *fancy, canvases=[{**CANVAS, "element": 2}], extra=(sales,)
    )
    doc["graphics"]["marks_total"] = 7
    doc["graphics"]["canvases_undeclared"] = 2
    outcome = check(tokens, doc, None)
    assert outcome.summary == (
        "0 off-token value(s) among 4 checked"
        "; charts: 1 SVG paint(s), 0 canvas colour(s) checked"
        "; 2 <canvas> not declared as a chart (role=img with a name, or data-argus-chart): "
        "its pixels not read"
        "; 3 SVG mark(s) past the probe's cap not read"
        '; 4 not measured (#f0 fill url("#fade"): a gradient or pattern (url(...)): '
        "no single colour; "
        '#f1 fill url("#fade"): a gradient or pattern (url(...)): no single colour; and 2 more)'
    )
    # SVG marks and no canvas: the charts are still said; three unmeasured list two and one
    # more, two list both with no "more".
    gradient = 'fill url("#fade"): a gradient or pattern (url(...)): no single colour'
    head = (
        "0 off-token value(s) among 2 checked; charts: 0 SVG paint(s), 0 canvas colour(s) checked"
    )
    three = check(tokens, chart_doc(*fancy)).summary
    assert three == f"{head}; 3 not measured (#f0 {gradient}; #f1 {gradient}; and 1 more)"
    two = check(tokens, chart_doc(*fancy[:2])).summary
    assert two == f"{head}; 2 not measured (#f0 {gradient}; #f1 {gradient})"


def test_charts_are_checked_only_with_the_colours(tokens: Tokens) -> None:
    doc = chart_doc(mark(fill=OFF))
    probe = parse_probe(doc)
    sizes = check_token_compliance(
        probe, tokens, "light", properties=("font-size",), graphics=parse_graphics(doc, probe)
    )
    # The off-palette mark is no finding: only font sizes were asked for (and none is shown).
    assert (sizes.status, sizes.findings) == (GateStatus.SKIP, ())
    assert "charts" not in sizes.data and "charts" not in sizes.summary


def test_the_summary_says_nothing_of_charts_on_a_page_without_any(tokens: Tokens) -> None:
    doc = page(el("div", id="box", color=PRIMARY))
    probe = parse_probe(doc)
    outcome = check_token_compliance(
        probe, tokens, "light", properties=COLOURS, graphics=parse_graphics(doc, probe)
    )
    assert outcome.summary == "0 off-token value(s) among 2 checked"  # the body and the div
    assert outcome.data["charts"]["marks_checked"] == 0
    # An <svg> the probe read and found nothing to check in: nothing said either.
    doc = page(el("svg", id="box", color=PRIMARY))
    doc["graphics"] = {"marks": [], "marks_total": 0, "charts": [], "canvases": []}
    probe = parse_probe(doc)
    empty = check_token_compliance(
        probe, tokens, "light", properties=COLOURS, graphics=parse_graphics(doc, probe)
    )
    assert empty.summary == "0 off-token value(s) among 2 checked"
    # Without a graphics section an <svg> or a <canvas> is said not read; a <div> is not.
    for tag in ("svg", "canvas"):
        doc = page(el(tag, id="box", color=PRIMARY))
        probe = parse_probe(doc)
        said = check_token_compliance(
            probe, tokens, "light", properties=COLOURS, graphics=parse_graphics(doc, probe)
        )
        assert said.summary.endswith(
            "; SVG and canvas not read (the probe has no graphics section: re-sense)"
        ), tag
