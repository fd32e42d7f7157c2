from __future__ import annotations

import re

import pytest

from argus.errors import InputError
from argus.evidence.probe import parse_probe
from argus.gates.base import GateStatus
from argus.gates.token_compliance import DEFAULT_PROPERTIES, check_token_compliance
from argus.tokens import Tokens
from tests.gates.probes import el, page

# Habits tokens: text-primary #16181d, text-secondary #555c69, surface #ffffff, border #e2e5ea;
# spacing 4 8 16 24 32 48; type 14 16 20 28.
ON_TOKENS = dict(color="rgb(22, 24, 29)", font_size="16px")


def check(tokens: Tokens, *elements: dict, appearance: str = "light", **options):
    doc = page(*elements, body_bg="rgb(245, 246, 248)")
    options.setdefault("properties", DEFAULT_PROPERTIES)
    return check_token_compliance(parse_probe(doc), tokens, appearance, **options)


def test_on_token_page_passes(tokens: Tokens) -> None:
    outcome = check(
        tokens,
        el(
            "main",
            id="screen",
            background_color="rgb(255, 255, 255)",
            padding_top="48px",
            padding_left="24px",
            row_gap="24px",
            border_top_width="1px",
            border_top_color="rgb(226, 229, 234)",
        ),
        el("p", parent=1, text="Habits", margin_top="4px", **ON_TOKENS),
    )
    assert outcome.status is GateStatus.PASS, outcome.findings
    assert (
        outcome.data["checked"] == 36 and outcome.data["off_token"] == 0
    )  # body 11, main 12, p 13


def test_off_palette_text_colour_fails_with_the_nearest_token(tokens: Tokens) -> None:
    outcome = check(tokens, el("p", id="summary", text="x", color="rgb(91, 75, 138)"))
    assert outcome.status is GateStatus.FAIL
    (finding,) = outcome.findings
    assert (finding.element, finding.property) == ("#summary", "color")
    assert finding.value == "rgb(91, 75, 138)"
    assert re.fullmatch(r"[a-z-]+ #[0-9a-f]{6}", finding.expected)
    assert "ΔE2000" in finding.message


def test_colour_within_delta_e_passes_and_tolerance_is_configurable(tokens: Tokens) -> None:
    near = el("p", text="x", color="rgb(86, 92, 105)")  # #565c69: one step off text-secondary
    assert check(tokens, near).status is GateStatus.PASS
    assert check(tokens, near, delta_e=0.0).status is GateStatus.FAIL


def test_colours_belong_to_the_views_appearance(tokens: Tokens) -> None:
    light_text = el("p", text="x", color="rgb(85, 92, 105)")  # text-secondary, light only
    assert check(tokens, light_text, appearance="light").status is GateStatus.PASS
    assert check(tokens, light_text, appearance="dark").status is GateStatus.FAIL


def test_transparent_is_ignored_and_text_colour_needs_text(tokens: Tokens) -> None:
    outcome = check(
        tokens,
        el("div", background_color="rgba(0, 0, 0, 0)", color="rgb(255, 0, 0)"),
        el("span", text="", color="rgb(255, 0, 0)"),
    )
    assert outcome.status is GateStatus.PASS


def test_border_colour_counts_only_where_the_border_is_drawn(tokens: Tokens) -> None:
    red = "rgb(255, 0, 0)"
    undrawn = el("div", border_left_color=red, border_left_width="0px")
    assert check(tokens, undrawn).status is GateStatus.PASS
    drawn = el("div", id="card", border_left_color=red, border_left_width="1px")
    outcome = check(tokens, drawn)
    assert [(f.element, f.property) for f in outcome.findings] == [("#card", "border-left-color")]


def test_off_scale_font_size_fails(tokens: Tokens) -> None:
    outcome = check(
        tokens, el("p", id="name", text="Read", color="rgb(22, 24, 29)", font_size="18px")
    )
    (finding,) = outcome.findings
    assert (finding.property, finding.value) == ("font-size", "18px")
    assert finding.expected in ("body 16px", "lg 20px")
    assert "type scale" in finding.message


def test_off_grid_margin_fails_and_names_the_nearest_step(tokens: Tokens) -> None:
    outcome = check(tokens, el("p", testid="habits.summary", margin_top="14px"))
    (finding,) = outcome.findings
    assert finding.element == '[data-testid="habits.summary"]'
    assert (finding.property, finding.value, finding.expected) == ("margin-top", "14px", "md 16px")


@pytest.mark.parametrize(
    ("style", "status"),
    [
        ({"padding_left": "12px"}, GateStatus.FAIL),
        ({"row_gap": "10px"}, GateStatus.FAIL),
        ({"column_gap": "normal"}, GateStatus.PASS),
        ({"margin_top": "-8px"}, GateStatus.PASS),  # a negative step of the scale
        ({"margin_top": "16.02px"}, GateStatus.PASS),  # layout rounding
        ({"margin_left": "280px", "margin_right": "0px"}, GateStatus.FAIL),
    ],
)
def test_spacing_cases(tokens: Tokens, style: dict, status: GateStatus) -> None:
    assert check(tokens, el("div", **style)).status is status


CENTRED = {"x": 280, "y": 10, "width": 720, "height": 24}  # 280px either side in the 1280 body


@pytest.mark.parametrize(
    ("parent", "box", "margin", "status"),
    [
        ({}, CENTRED, "280px", GateStatus.PASS),  # margin: 0 auto, resolved to px
        ({}, {**CENTRED, "x": 0}, "280px", GateStatus.FAIL),  # symmetric, but not centring
        ({}, {**CENTRED, "width": 300}, "280px", GateStatus.FAIL),  # nor here
        # The parent's padding and border narrow the box the margins centre in.
        (
            {"padding_left": "40px", "padding_right": "24px", "border_left_width": "8px"},
            {**CENTRED, "x": 328, "width": 648},
            "280px",
            GateStatus.PASS,
        ),
        ({}, {**CENTRED, "x": 20, "width": 1240}, "20px", GateStatus.FAIL),  # 20px: off scale
    ],
)
def test_auto_margins_only_when_they_centre_the_element(
    tokens: Tokens, parent: dict, box: dict, margin: str, status: GateStatus
) -> None:
    wrapper = el("section", box={"x": 0, "y": 0, "width": 1280, "height": 200}, **parent)
    child = el("div", parent=1, box=box, margin_left=margin, margin_right=margin)
    outcome = check(tokens, wrapper, child, properties=["margin"])
    assert outcome.status is status, outcome.findings


def test_hidden_and_visually_hidden_elements_are_skipped(tokens: Tokens) -> None:
    outcome = check(
        tokens,
        el(
            "h2",
            text="x",
            font_size="24px",
            margin_top="19.92px",
            box={"x": 0, "y": 0, "width": 1, "height": 1},
        ),
        el("p", text="x", font_size="13px", visible=False),
    )
    assert outcome.status is GateStatus.PASS


def test_allow_list_by_id_covers_the_subtree_and_by_value(tokens: Tokens) -> None:
    chart = el("div", id="chart", background_color="rgb(255, 0, 0)")
    inside = el("span", parent=1, text="x", color="rgb(0, 128, 0)", **{"font_size": "16px"})
    assert check(tokens, chart, inside).status is GateStatus.FAIL
    assert check(tokens, chart, inside, allow=["#chart"]).status is GateStatus.PASS
    assert check(tokens, chart, inside, allow=["chart"]).status is GateStatus.PASS
    assert check(tokens, el("p", padding_top="12px"), allow=["12px"]).status is GateStatus.PASS
    red = el("div", background_color="rgb(255, 0, 0)")
    assert check(tokens, red, allow=["#ff0000"]).status is GateStatus.PASS
    assert check(tokens, red, allow=["red"]).status is GateStatus.PASS


def test_properties_are_configurable(tokens: Tokens) -> None:
    off_grid = el("p", text="x", color="rgb(22, 24, 29)", margin_top="14px", font_size="18px")
    assert check(tokens, off_grid, properties=["color"]).status is GateStatus.PASS
    only_margin = check(tokens, off_grid, properties=["margin"])
    assert [f.property for f in only_margin.findings] == ["margin-top"]
    radius = el("div", border_radius="6px")
    assert check(tokens, radius).status is GateStatus.PASS  # not checked by default
    assert check(tokens, radius, properties=["border-radius"]).status is GateStatus.FAIL


def test_unknown_property_and_appearance_are_input_errors(tokens: Tokens) -> None:
    with pytest.raises(InputError, match="unknown property 'colour'"):
        check(tokens, properties=["colour"])
    with pytest.raises(InputError, match="no appearance 'sepia'"):
        check(tokens, appearance="sepia")


def test_unparseable_computed_colour_is_an_input_error(tokens: Tokens) -> None:
    with pytest.raises(InputError, match="bad colour"):
        check(tokens, el("div", background_color="not-a-colour"))


@pytest.mark.parametrize(
    "elements",
    [
        (),
        (
            el("p", text="gone", visible=False),
            el("p", text="tiny", box={"x": 0, "y": 0, "width": 1, "height": 1}),
        ),
    ],
)
def test_nothing_to_check_is_a_skip_not_a_pass(tokens: Tokens, elements: tuple) -> None:
    doc = page(*elements)
    doc["elements"][0]["visible"] = False  # an empty page: not even the body has a box
    outcome = check_token_compliance(parse_probe(doc), tokens, "light")
    assert outcome.status is GateStatus.SKIP
    assert outcome.summary.startswith("nothing to check")
    assert outcome.data["checked"] == 0


def test_on_token_page_checks_an_exact_count(tokens: Tokens) -> None:
    # body: background, 4 margins, 4 paddings, 2 gaps = 11; the main adds its drawn top border
    # (12); the p adds its text colour and size (13): 36 values, each on the tokens.
    outcome = check(
        tokens,
        el("main", background_color="rgb(255, 255, 255)", border_top_width="1px"),
        el("p", parent=1, text="Habits", **ON_TOKENS),
    )
    assert outcome.status is GateStatus.PASS, outcome.findings
    assert outcome.data == {"checked": 36, "off_token": 0, "by_property": {}}


def test_findings_are_counted_per_property(tokens: Tokens) -> None:
    outcome = check(
        tokens,
        el("p", text="x", color="rgb(200, 30, 200)", font_size="18px", margin_top="14px"),
        el("p", text="y", color="rgb(200, 30, 200)", padding_left="12px"),
    )
    assert outcome.status is GateStatus.FAIL
    assert outcome.data["off_token"] == 5 == len(outcome.findings)
    assert outcome.data["by_property"] == {
        "color": 2,
        "font-size": 1,
        "margin-top": 1,
        "padding-left": 1,
    }


def test_findings_are_capped_but_all_counted(tokens: Tokens) -> None:
    off = [el("div", padding_top="12px") for _ in range(105)]
    outcome = check(tokens, *off, properties=["padding"])
    assert outcome.data["off_token"] == 105 and len(outcome.findings) == 100


def test_colours_fail_when_the_tokens_define_none_for_the_appearance(tokens: Tokens) -> None:
    from dataclasses import replace

    from argus.color import parse_color

    none = replace(tokens, colors={})
    outcome = check(none, el("p", text="x", **ON_TOKENS), properties=["color"])
    assert outcome.status is GateStatus.FAIL
    (finding,) = outcome.findings
    assert (finding.property, finding.expected) == ("color", "(no colour tokens)")
    dark_only = replace(
        tokens,
        appearances=("light", "dark"),
        colors={"ink": {"dark": parse_color("rgb(22, 24, 29)")}},
    )
    light = check(dark_only, el("p", text="x", **ON_TOKENS), properties=["color"])
    assert light.status is GateStatus.FAIL and light.data["off_token"] == 1
    dark = check(dark_only, el("p", text="x", **ON_TOKENS), properties=["color"], appearance="dark")
    assert dark.status is GateStatus.PASS


def test_spacing_fails_when_the_tokens_define_no_scale(tokens: Tokens) -> None:
    from dataclasses import replace

    outcome = check(replace(tokens, spacing={}), el("div", margin_top="8px"), properties=["margin"])
    (finding,) = outcome.findings
    assert (finding.property, finding.expected) == ("margin-top", "(no spacing scale)")


def test_a_root_element_with_equal_margins_is_not_auto_centred(tokens: Tokens) -> None:
    doc = page(margin_left="300px", margin_right="300px")
    doc["elements"][0]["box"] = {"x": 300, "y": 0, "width": 680, "height": 800}
    outcome = check_token_compliance(parse_probe(doc), tokens, "light", properties=["margin"])
    assert outcome.status is GateStatus.FAIL
    assert outcome.data["by_property"] == {"margin-left": 1, "margin-right": 1}


@pytest.mark.parametrize(("right", "status"), [(281, GateStatus.PASS), (282, GateStatus.FAIL)])
def test_auto_margins_may_differ_by_one_pixel(
    tokens: Tokens, right: int, status: GateStatus
) -> None:
    wrapper = el("section", box={"x": 0, "y": 0, "width": 1280, "height": 200})
    box = {"x": 280, "y": 10, "width": 1280 - 280 - right, "height": 24}
    child = el("div", parent=1, box=box, margin_left="280px", margin_right=f"{right}px")
    outcome = check(tokens, wrapper, child, properties=["margin"])
    assert outcome.status is status, outcome.findings


@pytest.mark.parametrize(
    ("margin", "status"), [("16.04px", GateStatus.PASS), ("16.07px", GateStatus.FAIL)]
)
def test_layout_rounding_tolerance(tokens: Tokens, margin: str, status: GateStatus) -> None:
    assert check(tokens, el("div", margin_top=margin), properties=["margin"]).status is status


@pytest.mark.parametrize(
    ("box", "rendered"),
    [
        ({"width": 1, "height": 1}, False),
        ({"width": 1, "height": 40}, False),  # the 1 px cut-off on one side is enough
        ({"width": 200, "height": 1}, False),
        ({"width": 2, "height": 2}, True),
        ({"width": 200, "height": 2}, True),
    ],
)
def test_the_visually_hidden_cut_off(tokens: Tokens, box: dict, rendered: bool) -> None:
    tiny = el("p", text="x", font_size="13px", box={"x": 0, "y": 0, **box})
    outcome = check(tokens, tiny, properties=["font-size"])
    assert outcome.data["checked"] == (1 if rendered else 0)
    assert outcome.status is (GateStatus.FAIL if rendered else GateStatus.SKIP)


def test_the_outcome_names_the_gate_and_counts_in_its_summary(tokens: Tokens) -> None:
    failed = check(tokens, el("div", padding_top="12px"), el("div", margin_top="14px"))
    assert failed.name == "token_compliance" and failed.summary.startswith("2 off-token")
    passed = check(tokens, el("div", padding_top="16px"))
    assert passed.name == "token_compliance" and passed.summary.startswith("0 off-token")
    doc = page()
    doc["elements"][0]["visible"] = False
    skipped = check_token_compliance(parse_probe(doc), tokens, "light")
    assert skipped.name == "token_compliance" and skipped.findings == ()


def test_the_default_colour_tolerance_is_delta_e_1(tokens: Tokens) -> None:
    near = el("p", text="x", color="rgb(27, 29, 34)")  # ΔE2000 1.57 from text-primary
    assert check(tokens, near).status is GateStatus.FAIL
    assert check(tokens, near, delta_e=2.0).status is GateStatus.PASS


def test_an_element_skipped_does_not_stop_the_check(tokens: Tokens) -> None:
    hidden = el("p", text="x", font_size="13px", visible=False)
    allowed = el("div", id="chart", background_color="rgb(255, 0, 0)")
    off = el("div", padding_top="12px")
    outcome = check(tokens, hidden, allowed, off, allow=["12px-not", "#chart"])
    assert outcome.status is GateStatus.FAIL and outcome.data["by_property"] == {"padding-top": 1}


def test_every_allow_entry_counts(tokens: Tokens) -> None:
    chart = el("div", id="chart", background_color="rgb(255, 0, 0)", padding_top="12px")
    assert check(tokens, chart, allow=["12px", "#chart"]).status is GateStatus.PASS
    assert check(tokens, chart, allow=["12px"]).status is GateStatus.FAIL


@pytest.mark.parametrize(
    "entry", ["section", "#chart", "chart", "habits.chart", '[data-testid="habits.chart"]']
)
def test_an_element_is_allowed_by_tag_id_or_test_id(tokens: Tokens, entry: str) -> None:
    chart = el("section", id="Chart", testid="Habits.Chart", background_color="rgb(255, 0, 0)")
    assert check(tokens, chart).status is GateStatus.FAIL
    assert check(tokens, chart, allow=[entry]).status is GateStatus.PASS


def test_radii_are_read_on_the_radius_scale(tokens: Tokens) -> None:
    on_radius = el("div", border_radius="12px")  # radius lg; not a spacing step
    assert check(tokens, on_radius, properties=["border-radius"]).status is GateStatus.PASS
    elliptic = el("div", border_radius="4px / 8px")
    assert check(tokens, elliptic, properties=["border-radius"]).status is GateStatus.PASS
    off = check(tokens, el("div", border_radius="6px"), properties=["border-radius"])
    (finding,) = off.findings
    assert finding.value == "6px" and finding.expected in ("sm 4px", "md 8px")


def test_a_text_without_a_computed_colour_is_bad_input(tokens: Tokens) -> None:
    doc = page(el("p", text="x"))
    del doc["elements"][1]["style"]["color"]
    with pytest.raises(InputError):
        check_token_compliance(parse_probe(doc), tokens, "light", properties=["color"])


def test_one_sided_margin_is_not_auto_centring(tokens: Tokens) -> None:
    doc = page(el("div", margin_left="280px"))
    del doc["elements"][1]["style"]["margin-right"]
    outcome = check_token_compliance(parse_probe(doc), tokens, "light", properties=["margin"])
    assert outcome.status is GateStatus.FAIL
    assert outcome.data["by_property"] == {"margin-left": 1}


@pytest.mark.parametrize(
    ("box", "status"),
    [
        ({**CENTRED, "x": 281, "width": 719}, GateStatus.PASS),  # 1 px off on the left
        ({**CENTRED, "x": 280, "width": 719}, GateStatus.PASS),  # 1 px off on the right
        ({**CENTRED, "x": 282, "width": 716}, GateStatus.FAIL),  # 2 px off
    ],
)
def test_centring_allows_one_pixel_of_rounding(
    tokens: Tokens, box: dict, status: GateStatus
) -> None:
    wrapper = el("section", box={"x": 0, "y": 0, "width": 1280, "height": 200})
    child = el("div", parent=1, box=box, margin_left="280px", margin_right="280px")
    assert check(tokens, wrapper, child, properties=["margin"]).status is status


def test_the_parents_right_border_narrows_the_centring_box(tokens: Tokens) -> None:
    wrapper = el(
        "section", box={"x": 0, "y": 0, "width": 1280, "height": 200}, border_right_width="8px"
    )
    child = el(
        "div",
        parent=1,
        box={"x": 280, "y": 10, "width": 712, "height": 24},
        margin_left="280px",
        margin_right="280px",
    )
    assert check(tokens, wrapper, child, properties=["margin"]).status is GateStatus.PASS


def test_a_radius_pair_without_spaces_is_read_part_by_part(tokens: Tokens) -> None:
    bad = check(tokens, el("div", border_radius="4px/6px"), properties=["border-radius"])
    assert bad.status is GateStatus.FAIL
