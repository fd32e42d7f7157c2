"""rendered_contrast on charts and on the two exemptions WCAG 1.4.3 makes that the gate now
applies exactly, from hand-written probe.json (and renders drawn here):

- SVG text is text (1.4.3, from the render, else from styles); meaningful marks and legend
  swatches need 3:1 (1.4.11); decorative marks and chart furniture are not measured;
- a glyph standing for a control named otherwise is not text; a control whose name holds its
  visible text shows text;
- text both hidden from assistive technology and drawn in its background's colour is exempt.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from argus.evidence.graphics import parse_graphics
from argus.evidence.probe import parse_probe
from argus.gates.base import Finding, GateOutcome, GateStatus
from argus.gates.rendered_contrast import check_rendered_contrast, glyph_of_control
from tests.gates.probes import el, page

DARK_SURFACE = "rgb(23, 26, 32)"  # #171a20
BORDER_DARK = "rgb(43, 48, 57)"  # #2b3039: about 1.3:1 on the dark surface
LABEL_DARK = "rgb(163, 170, 183)"  # #a3aab7: about 7.5:1 on it
BAR = "rgb(125, 155, 240)"  # #7d9bf0
GREY = "rgb(153, 153, 153)"  # 2.85:1 on white
MID = "rgb(128, 128, 128)"  # 3.95:1 on white: passes 3:1, fails 4.5:1
DARK = "rgb(22, 24, 29)"


def mark(tag: str = "rect", **kw: Any) -> dict[str, Any]:
    out: dict[str, Any] = {
        "svg": 1,
        "tag": tag,
        "path": kw.pop("path", tag),
        "box": kw.pop("box", {"x": 40, "y": 40, "width": 40, "height": 80}),
        "fill": kw.pop("fill", BAR),
        "stroke": kw.pop("stroke", "none"),
        "stroke_width": 1,
        "opacity": 1,
        "fill_opacity": 1,
        "stroke_opacity": 1,
    }
    out.update(kw)
    return out


def chart_doc(
    *marks: dict[str, Any], legend: dict[str, Any] | None = None, **body: Any
) -> dict[str, Any]:
    doc = page(
        el("svg", id="chart", box={"x": 0, "y": 0, "width": 400, "height": 200}),
        el("span", id="key", box={"x": 0, "y": 220, "width": 12, "height": 12}),
        body_bg=body.pop("body_bg", DARK_SURFACE),
    )
    doc["graphics"] = {
        "marks": [{"index": i, **m} for i, m in enumerate(marks)],
        "charts": [{"svg": 1, "role": "img", "name": "Revenue", "legend": legend}],
    }
    return doc


def run(doc: dict[str, Any], render: Path | None = None) -> GateOutcome:
    probe = parse_probe(doc)
    return check_rendered_contrast(probe, render, "AA", parse_graphics(doc, probe))


def label(colour: str, **kw: Any) -> dict[str, Any]:
    box = kw.pop("box", {"x": 40, "y": 130, "width": 30, "height": 16})
    text = kw.pop("text", "North")
    return mark("text", text=text, fill=colour, font_size="14px", box=box, **kw)


def test_dark_axis_labels_at_1_3_to_1_fail_from_styles() -> None:
    outcome = run(chart_doc(mark(), label(BORDER_DARK, id="north", path="#north")))
    assert outcome.status is GateStatus.FAIL
    (finding,) = outcome.findings
    assert (finding.element, finding.property) == ("#north", "contrast (svg text)")
    assert finding.value.startswith("1.3") and finding.expected == ">= 4.5:1"
    ok = run(chart_doc(mark(), label(LABEL_DARK)))
    assert ok.status is GateStatus.PASS, ok.findings
    assert (ok.data["svg_text"], ok.data["chart_marks"]) == (1, 1)


def test_svg_text_is_measured_from_the_render_when_there_is_one(tmp_path: Path) -> None:
    # Styles say the label sits on the dark surface; the render shows it over a bar-coloured
    # band the probe knows nothing of: the render decides.
    pixels = np.full((400, 1280, 3), (23, 26, 32), dtype=np.uint8)
    pixels[130:146, 40:70] = (160, 168, 180)
    path = tmp_path / "render.png"
    Image.fromarray(pixels).save(path)
    doc = chart_doc(label(LABEL_DARK))
    doc["viewport"] = {"width": 1280, "height": 400}
    assert run(doc).status is GateStatus.PASS
    outcome = run(doc, path)
    assert outcome.status is GateStatus.FAIL
    assert float(outcome.findings[0].value.split(":")[0]) < 1.2


def test_meaningful_marks_need_3_to_1_and_decoration_and_furniture_are_not_measured() -> None:
    faint = "rgb(50, 55, 64)"  # barely off the dark surface
    doc = chart_doc(
        mark(id="bar", path="#bar", fill=faint),
        mark("line", fill="none", stroke=faint),  # an axis: furniture
        mark(fill=faint, decorative="aria-hidden"),  # a gridband marked decorative
        mark(fill=faint, decorative="data-argus-decorative"),
        mark("path", fill="none", stroke=faint, series="costs", id="line", path="#line"),
        mark("path", fill="none", stroke=faint, name="Trend", id="trend", path="#trend"),
    )
    outcome = run(doc)
    assert [f.element for f in outcome.findings] == ["#bar", "#line", "#trend"]
    assert all(f.expected == ">= 3:1" for f in outcome.findings)
    assert outcome.data["chart_marks"] == 3


def test_a_mark_passes_on_its_stroke_and_a_plot_background_is_its_background() -> None:
    faint = "rgb(50, 55, 64)"
    outlined = chart_doc(mark(fill=faint, stroke=BAR))
    assert run(outlined).status is GateStatus.PASS
    # A light plot panel under the bars: the faint bar is measured against the panel.
    panel = mark(fill="rgb(255, 255, 255)", box={"x": 0, "y": 0, "width": 400, "height": 200})
    doc = chart_doc(panel, mark(id="bar", path="#bar", fill="rgb(240, 240, 240)"))
    outcome = run(doc)
    (finding,) = outcome.findings
    assert finding.element == "#bar" and "on #ffffff" in finding.message
    assert outcome.data["chart_marks"] == 1  # the panel is background, not a mark


def test_a_legend_swatch_needs_3_to_1() -> None:
    legend = {
        "source": "data-argus-legend",
        "items": [
            {
                "series": "north",
                "label": "North",
                "swatch": {
                    "kind": "box",
                    "color": BORDER_DARK,
                    "box": {"x": 0, "y": 220, "width": 12, "height": 12},
                    "element": 2,
                },
            }
        ],
    }
    outcome = run(chart_doc(legend=legend))
    (finding,) = outcome.findings
    assert (finding.element, finding.property) == ("#key", "contrast (legend swatch)")
    legend["items"][0]["swatch"]["color"] = BAR
    assert run(chart_doc(legend=legend)).status is GateStatus.PASS


def test_svg_text_hidden_and_drawn_in_its_background_colour_is_exempt() -> None:
    hidden = label(DARK_SURFACE, decorative="aria-hidden")
    outcome = run(chart_doc(mark(), hidden))
    assert outcome.status is GateStatus.PASS and outcome.data["unseen"] == 1
    # Seen by nobody only when both: shown to assistive technology, it is measured ...
    assert run(chart_doc(mark(), label(DARK_SURFACE))).status is GateStatus.FAIL
    # ... and hidden but visible (1.3:1 is low, not invisible), it is measured too.
    assert run(chart_doc(mark(), label(BORDER_DARK, decorative="aria-hidden"))).status is (
        GateStatus.FAIL
    )


# --- the two WCAG 1.4.3 exemptions, on HTML text --------------------------------------------


def control(name: str, text: str) -> dict[str, str]:
    return {"name": name, "text": text}


def test_a_glyph_in_a_control_named_otherwise_is_held_to_3_to_1_not_4_5() -> None:
    doc = page(el("button", id="close", text="X", color=MID))
    doc["elements"][1]["control"] = control("Close", "X")
    outcome = check_rendered_contrast(parse_probe(doc), None)
    assert outcome.status is GateStatus.PASS  # 3.95:1 meets 1.4.11's 3:1
    doc["elements"][1]["style"]["color"] = GREY
    (finding,) = check_rendered_contrast(parse_probe(doc), None).findings
    assert finding.expected == ">= 3:1" and "named 'Close'" in finding.message


def test_a_control_whose_name_holds_its_text_is_text() -> None:
    doc = page(el("button", id="save", text="Save", color=MID))
    doc["elements"][1]["control"] = control("Save draft", "Save")
    (finding,) = check_rendered_contrast(parse_probe(doc), None).findings
    assert finding.expected == ">= 4.5:1"


def test_which_controls_show_a_glyph() -> None:
    def glyph(name: str, text: str) -> bool:
        doc = page(el("a", text=text))
        doc["elements"][1]["control"] = control(name, text)
        return glyph_of_control(parse_probe(doc).elements[1])

    assert glyph("Close", "X") and glyph("Close dialog", "×") and glyph("Add row", "+")
    assert not glyph("Save draft", "Save")  # its name holds its text
    assert not glyph("Close", "Close")
    assert not glyph("Page 2", "2")  # the digit is the name's own word
    assert not glyph("", "X")  # no other name: the glyph is the control's text
    assert not glyph("Send the form", "Go")  # a word, not a glyph: measured as text
    assert glyph("Next page", "»")
    assert not glyph("More options", "Menu")  # words, not a glyph: measured as text
    # Not a control at all: a symbol is no glyph standing for one.
    assert not glyph_of_control(parse_probe(page(el("span", text="×"))).elements[1])


def test_text_hidden_from_assistive_technology_and_invisible_is_exempt() -> None:
    invisible = "rgb(255, 255, 255)"  # white on white
    doc = page(
        el("span", id="ghost", text="Loading", color=invisible), el("p", text="ok", color=DARK)
    )
    doc["elements"][1]["aria_hidden"] = True
    outcome = check_rendered_contrast(parse_probe(doc), None)
    assert outcome.status is GateStatus.PASS and outcome.data["unseen"] == 1
    # Not hidden from assistive technology: a screen-reader user gets it, a sighted one does not.
    doc["elements"][1]["aria_hidden"] = False
    assert [f.element for f in check_rendered_contrast(parse_probe(doc), None).findings] == [
        "#ghost"
    ]
    # Hidden but faintly visible (2.85:1): still measured.
    doc["elements"][1]["aria_hidden"] = True
    doc["elements"][1]["style"]["color"] = GREY
    assert check_rendered_contrast(parse_probe(doc), None).status is GateStatus.FAIL


# --- each finding in full, what cannot be measured, swatches drawn as marks ------------------

FAINT = "rgb(50, 55, 64)"  # #323740: 1.46:1 on the dark surface
NON_TEXT_RULE = "chart mark (WCAG 1.4.11 non-text): 3:1 for its fill or its stroke"


def test_a_mark_or_text_without_a_plain_colour_is_not_measurable() -> None:
    doc = chart_doc(
        mark(id="bar", path="#bar", fill=BAR),
        mark(id="grad", path="#grad", fill='url("#g")', series="north"),
        label('url("#g")', id="t1", path="#t1"),
        label("none", id="t2", path="#t2"),
    )
    outcome = run(doc)
    assert outcome.findings == (
        Finding("#grad", "contrast (chart mark)", "not measurable", ">= 3:1", NO_PLAIN),
        Finding(
            "#t1",
            "contrast (svg text)",
            "not measurable",
            ">= 4.5:1",
            'its fill is url("#g"): a gradient or pattern (url(...)): no single colour',
        ),
        Finding(
            "#t2",
            "contrast (svg text)",
            "not measurable",
            ">= 4.5:1",
            "its fill is none: no colour",
        ),
    )
    assert (outcome.data["chart_marks"], outcome.data["svg_text"]) == (2, 2)
    assert outcome.data["not_measurable"] == 3


NO_PLAIN = "no plain fill or stroke colour"


def test_marks_text_and_swatches_over_an_image_are_not_measurable() -> None:
    legend = {
        "source": "role",
        "items": [
            {
                "series": "north",
                "label": "North",
                "swatch": {"kind": "box", "color": BAR, "box": {}, "element": 2},
            }
        ],
    }
    doc = chart_doc(mark(id="bar", path="#bar", fill=BAR), label(LABEL_DARK, id="t", path="#t"))
    doc["graphics"]["charts"][0]["legend"] = legend
    doc["elements"][1]["style"]["background-image"] = "linear-gradient(red, blue)"
    doc["elements"][2]["parent"] = 1  # the key inside the chart's box, over its gradient
    outcome = run(doc)
    assert outcome.findings == (
        Finding("#bar", "contrast (chart mark)", "not measurable", ">= 3:1", "over an image"),
        Finding(
            "#t",
            "contrast (svg text)",
            "not measurable",
            ">= 4.5:1",
            "no render.png, and styles cannot say what lies behind it",
        ),
        Finding("#key", "contrast (legend swatch)", "not measurable", ">= 3:1", "over an image"),
    )
    assert outcome.data["legend_swatches"] == 1


def test_a_finding_says_the_colours_and_the_rule_and_opacity_is_applied() -> None:
    """A mark at half opacity is measured as drawn (blended into the surface); so is SVG text
    at half fill-opacity."""
    doc = chart_doc(
        mark(id="bar", path="#bar", fill=FAINT),
        mark(id="half", path="#half", fill=BAR, opacity=0.5),
        label(BORDER_DARK, id="t", path="#t", fill_opacity=0.5),
    )
    assert run(doc).findings == (
        Finding(
            "#bar",
            "contrast (chart mark)",
            "1.46:1",
            ">= 3:1",
            f"#323740 on #171a20; {NON_TEXT_RULE}",
        ),
        Finding(
            "#half",
            "contrast (chart mark)",
            "2.59:1",
            ">= 3:1",
            f"#7d9bf0 on #171a20; {NON_TEXT_RULE}",
        ),
        Finding(
            "#t",
            "contrast (svg text)",
            "1.13:1",
            ">= 4.5:1",
            "#2b3039 on #171a20; normal text (14px, weight 400; large starts at 24px, or 18.66px "
            "bold) under WCAG 1.4.3 AA: 4.5:1",
        ),
    )
    # At full opacity the same bar passes: the half-opacity one failed on its blend.
    assert run(chart_doc(mark(fill=BAR))).status is GateStatus.PASS


def test_a_translucent_plot_panel_is_blended_into_what_lies_behind_the_mark() -> None:
    panel = mark(
        fill="rgb(255, 255, 255)",
        fill_opacity=0.5,
        box={"x": 0, "y": 0, "width": 400, "height": 200},
    )
    outcome = run(chart_doc(panel, mark(id="bar", path="#bar", fill="rgb(140, 140, 140)")))
    assert outcome.findings == (
        Finding(
            "#bar",
            "contrast (chart mark)",
            "1.01:1",
            ">= 3:1",
            f"#8c8c8c on #8b8c90; {NON_TEXT_RULE}",
        ),
    )


def test_large_svg_text_is_held_to_3_to_1() -> None:
    def text(size: str, weight: str = "400") -> dict[str, Any]:
        box = {"x": 40, "y": 130, "width": 30, "height": 30}
        return mark("text", text="North", fill=MID, font_size=size, font_weight=weight, box=box)

    def status(label: dict[str, Any]) -> GateStatus:
        return run(chart_doc(mark(fill=DARK), label, body_bg="rgb(255, 255, 255)")).status

    assert status(text("24px")) is GateStatus.PASS  # 3.95:1 meets 3:1
    assert status(text("19px", "700")) is GateStatus.PASS
    assert status(text("19px")) is GateStatus.FAIL


def test_which_shapes_are_chart_furniture() -> None:
    """A stroke-only path, a line (its fill paints nothing) and a transparent shape, none
    naming a series: not measured."""
    doc = chart_doc(
        mark(id="bar", path="#bar", fill=BAR),
        mark("path", fill="none", stroke=FAINT),
        mark("line", fill=FAINT, stroke=FAINT),
        mark(fill="rgba(0, 0, 0, 0)", stroke=FAINT),
    )
    outcome = run(doc)
    assert outcome.status is GateStatus.PASS and outcome.data["chart_marks"] == 1


def swatch_item(swatch: dict[str, Any] | None) -> dict[str, Any]:
    return {"series": "north", "label": "North", "swatch": swatch}


def test_a_swatch_drawn_as_a_mark_is_measured_once_as_a_swatch() -> None:
    """The legend's first item has no swatch, two items share one swatch mark (also a series
    mark), and a box swatch follows: the mark is one legend swatch, not a chart mark too."""
    key_mark = {"kind": "mark", "color": FAINT, "box": {}, "mark": 1}
    box = {"kind": "box", "color": FAINT, "box": {}, "element": 2}
    legend = {
        "source": "role",
        "items": [
            swatch_item(None),
            swatch_item(key_mark),
            swatch_item(key_mark),
            swatch_item(box),
        ],
    }
    doc = chart_doc(
        mark(id="bar", path="#bar", fill=BAR),
        mark(path="g.legend > rect", fill=FAINT, series="north"),
        legend=legend,
    )
    outcome = run(doc)
    assert outcome.findings == (
        Finding(
            "#chart > g.legend > rect",
            "contrast (legend swatch)",
            "1.46:1",
            ">= 3:1",
            "#323740 on #171a20; legend swatch (WCAG 1.4.11 non-text): 3:1 for its fill or its "
            "stroke",
        ),
        Finding(
            "#key",
            "contrast (legend swatch)",
            "1.46:1",
            ">= 3:1",
            "#323740 on #171a20; legend swatch (WCAG 1.4.11 non-text): 3:1",
        ),
    )
    assert (outcome.data["chart_marks"], outcome.data["legend_swatches"]) == (1, 2)


def test_a_box_swatch_is_measured_against_what_lies_behind_it_not_its_own_fill() -> None:
    legend = {
        "source": "role",
        "items": [swatch_item({"kind": "box", "color": BAR, "box": {}, "element": 2})],
    }
    doc = chart_doc(legend=legend)
    doc["elements"][2]["style"]["background-color"] = BAR  # the swatch paints itself
    assert run(doc).findings == ()  # #7d9bf0 on the dark surface, not on itself
    # A translucent swatch is measured as drawn, blended into what lies behind it.
    doc["graphics"]["charts"][0]["legend"]["items"][0]["swatch"]["color"] = (
        "rgba(125, 155, 240, 0.3)"
    )
    assert [f.value for f in run(doc).findings] == ["1.72:1"]
    doc["graphics"]["charts"][0]["legend"]["items"][0]["swatch"]["color"] = BORDER_DARK
    doc["elements"][2]["style"]["background-color"] = BORDER_DARK
    assert run(doc).findings == (
        Finding(
            "#key",
            "contrast (legend swatch)",
            "1.31:1",
            ">= 3:1",
            "#2b3039 on #171a20; legend swatch (WCAG 1.4.11 non-text): 3:1",
        ),
    )


def test_svg_text_read_from_the_render_is_named_and_hidden_text_drawn_unseen_is_exempt(
    tmp_path: Path,
) -> None:
    pixels = np.full((400, 1280, 3), (23, 26, 32), dtype=np.uint8)
    pixels[130:146, 40:70] = (160, 168, 180)  # a band the label is drawn over
    path = tmp_path / "render.png"
    Image.fromarray(pixels).save(path)
    doc = chart_doc(label(LABEL_DARK, id="north", path="#north"))
    doc["viewport"] = {"width": 1280, "height": 400}
    (finding,) = run(doc, path).findings
    assert (finding.element, finding.property, finding.expected) == (
        "#north",
        "contrast (svg text)",
        ">= 4.5:1",
    )
    assert finding.message.startswith("#a3aab7 on #a0a8b4; normal text (14px")
    hidden = chart_doc(mark(), label("rgb(160, 168, 180)", decorative="aria-hidden"))
    hidden["viewport"] = {"width": 1280, "height": 400}
    outcome = run(hidden, path)
    assert outcome.status is GateStatus.PASS and outcome.data["unseen"] == 1


# --- a page of HTML text and charts, every count -----------------------------------------------

WHITE_TEXT = "rgb(255, 255, 255)"  # drawn in the white page's own colour


def text_and_chart_page(
    html: list[dict[str, Any]],
    marks: list[dict[str, Any]],
    legend: dict[str, Any] | None = None,
    body_bg: str = "rgb(255, 255, 255)",
) -> dict[str, Any]:
    """A page (white unless given): the chart's <svg> (element 1), a legend key (element 2),
    then ``html``."""
    doc = page(
        el("svg", id="chart", box={"x": 0, "y": 0, "width": 400, "height": 200}),
        el("span", id="key", box={"x": 0, "y": 220, "width": 12, "height": 12}),
        *html,
        body_bg=body_bg,
    )
    doc["graphics"] = {
        "marks": [{"index": i, **m} for i, m in enumerate(marks)],
        "charts": [{"svg": 1, "role": "img", "name": "Revenue", "legend": legend}],
    }
    return doc


def at(row: int) -> dict[str, int]:
    return {"x": 200, "y": 10 + 20 * row, "width": 30, "height": 16}


def test_the_counts_and_summary_of_text_and_charts_in_full() -> None:
    html = [
        el("p", id="note", text="Note", color=MID),  # 3.95:1, below 4.5:1
        el("p", id="fine", text="Fine", color=DARK),
        el("span", id="ghost1", text="Loading", color=WHITE_TEXT),  # hidden and unseen
        el("span", id="ghost2", text="Saving", color=WHITE_TEXT),
    ]
    legend = {
        "source": "data-argus-legend",
        "items": [
            {
                "series": "north",
                "label": "North",
                "swatch": {"kind": "box", "color": DARK, "box": at(12), "element": 2},
            }
        ],
    }
    marks = [
        mark(id="bar", path="#bar", fill=MID),  # 3.95:1: meets 3:1
        mark(id="bar2", path="#bar2", fill=DARK, box=at(11)),
        mark(id="bar3", path="#bar3", fill=DARK, box=at(10)),
        label(DARK, id="ok", path="#ok", box=at(0)),
        label(GREY, id="low", path="#low", box=at(1)),  # 2.85:1: the worst ratio
        label(MID, id="up", path="#up", text="▲", box=at(2)),  # symbols: 3:1, met
        label(WHITE_TEXT, decorative="aria-hidden", box=at(3)),  # unseen
        label(DARK, opacity=0, box=at(4)),  # invisible three ways
        label("rgba(22, 24, 29, 0)", box=at(5)),
        label(DARK, fill_opacity=0, box=at(6)),
        label(MID, decorative="aria-hidden", text="★", box=at(7)),  # decorative
        label(MID, decorative="aria-hidden", text="•", box=at(8)),
    ]
    doc = text_and_chart_page(html, marks, legend)
    for index in (5, 6):
        doc["elements"][index]["aria_hidden"] = True
    outcome = run(doc)
    assert outcome.status is GateStatus.FAIL
    assert [(f.element, f.expected) for f in outcome.findings] == [
        ("#note", ">= 4.5:1"),
        ("#low", ">= 4.5:1"),
    ]
    assert outcome.data == {
        "checked": 2 + 7,
        "failed": 2,
        "not_measurable": 0,
        "from_render": 0,
        "svg_text": 3,
        "chart_marks": 3,
        "legend_swatches": 1,
        "chart_failed": 1,
        "invisible": 3,
        "unseen": 3,
        "hidden": 0,
        "inactive": 0,
        "decorative": 2,
        "fields": 0,
        "level": "AA",
        "worst_ratio": 2.85,
        "marks_left_out": 0,
        "charts_left_out": 0,
    }
    assert outcome.summary == (
        "2 text(s): 1 below WCAG AA, 0 not measurable (0 measured from the render); charts: "
        "3 SVG text(s), 3 mark(s), 1 legend swatch(es): 1 below their minimum, 0 not "
        "measurable; not applicable: 0 inactive, 6 hidden, 2 decorative"
    )


def test_svg_text_is_held_to_the_level_asked() -> None:
    doc = text_and_chart_page([], [label("rgb(100, 100, 100)", id="t", path="#t")])  # 5.9:1
    probe = parse_probe(doc)
    assert run(doc).status is GateStatus.PASS
    outcome = check_rendered_contrast(probe, None, "AAA", parse_graphics(doc, probe))
    (finding,) = outcome.findings
    assert (finding.element, finding.expected) == ("#t", ">= 7:1")


def test_svg_text_on_a_transparent_page_is_measured_on_the_canvas_the_probe_names() -> None:
    doc = text_and_chart_page([], [label(DARK, id="t", path="#t")], body_bg="rgba(0, 0, 0, 0)")
    doc["elements"][0]["canvas"] = "rgb(0, 0, 0)"
    (finding,) = run(doc).findings  # near-black text on the black canvas
    assert (finding.element, finding.value) == ("#t", "1.18:1")
    assert "on #000000" in finding.message


def test_marks_and_charts_past_the_probes_caps_are_said_unchecked() -> None:
    """A mark of a chart the probe did not list is no chart's, so it is not measured: a page
    of sparklines past the cap would pass with their contrast never looked at."""
    doc = chart_doc(mark(fill=MID))
    doc["graphics"] |= {"marks_total": 650, "charts_total": 45, "canvases_total": 3}
    outcome = run(doc)
    assert outcome.status is GateStatus.PASS
    assert outcome.summary.endswith(
        "; 649 SVG mark(s), 44 SVG chart(s) past the probe's cap not read (their contrast "
        "unchecked)"
    )
    assert (outcome.data["marks_left_out"], outcome.data["charts_left_out"]) == (649, 44)
    assert "past the probe's cap" not in run(chart_doc(mark(fill=MID))).summary
