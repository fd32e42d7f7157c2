"""The gates' probe reader: what parse_probe accepts, refuses and defaults, and the selectors,
ancestry and lengths the gates read from it."""

from __future__ import annotations

from typing import Any

import pytest

from argus.color import RGBA
from argus.diff.masks import Box
from argus.errors import InputError
from argus.evidence.probe import Element, FieldText, GlyphControl, Probe, parse_probe, parse_px
from tests.gates.probes import el, page


def raw(tag: str, parent: int | None = 0, **fields: Any) -> dict[str, Any]:
    return {"tag": tag, "parent": parent, **fields}


def probe(*elements: dict[str, Any], **doc: Any) -> Probe:
    return parse_probe({"elements": list(elements), **doc})


def tree(*elements: dict[str, Any]) -> Probe:
    """html > body > elements (parents given as indices into the whole list)."""
    return probe(raw("html", None), raw("body", 0), *elements)


# --- lengths and text ---


@pytest.mark.parametrize(
    ("value", "px"),
    [
        ("12px", 12.0),
        (" 1.5px ", 1.5),
        ("-2px", -2.0),
        ("0px", 0.0),
        ("normal", None),
        ("12", None),
        ("1em", None),
        ("px", None),
        ("wide px", None),
        ("", None),
    ],
)
def test_parse_px(value: str, px: float | None) -> None:
    assert parse_px(value) == px


def test_an_element_reads_its_computed_lengths_in_px() -> None:
    (element,) = probe(raw("p", None, style={"font-size": "14px", "gap": "normal"})).elements
    assert element.px("font-size") == 14.0
    assert element.px("gap") is None
    assert element.px("margin-top") is None  # not recorded


def test_text_is_own_text_that_is_not_blank() -> None:
    elements = probe(raw("p", None, text="Hi"), raw("p", 0, text=" \n "), raw("p", 0)).elements
    assert [e.has_text for e in elements] == [True, False, False]


def test_text_boxes_are_the_text_rectangles_else_the_box() -> None:
    box = {"x": 1, "y": 2, "width": 30, "height": 40}
    rects = [{"x": 3, "y": 4, "width": 5, "height": 6}, {"x": 7, "y": 8, "width": 9, "height": 10}]
    with_rects, without = probe(
        raw("p", None, box=box, text_rects=rects), raw("p", 0, box=box)
    ).elements
    assert with_rects.text_boxes == (Box(3, 4, 5, 6), Box(7, 8, 9, 10))
    assert without.text_boxes == (Box(1, 2, 30, 40),)


# --- what parse_probe reads ---


def test_every_field_is_read() -> None:
    field_text = {
        "kind": "placeholder",
        "color": "rgb(1, 2, 3)",
        "opacity": "0.5",
        "rects": [{"x": 1, "y": 1, "width": 2, "height": 2}],
    }
    parsed = parse_probe(
        {
            "viewport": {"width": 390, "height": 844.5},
            "elements": [
                raw("BODY", None, canvas="rgb(18, 18, 18)"),
                raw(
                    "Input",
                    0,
                    index=1,
                    id="name",
                    testid="form.name",
                    text="x",
                    visible=False,
                    box={"x": 1.5, "y": 2, "width": 3, "height": 4},
                    style={"color": "red"},
                    text_rects=[{"x": 0, "y": 0, "width": 1, "height": 1}],
                    backdrop=["::before", "img"],
                    text_hidden=True,
                    inactive="disabled",
                    aria_hidden=True,
                    field_text=field_text,
                ),
            ],
        }
    )
    assert (parsed.viewport_width, parsed.viewport_height) == (390.0, 844.5)
    assert parsed.canvas == RGBA(18, 18, 18, 1.0)
    assert parsed.elements[1] == Element(
        index=1,
        parent=0,
        tag="input",
        id="name",
        testid="form.name",
        text="x",
        visible=False,
        box=Box(1.5, 2.0, 3.0, 4.0),
        style={"color": "red"},
        text_rects=(Box(0, 0, 1, 1),),
        backdrop=("::before", "img"),
        text_hidden=True,
        inactive="disabled",
        aria_hidden=True,
        field_text=FieldText("placeholder", "rgb(1, 2, 3)", 0.5, (Box(1, 1, 2, 2),)),
    )


def test_what_a_bare_element_defaults_to() -> None:
    parsed = parse_probe({"elements": [{}]})
    assert (parsed.viewport_width, parsed.viewport_height, parsed.canvas) == (0.0, 0.0, None)
    assert parsed.elements[0] == Element(
        index=0,
        parent=None,
        tag="",
        id="",
        testid="",
        text="",
        visible=True,
        box=Box(0.0, 0.0, 0.0, 0.0),
        style={},
        text_rects=(),
        backdrop=(),
        text_hidden=False,
        inactive="",
        aria_hidden=False,
        field_text=None,
    )


def test_nulls_read_as_their_defaults() -> None:
    fields = {"id": None, "testid": None, "text": None, "style": None, "box": None}
    fields |= {"text_rects": None, "backdrop": None, "inactive": None, "field_text": None}
    parsed = parse_probe({"viewport": None, "elements": [raw("p", None, **fields)]})
    element = parsed.elements[0]
    assert (element.id, element.testid, element.text, element.inactive) == ("", "", "", "")
    assert (element.style, element.box) == ({}, Box(0, 0, 0, 0))
    assert (element.text_rects, element.backdrop, element.field_text) == ((), (), None)
    assert parsed.viewport_width == 0.0


@pytest.mark.parametrize("flag", ["text_hidden", "aria_hidden"])
@pytest.mark.parametrize("value", [1, "true", "yes", [1]])
def test_only_a_json_true_sets_a_flag(flag: str, value: Any) -> None:
    element = probe(raw("p", None, **{flag: value})).elements[0]
    assert getattr(element, flag) is False


def test_a_field_texts_opacity_is_clamped_and_defaults_to_1() -> None:
    def opacity(value: Any = None) -> float:
        text: dict[str, Any] = {"kind": "value", "color": "#000"}
        if value is not None:
            text["opacity"] = value
        field = probe(raw("input", None, field_text=text)).elements[0].field_text
        assert field is not None and field.rects == ()
        return field.opacity

    assert [opacity(), opacity("0.25"), opacity(0.75)] == [1.0, 0.25, 0.75]
    assert [opacity("-0.5"), opacity(3), opacity("0"), opacity(1)] == [0.0, 1.0, 0.0, 1.0]


@pytest.mark.parametrize("kind", ["value", "placeholder", "label"])
def test_each_field_text_kind_is_read(kind: str) -> None:
    text = {"kind": kind, "color": "#000", "rects": None}
    field = probe(raw("input", None, field_text=text)).elements[0].field_text
    assert field is not None and (field.kind, field.rects) == (kind, ())


def test_the_canvas_is_the_first_elements_only() -> None:
    parsed = probe(raw("html", None), raw("body", 0, canvas="rgb(0, 0, 0)"))
    assert parsed.canvas is None
    assert probe().canvas is None


# --- what parse_probe refuses (each an InputError naming the file and the field) ---


@pytest.mark.parametrize(
    ("doc", "where"),
    [
        ({}, "'elements'"),
        ({"elements": {}}, "'elements'"),
        ({"elements": [], "viewport": [1, 2]}, "'viewport'"),
        ({"elements": [], "viewport": {"width": "1280px"}}, "viewport.width"),
        ({"elements": [], "viewport": {"width": 1, "height": True}}, "viewport.height"),
        ({"elements": ["body"]}, r"elements\[0\]"),
        ({"elements": [{"index": 1}]}, r"elements\[0\]\.index"),
        ({"elements": [{"index": "0"}]}, r"elements\[0\]\.index"),
        ({"elements": [{}, {"parent": 1}]}, r"elements\[1\]\.parent"),
        ({"elements": [{}, {"parent": 2}]}, r"elements\[1\]\.parent"),
        ({"elements": [{}, {"parent": -1}]}, r"elements\[1\]\.parent"),
        ({"elements": [{}, {"parent": "0"}]}, r"elements\[1\]\.parent"),
        ({"elements": [{"parent": 0}]}, r"elements\[0\]\.parent"),
        ({"elements": [{"style": ["color"]}]}, r"elements\[0\]\.style"),
        ({"elements": [{"style": {"opacity": 1}}]}, r"elements\[0\]\.style"),
        ({"elements": [{"box": [0, 0, 1, 1]}]}, r"elements\[0\]\.box"),
        ({"elements": [{"box": {"x": "1"}}]}, r"elements\[0\]\.box\.x"),
        ({"elements": [{"box": {"height": False}}]}, r"elements\[0\]\.box\.height"),
        ({"elements": [{"text_rects": {}}]}, r"elements\[0\]\.text_rects"),
        ({"elements": [{"text_rects": [{"x": 0, "y": 0, "width": 1}]}]}, "text_rects"),
        ({"elements": [{"text_rects": ["0 0 1 1"]}]}, "text_rects"),
        (
            {"elements": [{"text_rects": [{"x": 0, "y": 0, "width": 1, "height": "1"}]}]},
            r"elements\[0\]\.text_rects\[0\]\.height",
        ),
        ({"elements": [{"backdrop": "img"}]}, r"elements\[0\]\.backdrop"),
        ({"elements": [{"backdrop": ["img", ""]}]}, r"elements\[0\]\.backdrop"),
        ({"elements": [{"backdrop": [3]}]}, r"elements\[0\]\.backdrop"),
        ({"elements": [{"inactive": True}]}, r"elements\[0\]\.inactive"),
        ({"elements": [{"field_text": "hi"}]}, r"elements\[0\]\.field_text"),
        ({"elements": [{"field_text": {"kind": "text", "color": "#000"}}]}, "field_text"),
        ({"elements": [{"field_text": {"kind": "value"}}]}, r"field_text\.color"),
        ({"elements": [{"field_text": {"kind": "value", "color": ""}}]}, r"field_text\.color"),
        ({"elements": [{"field_text": {"kind": "value", "color": 0}}]}, r"field_text\.color"),
        (
            {"elements": [{"field_text": {"kind": "value", "color": "#000", "opacity": "x"}}]},
            r"field_text\.opacity",
        ),
        (
            {"elements": [{"field_text": {"kind": "value", "color": "#000", "opacity": [1]}}]},
            r"field_text\.opacity",
        ),
        (
            {"elements": [{"field_text": {"kind": "value", "color": "#000", "rects": [1]}}]},
            r"field_text\.text_rects",
        ),
        ({"elements": [{"canvas": "dusk"}]}, r"elements\[0\]\.canvas"),
    ],
)
def test_a_malformed_probe_is_bad_input_naming_the_field(doc: dict[str, Any], where: str) -> None:
    with pytest.raises(InputError, match=rf"^runs/probe\.json: .*{where}"):
        parse_probe(doc, "runs/probe.json")


def test_the_default_source_is_probe_json() -> None:
    with pytest.raises(InputError, match=r"^probe\.json: 'elements'"):
        parse_probe({})


# --- ancestry and selectors ---


def test_ancestors_are_nearest_first() -> None:
    parsed = tree(raw("main", 1), raw("ul", 2), raw("li", 3))
    assert [a.tag for a in parsed.ancestors(parsed.elements[4])] == ["ul", "main", "body", "html"]
    assert list(parsed.ancestors(parsed.elements[0])) == []


def test_ancestry_stops_on_a_cycle() -> None:
    # parse_probe refuses a parent that is not earlier; a Probe built by hand may still loop
    def element(index: int, parent: int) -> Element:
        box = Box(0, 0, 1, 1)
        return Element(index, parent, "div", "", "", "", True, box, {})

    looped = Probe((element(0, 1), element(1, 0)), 10, 10)
    assert [a.index for a in looped.ancestors(looped.elements[0])] == [1, 0]


@pytest.mark.parametrize(
    ("elements", "index", "selector"),
    [
        # an element's own id or test id
        ([raw("button", 1, id="save", testid="x")], 2, "#save"),
        ([raw("button", 1, testid="form.save")], 2, '[data-testid="form.save"]'),
        # below the nearest anchor
        ([raw("main", 1, id="app"), raw("p", 2)], 3, "#app > p"),
        ([raw("main", 1, testid="screen"), raw("p", 2)], 3, '[data-testid="screen"] > p'),
        # no anchor: from body down ("html >" says nothing)
        ([raw("main", 1), raw("p", 2)], 3, "body > main > p"),
        # at most three steps below an anchor
        (
            [raw("main", 1, id="app"), raw("div", 2), raw("ul", 3), raw("li", 4)],
            5,
            "#app > div > ul > li",
        ),
        (
            [
                raw("main", 1, id="app"),
                raw("section", 2),
                raw("div", 3),
                raw("ul", 4),
                raw("li", 5),
            ],
            6,
            "… div ul li",
        ),
        # siblings of one tag are told apart, other tags do not count
        ([raw("p", 1), raw("div", 1), raw("p", 1)], 4, "body > p:nth-of-type(2)"),
        ([raw("p", 1), raw("div", 1), raw("p", 1)], 3, "body > div"),
        ([raw("p", 1), raw("p", 1)], 2, "body > p:nth-of-type(1)"),
    ],
)
def test_selectors(elements: list[dict[str, Any]], index: int, selector: str) -> None:
    parsed = tree(*elements)
    assert parsed.selector(parsed.elements[index]) == selector


def test_a_root_that_is_not_html_is_named_by_its_tag() -> None:
    parsed = probe(raw("body", None), raw("p", 0), raw("p", 0))
    assert parsed.selector(parsed.elements[0]) == "body"
    assert parsed.selector(parsed.elements[2]) == "body > p:nth-of-type(2)"
    html = probe(raw("html", None), raw("p", 0))
    assert html.selector(html.elements[0]) == "html"
    assert html.selector(html.elements[1]) == "p"


def test_a_glyph_controls_name_and_text_are_read_and_a_forged_one_refused() -> None:
    doc = page(el("button", text="X"))
    doc["elements"][1]["control"] = {"name": "Close", "text": "X"}
    assert parse_probe(doc).elements[1].control == GlyphControl("Close", "X")
    doc["elements"][1]["control"] = "Close"
    with pytest.raises(InputError, match=r"elements\[1\]\.control must be an object"):
        parse_probe(doc)
    doc["elements"][1]["control"] = {"name": 3, "text": "X"}
    with pytest.raises(InputError, match=r"elements\[1\]\.control\.name must be a string"):
        parse_probe(doc)
    doc["elements"][1]["control"] = {"name": "Close", "text": ["X"]}
    with pytest.raises(InputError) as refused:
        parse_probe(doc)
    assert str(refused.value) == "probe.json: elements[1].control.text must be a string"
