"""rendered_contrast without a browser: which text WCAG 1.4.3 applies to, which minimum it
needs, how text-shadows and group opacity change what surrounds the glyphs, and the exact
numbers the gate reports. The probes are hand-written in the sensor's format."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from argus.color import RGBA, composite, contrast_ratio, parse_color, to_hex
from argus.evidence.probe import parse_probe
from argus.gates.base import GateStatus
from argus.gates.render_pixels import RenderImage
from argus.gates.rendered_contrast import (
    MAX_FINDINGS,
    check_rendered_contrast,
    font_weight,
    is_large_text,
    requirement,
    symbols_only,
)
from tests.gates.probes import el, page

WHITE = RGBA(255.0, 255.0, 255.0)
BLACK = RGBA(0.0, 0.0, 0.0)
GREY = "rgb(153, 153, 153)"  # 2.85:1 on white: fails 4.5:1 and 3:1
LARGE_GREY = "rgb(148, 148, 148)"  # 3.03:1 on white: passes 3:1 only
DARK = "rgb(22, 24, 29)"


def run(doc: dict[str, Any], render: Path | None = None, level: str = "AA"):
    return check_rendered_contrast(parse_probe(doc), render, level)


def with_raw(doc: dict[str, Any], index: int, **raw: Any) -> dict[str, Any]:
    """Set probe fields ``el`` has no keyword for (inactive, aria_hidden, field_text ...)."""
    doc["elements"][index].update(raw)
    return doc


def ratio(fg: str, bg: RGBA = WHITE) -> float:
    return contrast_ratio(parse_color(fg), bg)


def element(**kw: Any):
    return parse_probe(page(el("p", text="x", **kw))).elements[1]


# --- which text is measured -------------------------------------------------------------------


def test_each_exempt_text_is_counted_under_its_reason() -> None:
    doc = page(
        el("p", id="ok", text="Settings", color=DARK),
        el("p", id="clipped", text="clipped", color=GREY),
        el("button", id="b", text="Save", color=GREY),
        el("span", id="star", text="★", color=GREY),
        el("span", id="words", text="Starred", color=GREY),
        el("p", id="faded", text="faded", color=GREY, opacity="0"),
        el("p", id="tiny", text="tiny", color=GREY, box={"x": 0, "y": 0, "width": 1, "height": 9}),
    )
    with_raw(doc, 2, text_hidden=True)
    with_raw(doc, 3, inactive="disabled")
    with_raw(doc, 4, aria_hidden=True)
    with_raw(doc, 5, aria_hidden=True)  # hidden from AT, but words: still measured
    outcome = run(doc)
    assert outcome.status is GateStatus.FAIL
    assert [f.element for f in outcome.findings] == ["#words"]
    data = {k: outcome.data[k] for k in ("checked", "failed", "hidden", "inactive")}
    assert data == {"checked": 2, "failed": 1, "hidden": 1, "inactive": 1}
    assert (outcome.data["decorative"], outcome.data["invisible"]) == (1, 1)
    assert outcome.data["fields"] == 0 and outcome.data["not_measurable"] == 0


@pytest.mark.parametrize(
    ("width", "height", "measured"),
    [(1, 40, False), (200, 1, False), (1, 1, False), (2, 2, True), (1.5, 40, True)],
)
def test_boxes_of_one_pixel_or_less_are_the_visually_hidden_trick(
    width: float, height: float, measured: bool
) -> None:
    box = {"x": 0, "y": 0, "width": width, "height": height}
    doc = page(el("p", text="x", color=GREY, box=box), el("p", text="y", color=DARK))
    outcome = run(doc)
    assert outcome.data["checked"] == (2 if measured else 1)
    assert outcome.status is (GateStatus.FAIL if measured else GateStatus.PASS)
    assert outcome.data["hidden"] == 0  # not counted anywhere: not text anyone sees


def test_an_exempt_element_with_nothing_else_is_a_skip() -> None:
    doc = page(el("button", text="Save", color=GREY))
    with_raw(doc, 1, inactive="aria-disabled")
    outcome = run(doc)
    assert outcome.status is GateStatus.SKIP
    assert outcome.data["inactive"] == 1 and outcome.data["checked"] == 0


def field(kind: str, color: str, rects: list[dict[str, float]] | None, opacity: float = 1.0):
    return {"kind": kind, "color": color, "opacity": opacity, "rects": rects}


RECT = {"x": 12, "y": 12, "width": 100, "height": 20}


def test_a_fields_own_text_is_measured_and_named_by_its_kind() -> None:
    doc = page(
        el("input", id="v"),
        el("input", id="ph"),
        el("input", id="sub"),
        el("input", id="ok"),
    )
    with_raw(doc, 1, field_text=field("value", GREY, [RECT]))
    with_raw(doc, 2, field_text=field("placeholder", GREY, [RECT]))
    with_raw(doc, 3, field_text=field("label", GREY, [RECT]))
    with_raw(doc, 4, field_text=field("value", DARK, [RECT]))
    outcome = run(doc)
    assert outcome.status is GateStatus.FAIL
    assert [(f.element, f.property) for f in outcome.findings] == [
        ("#v", "contrast (value)"),
        ("#ph", "contrast (placeholder)"),
        ("#sub", "contrast (label)"),
    ]
    assert {f.value for f in outcome.findings} == {f"{ratio(GREY):.2f}:1"}
    assert outcome.data["fields"] == 4 and outcome.data["checked"] == 4


def test_a_field_without_rects_is_hidden_and_a_disabled_one_inactive() -> None:
    doc = page(el("input", id="empty"), el("input", id="off"), el("p", text="x", color=DARK))
    with_raw(doc, 1, field_text=field("value", GREY, []))
    with_raw(doc, 2, field_text=field("value", GREY, [RECT]), inactive="disabled")
    outcome = run(doc)
    assert outcome.status is GateStatus.PASS
    assert (outcome.data["hidden"], outcome.data["inactive"], outcome.data["fields"]) == (1, 1, 0)


def test_a_fields_text_opacity_fades_its_colour() -> None:
    doc = page(el("input", id="v"))
    with_raw(doc, 1, field_text=field("value", "rgb(0, 0, 0)", [RECT], opacity=0.5))
    outcome = run(doc)
    expected = contrast_ratio(RGBA(0.0, 0.0, 0.0, 0.5), WHITE)
    assert outcome.data["worst_ratio"] == round(expected, 2)
    assert outcome.status is GateStatus.FAIL  # 3.98:1 where opaque black is 21:1


def test_a_transparent_fields_text_is_invisible() -> None:
    doc = page(el("input", id="v"), el("p", text="x", color=DARK))
    with_raw(doc, 1, field_text=field("value", GREY, [RECT], opacity=0.0))
    outcome = run(doc)
    assert outcome.data["invisible"] == 1 and outcome.data["checked"] == 1


def test_an_element_with_text_and_a_field_is_measured_twice() -> None:
    doc = page(el("button", id="b", text="Go", color=GREY))
    with_raw(doc, 1, field_text=field("label", GREY, [RECT]))
    outcome = run(doc)
    assert [f.property for f in outcome.findings] == ["contrast", "contrast (label)"]
    assert outcome.data["fields"] == 1 and outcome.data["checked"] == 2


def test_a_fields_symbols_still_need_the_text_minimum() -> None:
    """A field's value is text the user typed: symbols in it are not a graphical object."""
    doc = page(el("input", id="v", text="★"))
    with_raw(doc, 1, text="", field_text=field("value", LARGE_GREY, [RECT]))
    (finding,) = run(doc).findings
    assert finding.expected == ">= 4.5:1"


# --- which minimum applies --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected", "status"),
    [
        ("★", ">= 3:1", GateStatus.PASS),  # a meaningful symbol: WCAG 1.4.11's 3:1
        ("→ ✓ •", ">= 3:1", GateStatus.PASS),
        ("A", ">= 4.5:1", GateStatus.FAIL),
        ("5", ">= 4.5:1", GateStatus.FAIL),  # digits are text
        ("★ 5", ">= 4.5:1", GateStatus.FAIL),
    ],
)
def test_symbols_only_need_3_to_1(text: str, expected: str, status: GateStatus) -> None:
    outcome = run(page(el("span", id="s", text=text, color=LARGE_GREY)))
    assert outcome.status is status
    assert outcome.data["checked"] == 1
    found = run(page(el("span", id="s", text=text, color=GREY))).findings
    assert [f.expected for f in found] == [expected]


def test_symbols_only() -> None:
    assert symbols_only("★") and symbols_only(" → ")
    assert not symbols_only("") and not symbols_only("   ")
    assert not symbols_only("a★") and not symbols_only("٣")  # an Arabic-Indic digit


@pytest.mark.parametrize(
    ("raw", "weight"),
    [
        ("bold", 700),
        (" BOLD ", 700),
        ("bolder", 700),
        ("normal", 400),
        ("lighter", 300),
        ("600", 600),
        ("700.0", 700),
        ("heavy", 400),
        ("", 400),
    ],
)
def test_font_weight(raw: str, weight: int) -> None:
    assert font_weight(element(font_weight=raw)) == weight


def test_a_missing_font_weight_is_normal() -> None:
    doc = page(el("p", text="x"))
    del doc["elements"][1]["style"]["font-weight"]
    assert font_weight(parse_probe(doc).elements[1]) == 400


@pytest.mark.parametrize(
    ("size", "weight", "large"),
    [
        ("24px", "400", True),
        ("23.99px", "400", False),
        ("18.66px", "700", True),
        ("18.66px", "bold", True),
        ("18.65px", "700", False),
        ("18.66px", "699", False),
        ("30px", "100", True),
        ("normal", "700", False),  # no px size: not large
    ],
)
def test_large_text(size: str, weight: str, large: bool) -> None:
    assert is_large_text(element(font_size=size, font_weight=weight)) is large


@pytest.mark.parametrize(
    ("level", "size", "minimum"),
    [("AA", "16px", 4.5), ("AA", "24px", 3.0), ("AAA", "16px", 7.0), ("AAA", "24px", 4.5)],
)
def test_requirement_by_level_and_size(level: str, size: str, minimum: float) -> None:
    assert requirement(element(font_size=size), level).minimum == minimum
    assert requirement(element(font_size=size), level, symbols_only=True).minimum == 3.0


def test_large_text_at_aaa_needs_4_5_to_1() -> None:
    # #767676 on white is 4.54:1: enough for large text at AAA, not for body text.
    grey = "rgb(118, 118, 118)"
    large = run(page(el("h1", text="x", color=grey, font_size="24px")), level="AAA")
    assert large.status is GateStatus.PASS and large.data["level"] == "AAA"
    small = run(page(el("p", text="x", color=grey)), level="AAA")
    assert [f.expected for f in small.findings] == [">= 7:1"]


# --- group opacity and layering ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("opacity", "alpha"),
    [("0.5", 0.5), ("1.5", 1.0), ("junk", 1.0), ("", 1.0)],
)
def test_opacity_is_read_clamped_and_malformed_is_opaque(opacity: str, alpha: float) -> None:
    doc = page(el("div", opacity=opacity), el("p", parent=1, text="x", color="rgb(0, 0, 0)"))
    outcome = run(doc)
    expected = contrast_ratio(RGBA(0.0, 0.0, 0.0, alpha), WHITE)
    assert outcome.data["worst_ratio"] == round(expected, 2)


def test_a_negative_opacity_is_fully_transparent() -> None:
    doc = page(el("p", text="x", color=GREY, opacity="-1"), el("p", text="y", color=DARK))
    assert run(doc).data["invisible"] == 1


def test_group_opacity_multiplies_down_the_tree() -> None:
    doc = page(
        el("div", opacity="0.5"),
        el("section", parent=1, opacity="0.5"),
        el("p", parent=2, text="x", color="rgb(0, 0, 0)"),
    )
    expected = contrast_ratio(RGBA(0.0, 0.0, 0.0, 0.25), WHITE)
    assert run(doc).data["worst_ratio"] == round(expected, 2)


def test_the_root_elements_own_opacity_fades_what_is_under_it() -> None:
    # The body (the root here) at half opacity: its white fades over the white canvas, the
    # text with it.
    doc = page(el("p", text="x", color="rgb(0, 0, 0)"), opacity="0.5")
    doc["elements"][0]["canvas"] = "rgb(255, 255, 255)"
    expected = contrast_ratio(RGBA(0.0, 0.0, 0.0, 0.5), WHITE)
    assert run(doc).data["worst_ratio"] == round(expected, 2)


def test_a_translucent_text_colour_is_faded_once() -> None:
    doc = page(el("p", text="x", color="rgba(0, 0, 0, 0.5)"))
    expected = contrast_ratio(RGBA(0.0, 0.0, 0.0, 0.5), WHITE)
    assert run(doc).data["worst_ratio"] == round(expected, 2)


def test_an_image_behind_a_translucent_background_needs_the_render(tmp_path: Path) -> None:
    doc = page(
        el("div", background_image="url(photo.png)"),
        el("p", parent=1, text="x", color=DARK, background_color="rgba(255, 255, 255, 0.5)"),
    )
    outcome = run(doc, render=tmp_path / "missing.png")
    assert outcome.status is GateStatus.ERROR and outcome.data["from_render"] == 1
    # An opaque background hides the image: the styles say everything.
    doc["elements"][2]["style"]["background-color"] = "rgb(255, 255, 255)"
    opaque = run(doc, render=tmp_path / "missing.png")
    assert opaque.status is GateStatus.PASS and opaque.data["from_render"] == 0


@pytest.mark.parametrize("image", ["none", "", "  none  "])
def test_no_background_image(image: str) -> None:
    doc = page(el("p", text="x", color=DARK, background_image=image))
    assert run(doc).data["from_render"] == 0


# --- text-shadow ------------------------------------------------------------------------------


def shadowed(text_color: str, shadow: str, **kw: Any) -> dict[str, Any]:
    return page(el("p", id="t", text="x", color=text_color, text_shadow=shadow, **kw))


def test_a_dark_halo_raises_the_contrast_of_light_text() -> None:
    doc = shadowed(GREY, "rgb(0, 0, 0) 0px 0px 3px, rgb(0, 0, 0) 0px 0px 3px")
    outcome = run(doc)
    assert outcome.status is GateStatus.PASS
    assert outcome.data["worst_ratio"] == round(ratio(GREY, RGBA(0.0, 0.0, 0.0)), 2)


def test_a_grey_halo_lowers_the_contrast_of_dark_text() -> None:
    doc = shadowed("rgb(51, 51, 51)", "rgb(119, 119, 119) 0px 0px 4px")
    outcome = run(doc)
    assert outcome.status is GateStatus.FAIL
    expected = ratio("rgb(51, 51, 51)", RGBA(119.0, 119.0, 119.0))
    (finding,) = outcome.findings
    assert finding.value == f"{expected:.2f}:1"
    assert "#777777" in finding.message  # the halo, not the white background


def test_the_first_listed_halo_is_painted_on_top() -> None:
    doc = shadowed("rgb(0, 0, 0)", "rgba(255, 0, 0, 0.5) 0px 0px 4px, rgb(0, 0, 255) 0px 0px 4px")
    halo = composite(RGBA(255.0, 0.0, 0.0, 0.5), RGBA(0.0, 0.0, 255.0))
    assert run(doc).data["worst_ratio"] == round(contrast_ratio(RGBA(0.0, 0.0, 0.0), halo), 2)


def test_a_shadow_far_from_the_glyphs_does_not_count() -> None:
    doc = shadowed("rgb(51, 51, 51)", "rgb(238, 238, 238) 6px 6px 0px")
    assert run(doc).data["worst_ratio"] == round(ratio("rgb(51, 51, 51)"), 2)


def test_a_one_sided_shadow_touching_the_glyphs_can_only_lower_the_contrast() -> None:
    lowered = run(shadowed("rgb(51, 51, 51)", "rgb(119, 119, 119) 1px 1px 0px"))
    expected = ratio("rgb(51, 51, 51)", RGBA(119.0, 119.0, 119.0))
    assert lowered.data["worst_ratio"] == round(expected, 2)
    assert lowered.status is GateStatus.FAIL
    (finding,) = lowered.findings
    assert "#777777" in finding.message
    # A black drop shadow under grey text does not lift it: the background still decides.
    kept = run(shadowed(GREY, "rgb(0, 0, 0) 1px 1px 0px"))
    assert kept.status is GateStatus.FAIL
    assert kept.data["worst_ratio"] == round(ratio(GREY), 2)


OUTLINE = (
    "rgb(0, 0, 0) -1px -1px 0px, rgb(0, 0, 0) 1px -1px 0px, "
    "rgb(0, 0, 0) -1px 1px 0px, rgb(0, 0, 0) 1px 1px 0px"
)


def test_offset_shadows_on_every_side_outline_the_glyphs() -> None:
    outcome = run(shadowed("rgb(255, 255, 255)", OUTLINE))
    assert outcome.status is GateStatus.PASS
    assert outcome.data["worst_ratio"] == 21.0


@pytest.mark.parametrize(
    "shadow",
    [
        "rgb(0, 0, 0) -1px 0px 0px, rgb(0, 0, 0) 1px 0px 0px",  # left and right only
        "rgb(0, 0, 0) 0px -1px 0px, rgb(0, 0, 0) 0px 1px 0px",  # above and below only
        "rgb(0, 0, 0) 1px 1px 0px, rgb(0, 0, 0) 1px -1px 0px",  # one side
        "rgb(0, 0, 0) -1px 1px 0px, rgb(0, 0, 0) -1px -1px 0px",  # the other side
        "rgb(0, 0, 0) 1px 1px 0px, rgb(0, 0, 0) -1px 1px 0px",  # below
        "rgb(0, 0, 0) 1px -1px 0px, rgb(0, 0, 0) -1px -1px 0px",  # above
        "rgb(0, 0, 0) 0px -1px 0px, rgb(0, 0, 0) 1px 1px 0px",  # nothing to the left
        "rgb(0, 0, 0) -1px -1px 0px, rgb(0, 0, 0) 0px 1px 0px",  # nothing to the right
        "rgb(0, 0, 0) -1px 0px 0px, rgb(0, 0, 0) 1px 1px 0px",  # nothing above
        "rgb(0, 0, 0) -1px -1px 0px, rgb(0, 0, 0) 1px 0px 0px",  # nothing below
    ],
)
def test_shadows_on_some_sides_only_are_no_outline(shadow: str) -> None:
    outcome = run(shadowed("rgb(255, 255, 255)", shadow))
    assert outcome.status is GateStatus.FAIL
    assert outcome.data["worst_ratio"] == 1.0


def test_an_outline_of_shadows_that_do_not_touch_is_none() -> None:
    far = OUTLINE.replace("1px", "9px")
    assert run(shadowed("rgb(255, 255, 255)", far)).data["worst_ratio"] == 1.0


def test_a_halo_and_an_outline_together_the_halo_is_the_surround() -> None:
    # A white halo on top, then a black outline: the halo decides (white on white fails) and
    # the outline's shadows are then one-sided shadows that cannot raise the contrast.
    doc = shadowed("rgb(255, 255, 255)", "rgb(255, 255, 255) 0px 0px 4px, " + OUTLINE)
    outcome = run(doc)
    assert outcome.status is GateStatus.FAIL
    assert outcome.data["worst_ratio"] == 1.0


def test_a_one_sided_shadow_lower_than_the_halo_decides() -> None:
    doc = shadowed(
        "rgb(0, 0, 0)", "rgb(0, 0, 0) 0px 0px 4px, rgb(119, 119, 119) 1px 1px 0px"
    )  # a black halo (1:1) is already the worst; the grey side shadow is better, not chosen
    assert run(doc).data["worst_ratio"] == 1.0
    doc = shadowed(
        "rgb(255, 255, 255)", "rgb(0, 0, 0) 0px 0px 4px, rgb(238, 238, 238) 1px 1px 0px"
    )  # white text in a black halo, with a near-white shadow on one side: that side decides
    expected = ratio("rgb(255, 255, 255)", RGBA(238.0, 238.0, 238.0))
    assert run(doc).data["worst_ratio"] == round(expected, 2)


def test_group_opacity_fades_the_shadows_too() -> None:
    doc = page(
        el("div", opacity="0.5"),
        el("p", parent=1, text="x", color="rgb(0, 0, 0)", text_shadow="rgb(0, 0, 0) 0px 0px 4px"),
    )
    text = composite(RGBA(0.0, 0.0, 0.0, 0.5), WHITE)
    halo = composite(RGBA(0.0, 0.0, 0.0, 0.5), WHITE)
    assert run(doc).data["worst_ratio"] == round(contrast_ratio(text, halo), 2)
    side = page(
        el("div", opacity="0.5"),
        el("p", parent=1, text="x", color="rgb(0, 0, 0)", text_shadow="rgb(0, 0, 0) 1px 1px 0px"),
    )
    assert run(side).data["worst_ratio"] == 1.0


def test_the_shadow_reach_grows_with_the_font_size() -> None:
    # 2 px off, unblurred: touching 24 px text (a 2 px stroke), not 16 px text (1.33 px).
    shadow = "rgb(119, 119, 119) 2px 2px 0px"
    small = run(shadowed("rgb(51, 51, 51)", shadow, font_size="16px"))
    assert small.data["worst_ratio"] == round(ratio("rgb(51, 51, 51)"), 2)
    large = run(shadowed("rgb(51, 51, 51)", shadow, font_size="24px"))
    expected = ratio("rgb(51, 51, 51)", RGBA(119.0, 119.0, 119.0))
    assert large.data["worst_ratio"] == round(expected, 2)
    # Without a px font size the text is taken as 16 px.
    unknown = run(shadowed("rgb(51, 51, 51)", shadow, font_size="medium"))
    assert unknown.data["worst_ratio"] == round(ratio("rgb(51, 51, 51)"), 2)


# --- what the gate reports --------------------------------------------------------------------


def test_a_failure_reports_the_ratio_minimum_and_colours() -> None:
    outcome = run(
        page(el("p", id="t", text="x", color=GREY, background_color="rgb(250, 250, 250)"))
    )
    assert outcome.name == "rendered_contrast"
    (finding,) = outcome.findings
    expected = ratio(GREY, RGBA(250.0, 250.0, 250.0))
    assert (finding.element, finding.property) == ("#t", "contrast")
    assert (finding.value, finding.expected) == (f"{expected:.2f}:1", ">= 4.5:1")
    assert to_hex(parse_color(GREY)) in finding.message and "#fafafa" in finding.message
    assert outcome.data["worst_ratio"] == round(expected, 2)
    assert (outcome.data["failed"], outcome.data["checked"], outcome.data["level"]) == (1, 1, "AA")


def test_findings_are_capped_but_every_failure_is_counted() -> None:
    texts = [el("p", text=f"t{i}", color=GREY) for i in range(MAX_FINDINGS + 5)]
    outcome = run(page(*texts))
    assert MAX_FINDINGS == 50
    assert len(outcome.findings) == MAX_FINDINGS
    assert outcome.data["failed"] == MAX_FINDINGS + 5


def test_failures_are_listed_before_the_unmeasurable(tmp_path: Path) -> None:
    doc = page(
        el("p", id="over", text="x", color=DARK, background_image="url(a.png)"),
        el("p", id="grey", text="y", color=GREY),
    )
    outcome = run(doc, render=tmp_path / "missing.png")
    assert outcome.status is GateStatus.FAIL
    assert [(f.element, f.value) for f in outcome.findings] == [
        ("#grey", f"{ratio(GREY):.2f}:1"),
        ("#over", "not measurable"),
    ]
    assert (outcome.data["failed"], outcome.data["not_measurable"]) == (1, 1)


def test_only_the_unmeasurable_is_an_error_and_reports_no_ratio(tmp_path: Path) -> None:
    doc = page(el("p", id="over", text="x", color=DARK, background_image="url(a.png)"))
    outcome = run(doc)  # no render at all
    assert outcome.status is GateStatus.ERROR
    assert outcome.data["worst_ratio"] is None
    (finding,) = outcome.findings
    assert (finding.value, finding.expected) == ("not measurable", ">= 4.5:1")
    assert (finding.element, finding.property) == ("#over", "contrast")


def test_the_worst_ratio_is_the_lowest_measured(tmp_path: Path) -> None:
    doc = page(
        el("p", text="a", color=DARK),
        el("p", text="b", color="rgb(100, 100, 100)"),
        el("p", text="c", color="rgb(0, 0, 0)"),
    )
    assert run(doc).data["worst_ratio"] == round(ratio("rgb(100, 100, 100)"), 2)


# --- measured from the render -----------------------------------------------------------------


def render_file(tmp_path: Path, color: tuple[int, int, int], size=(1280, 800)) -> Path:
    path = tmp_path / "render.png"
    Image.new("RGB", size, color).save(path)
    return path


def test_translucent_text_over_an_image_is_composited_on_each_pixel(tmp_path: Path) -> None:
    doc = page(el("p", id="t", text="x", color="rgba(0, 0, 0, 0.5)", background_image="url(a)"))
    outcome = run(doc, render=render_file(tmp_path, (200, 200, 200)))
    bg = RGBA(200.0, 200.0, 200.0)
    expected = contrast_ratio(RGBA(0.0, 0.0, 0.0, 0.5), bg)
    assert outcome.data["worst_ratio"] == round(expected, 2)
    assert outcome.data["from_render"] == 1
    (finding,) = outcome.findings
    assert "#c8c8c8" in finding.message


def test_group_opacity_fades_text_measured_from_the_render(tmp_path: Path) -> None:
    doc = page(
        el("div", opacity="0.5"),
        el("p", parent=1, text="x", color="rgb(0, 0, 0)", background_image="url(a)"),
    )
    outcome = run(doc, render=render_file(tmp_path, (255, 255, 255)))
    expected = contrast_ratio(RGBA(0.0, 0.0, 0.0, 0.5), WHITE)
    assert outcome.data["worst_ratio"] == round(expected, 2)


def test_the_render_is_scaled_by_the_viewport_width(tmp_path: Path) -> None:
    # A 640 px wide render of a 1280 px viewport: device pixel ratio 0.5. Only the left half
    # is dark; a box at x 700-900 lies in the right (light) half once scaled.
    image = Image.new("RGB", (640, 400), (255, 255, 255))
    image.paste((0, 0, 0), (0, 0, 320, 400))
    path = tmp_path / "render.png"
    image.save(path)
    box = {"x": 700, "y": 10, "width": 200, "height": 24}
    doc = page(el("p", text="x", color="rgb(0, 0, 0)", background_image="url(a)", box=box))
    assert run(doc, render=path).data["worst_ratio"] == 21.0


# --- styles the probe leaves out --------------------------------------------------------------


def without(doc: dict[str, Any], index: int, *props: str) -> dict[str, Any]:
    for prop in props:
        del doc["elements"][index]["style"][prop]
    return doc


def test_text_without_a_colour_is_black() -> None:
    doc = without(page(el("p", text="x", color=GREY)), 1, "color")
    assert run(doc).data["worst_ratio"] == 21.0


def test_an_element_without_a_background_is_transparent() -> None:
    doc = page(el("p", text="x", color="rgb(0, 0, 0)"), body_bg="rgb(119, 119, 119)")
    doc = without(doc, 1, "background-color", "background-image", "opacity")
    expected = ratio("rgb(0, 0, 0)", RGBA(119.0, 119.0, 119.0))
    outcome = run(doc)
    assert outcome.data["worst_ratio"] == round(expected, 2)
    assert outcome.data["from_render"] == 0


def test_a_transparent_text_colour_is_invisible() -> None:
    doc = page(el("p", text="x", color="rgba(0, 0, 0, 0)"), el("p", text="y", color=DARK))
    outcome = run(doc)
    assert (outcome.data["invisible"], outcome.data["checked"]) == (1, 1)


@pytest.mark.parametrize("size", ["medium", "16px"])
def test_text_without_a_px_size_is_taken_as_16px(size: str) -> None:
    # 1.4 px off, unblurred: beyond a 16 px text's 1.33 px stroke, within a 17 px text's.
    doc = shadowed("rgb(51, 51, 51)", "rgb(119, 119, 119) 1.4px 0px 0px", font_size=size)
    assert run(doc).data["worst_ratio"] == round(ratio("rgb(51, 51, 51)"), 2)


# --- what each measurement says ---------------------------------------------------------------


def test_each_result_says_how_it_was_measured_and_against_what(tmp_path: Path) -> None:
    from argus.gates.rendered_contrast import Skipped, measure

    doc = page(
        el("p", id="plain", text="x", color=DARK),
        el("p", id="halo", text="y", color=DARK, text_shadow="rgb(119, 119, 119) 0px 0px 4px"),
        el("p", id="over", text="z", color=DARK, background_image="url(a)"),
        el("input", id="v"),
    )
    with_raw(doc, 4, field_text=field("placeholder", DARK, [RECT]))
    probe = parse_probe(doc)
    render = render_file(tmp_path, (200, 200, 200))
    skipped = Skipped()
    results, invisible = measure(
        probe, lambda: RenderImage.load(render, probe.viewport_width), "AA", skipped
    )
    dark = parse_color(DARK)
    assert invisible == 0
    assert [(r.element.id, r.method, r.kind, r.surround) for r in results] == [
        ("plain", "style", "text", "background"),
        ("halo", "style", "text", "text-shadow halo"),
        ("over", "render", "text", ""),
        ("v", "style", "placeholder", "background"),
    ]
    assert [r.background for r in results] == [
        WHITE,
        RGBA(119.0, 119.0, 119.0),
        RGBA(200.0, 200.0, 200.0),
        WHITE,
    ]
    assert [r.text for r in results] == [dark, dark, dark, dark]
    assert all(r.required == 4.5 and r.passed == (r.ratio >= 4.5) for r in results)


def test_a_text_exactly_at_its_minimum_passes() -> None:
    from argus.gates.rendered_contrast import Skipped, TextResult

    result = TextResult(
        parse_probe(page(el("p", text="x"))).elements[1], 4.5, 4.5, "style", WHITE, WHITE
    )
    assert result.passed
    assert not TextResult(result.element, 4.5, 4.49, "style", WHITE, WHITE).passed
    assert not TextResult(result.element, 4.5, None, "render", WHITE, None).passed
    assert Skipped() == Skipped(0, 0, 0, 0)


@pytest.mark.parametrize(("level", "criterion"), [("AA", "1.4.3"), ("AAA", "1.4.6")])
def test_a_finding_names_the_wcag_criterion_of_its_level(level: str, criterion: str) -> None:
    (finding,) = run(page(el("p", text="x", color=GREY)), level=level).findings
    assert f"WCAG {criterion} {level}" in finding.message
    (large,) = run(page(el("p", text="x", color=GREY, font_size="30px")), level=level).findings
    assert f"WCAG {criterion} {level}" in large.message


def summary_numbers(summary: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", summary.replace("WCAG AAA", "").replace("AA", ""))]


@pytest.mark.parametrize(
    ("raw", "numbers"),
    [
        ({}, [1, 0, 0, 0]),  # nothing exempt: no breakdown
        ({"text_hidden": True}, [1, 0, 0, 0, 0, 1, 0]),
        ({"inactive": "disabled"}, [1, 0, 0, 0, 1, 0, 0]),
    ],
)
def test_the_summary_counts_what_was_measured_and_what_was_exempt(
    raw: dict[str, Any], numbers: list[int]
) -> None:
    doc = page(el("p", text="x", color=DARK), el("p", text="y", color=DARK))
    if raw:
        with_raw(doc, 2, **raw)
    else:
        del doc["elements"][2]
    assert summary_numbers(run(doc).summary) == numbers


@pytest.mark.parametrize(
    ("first", "second", "numbers"),
    [
        ({"text_hidden": True}, {"inactive": "disabled"}, [1, 0, 0, 0, 1, 1, 0]),
        ({"text_hidden": True}, {"text": "★", "aria_hidden": True}, [1, 0, 0, 0, 0, 1, 1]),
        ({"inactive": "disabled"}, {"text": "★", "aria_hidden": True}, [1, 0, 0, 0, 1, 0, 1]),
        ({"text_hidden": True}, {"opacity": "0"}, [1, 0, 0, 0, 0, 2, 0]),
    ],
)
def test_any_two_exemptions_are_summarised(
    first: dict[str, Any], second: dict[str, Any], numbers: list[int]
) -> None:
    doc = page(el("p", text="x", color=DARK), el("p", text="y"), el("p", text="z"))
    with_raw(doc, 2, **first)
    if "opacity" in second:
        doc["elements"][3]["style"]["opacity"] = second["opacity"]
    else:
        with_raw(doc, 3, **second)
    assert summary_numbers(run(doc).summary) == numbers


def test_nothing_measured_summarises_every_exemption() -> None:
    doc = page(
        el("p", text="a", opacity="0"),
        el("p", text="b"),
        el("p", text="c"),
        el("p", text="★"),
        el("p", text="d"),
    )
    with_raw(doc, 2, text_hidden=True)
    with_raw(doc, 3, inactive="disabled")
    with_raw(doc, 4, aria_hidden=True)
    with_raw(doc, 5, text_hidden=True)
    outcome = run(doc)
    assert outcome.status is GateStatus.SKIP and outcome.findings == ()
    assert outcome.name == "rendered_contrast"
    assert summary_numbers(outcome.summary) == [1, 2, 1, 1]


def test_the_defaults_are_level_aa_and_a_fresh_tally() -> None:
    from argus.gates.rendered_contrast import measure

    doc = page(el("p", text="x", color=GREY), el("p", text="y", color=GREY, opacity="0"))
    probe = parse_probe(doc)
    results, invisible = measure(probe, lambda: None)
    assert [r.required for r in results] == [4.5] and invisible == 1
    assert requirement(probe.elements[1]).minimum == 4.5


def test_layering_without_a_colour_reads_the_elements_own() -> None:
    from argus.gates.rendered_contrast import layering

    probe = parse_probe(page(el("p", text="x", color="rgba(0, 0, 0, 0.5)", opacity="0.5")))
    layers = layering(probe, probe.elements[1], WHITE)
    assert layers.text == composite(RGBA(0.0, 0.0, 0.0, 0.25), WHITE)
    assert layers.background == WHITE
    assert (layers.text_alpha, layers.group_opacity) == (0.25, 0.5)
    assert not layers.over_image and not layers.canvas_unknown
    # Without a colour in the styles either, the text is black.
    del probe.elements[1].style["color"]
    assert layering(probe, probe.elements[1], WHITE).text == composite(
        RGBA(0.0, 0.0, 0.0, 0.5), WHITE
    )


def test_text_that_cannot_be_measured_keeps_its_colour_and_no_background(tmp_path: Path) -> None:
    from argus.gates.rendered_contrast import measure

    doc = page(
        el("p", id="a", text="x", color="rgba(0, 0, 0, 0.5)", background_image="url(a)"),
        el("p", id="b", text="y", color="rgb(0, 0, 0)", background_image="url(a)"),
    )
    doc["elements"][2]["box"] = {"x": 100, "y": 5000, "width": 50, "height": 20}
    probe = parse_probe(doc)
    shown = RGBA(0.0, 0.0, 0.0, 0.5)
    unrendered, _ = measure(probe, lambda: None)
    assert [(r.ratio, r.method, r.text, r.background) for r in unrendered] == [
        (None, "render", shown, None),
        (None, "render", BLACK, None),
    ]
    render = render_file(tmp_path, (255, 255, 255))
    rendered, _ = measure(probe, lambda: RenderImage.load(render, probe.viewport_width))
    assert rendered[0].ratio == pytest.approx(contrast_ratio(shown, WHITE))
    assert (rendered[0].background, rendered[1].background) == (WHITE, None)
    assert (rendered[1].ratio, rendered[1].method, rendered[1].text) == (None, "render", BLACK)
    # Every one says why the render was needed (the same reason: an image under the text).
    reasons = {r.reason for r in [*unrendered, *rendered]}
    assert len(reasons) == 1 and "" not in reasons
    assert all(r.note for r in [*unrendered, rendered[1]]) and not rendered[0].note


def test_a_shadow_as_good_as_the_background_leaves_the_background_as_the_surround() -> None:
    from argus.gates.rendered_contrast import measure

    doc = shadowed(DARK, "rgb(255, 255, 255) 1px 1px 0px")
    (result,), _ = measure(parse_probe(doc), lambda: None)
    assert (result.surround, result.background) == ("background", WHITE)


def test_a_halo_is_named_as_the_surround_in_the_finding() -> None:
    doc = shadowed("rgb(51, 51, 51)", "rgb(119, 119, 119) 0px 0px 4px")
    (finding,) = run(doc).findings
    assert "text-shadow halo" in finding.message
    side = run(shadowed("rgb(51, 51, 51)", "rgb(119, 119, 119) 1px 1px 0px"))
    assert "text-shadow #777777" in side.findings[0].message


@pytest.mark.parametrize(
    ("backdrop", "named", "more"),
    [
        (["img"], ["img"], False),
        (["a", "b", "c"], ["a", "b", "c"], False),
        (["a", "b", "c", "d"], ["a", "b", "c"], True),
    ],
)
def test_an_unmeasurable_finding_names_up_to_three_backdrops(
    backdrop: list[str], named: list[str], more: bool
) -> None:
    doc = page(el("h1", id="t", text="x", color=DARK))
    doc["elements"][1]["backdrop"] = backdrop
    (finding,) = run(doc).findings
    assert f"({', '.join(named)}{', …' if more else ''})" in finding.message


def test_a_translucent_text_colour_does_not_fade_its_shadows() -> None:
    # Only group opacity fades a shadow; the text colour's own alpha is the text's alone.
    doc = shadowed("rgba(0, 0, 0, 0.5)", "rgb(0, 0, 0) 0px 0px 4px")
    text = composite(RGBA(0.0, 0.0, 0.0, 0.5), WHITE)
    assert run(doc).data["worst_ratio"] == round(contrast_ratio(text, BLACK), 2)


def test_the_root_elements_opacity_fades_text_measured_from_the_render(tmp_path: Path) -> None:
    doc = page(el("p", text="x", color="rgb(0, 0, 0)", background_image="url(a)"), opacity="0.5")
    doc["elements"][0]["canvas"] = "rgb(255, 255, 255)"
    outcome = run(doc, render=render_file(tmp_path, (255, 255, 255)))
    assert outcome.data["from_render"] == 1
    expected = contrast_ratio(RGBA(0.0, 0.0, 0.0, 0.5), WHITE)
    assert outcome.data["worst_ratio"] == round(expected, 2)


@pytest.mark.parametrize(
    ("size", "weight", "said"),
    [
        ("16px", "400", "normal text (16px, weight 400;"),
        ("30px", "700", "large text (30px, weight 700;"),
        ("20px", "bold", "large text (20px, weight 700;"),
    ],
)
def test_a_finding_says_which_size_and_weight_set_its_minimum(
    size: str, weight: str, said: str
) -> None:
    doc = page(el("p", text="x", color=GREY, font_size=size, font_weight=weight))
    (finding,) = run(doc).findings
    assert said in finding.message


def test_a_finding_without_a_px_size_says_0px() -> None:
    (finding,) = run(page(el("p", text="x", color=GREY, font_size="medium"))).findings
    assert "(0px, weight 400;" in finding.message


def test_every_exemption_is_counted_each_time() -> None:
    doc = page(
        el("p", text="a"),
        el("p", text="b"),
        el("input"),
        el("p", text="c"),
        el("p", text="d"),
        el("input"),
        el("span", text="★"),
        el("span", text="✓"),
        el("p", text="e", opacity="0"),
        el("p", text="f", opacity="0"),
        el("p", text="ok", color=DARK),
    )
    with_raw(doc, 1, text_hidden=True)
    with_raw(doc, 2, text_hidden=True)
    with_raw(doc, 3, field_text=field("value", GREY, []))
    with_raw(doc, 4, inactive="disabled")
    with_raw(doc, 5, inactive="disabled")
    with_raw(doc, 6, inactive="disabled", field_text=field("value", GREY, [RECT]))
    with_raw(doc, 7, aria_hidden=True)
    with_raw(doc, 8, aria_hidden=True)
    outcome = run(doc)
    counts = ("hidden", "inactive", "decorative", "invisible", "checked")
    assert {k: outcome.data[k] for k in counts} == {
        "hidden": 3,
        "inactive": 3,
        "decorative": 2,
        "invisible": 2,
        "checked": 1,
    }


@pytest.mark.parametrize("opacity", ["1.5", "junk", "1"])
def test_an_opacity_over_one_or_malformed_leaves_rendered_text_opaque(
    tmp_path: Path, opacity: str
) -> None:
    doc = page(
        el("div", opacity=opacity),
        el("p", parent=1, text="x", color="rgb(0, 0, 0)", background_image="url(a)"),
    )
    outcome = run(doc, render=render_file(tmp_path, (255, 255, 255)))
    assert outcome.data["worst_ratio"] == 21.0 and outcome.data["from_render"] == 1
    halo = page(
        el("div", opacity=opacity),
        el("p", parent=1, text="x", color=GREY, text_shadow="rgb(0, 0, 0) 0px 0px 4px"),
    )
    assert run(halo).data["worst_ratio"] == round(ratio(GREY, BLACK), 2)


def test_a_fields_text_over_an_image_is_measured_in_its_own_rects(tmp_path: Path) -> None:
    doc = page(el("input", id="v", background_image="url(a)"))
    with_raw(doc, 1, field_text=field("value", "rgb(0, 0, 0)", [RECT]))
    image = Image.new("RGB", (1280, 800), (255, 255, 255))
    image.paste((119, 119, 119), (150, 0, 400, 800))  # under the input's box, not its text
    image.save(tmp_path / "render.png")
    outcome = run(doc, render=tmp_path / "render.png")
    assert outcome.data["from_render"] == 1 and outcome.data["worst_ratio"] == 21.0
    missing = run(doc, render=tmp_path / "missing.png")
    (finding,) = missing.findings
    assert (finding.property, finding.value) == ("contrast (value)", "not measurable")
    assert missing.data["fields"] == 1


def test_a_fields_findings_from_the_render_name_its_kind(tmp_path: Path) -> None:
    doc = page(el("input", id="v", background_image="url(a)"), el("input", id="off"))
    with_raw(doc, 1, field_text=field("placeholder", GREY, [RECT]))
    far = {"x": 12, "y": 5000, "width": 100, "height": 20}
    with_raw(doc, 2, field_text=field("value", GREY, [far]))
    doc["elements"][2]["style"]["background-image"] = "url(a)"
    outcome = run(doc, render=render_file(tmp_path, (255, 255, 255)))
    assert [(f.element, f.property, f.value) for f in outcome.findings] == [
        ("#v", "contrast (placeholder)", f"{ratio(GREY):.2f}:1"),
        ("#off", "contrast (value)", "not measurable"),
    ]
    assert all(
        "WCAG 1.4.3 AA" in f.message or f.value == "not measurable" for f in outcome.findings
    )
