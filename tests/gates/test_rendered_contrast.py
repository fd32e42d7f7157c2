from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from argus.color import RGBA, composite, contrast_ratio
from argus.errors import InputError
from argus.evidence.probe import parse_probe
from argus.gates.base import GateStatus
from argus.gates.rendered_contrast import check_rendered_contrast
from tests.gates.probes import el, page

BOX = {"x": 100, "y": 100, "width": 300, "height": 40}


def run(doc: dict, render: Path | None = None):
    return check_rendered_contrast(parse_probe(doc), render)


def test_dark_text_on_white_passes() -> None:
    outcome = run(page(el("p", id="ok", text="Hello", color="rgb(22, 24, 29)")))
    assert outcome.status is GateStatus.PASS
    assert outcome.data["checked"] == 1


def test_light_grey_text_fails_naming_the_element() -> None:
    outcome = run(page(el("p", id="meta", text="3-day streak", color="rgb(226, 229, 234)")))
    assert outcome.status is GateStatus.FAIL
    (finding,) = outcome.findings
    assert finding.element == "#meta"
    assert finding.expected == ">= 4.5:1"
    assert finding.value.endswith(":1") and float(finding.value[:-2]) < 1.5


@pytest.mark.parametrize(
    ("size", "weight", "status"),
    [
        ("24px", "400", GateStatus.PASS),  # large text: 3.0 is enough
        ("16px", "400", GateStatus.FAIL),
        ("19px", "700", GateStatus.PASS),  # 14pt bold is large
        ("19px", "400", GateStatus.FAIL),
        ("18px", "700", GateStatus.FAIL),  # below 18.66px even when bold
    ],
)
def test_large_text_threshold(size: str, weight: str, status: GateStatus) -> None:
    # #888888 on white is about 3.5:1: large text passes, body text does not.
    doc = page(el("p", text="x", color="rgb(136, 136, 136)", font_size=size, font_weight=weight))
    assert run(doc).status is status


def test_translucent_backgrounds_composite_down_to_the_first_opaque_one() -> None:
    doc = page(
        el("div", background_color="rgba(0, 0, 0, 0.5)"),
        el("p", parent=1, id="t", text="x", color="rgb(255, 255, 255)"),
    )
    outcome = run(doc)
    expected = contrast_ratio(
        RGBA(255, 255, 255), composite(RGBA(0, 0, 0, 0.5), RGBA(255, 255, 255))
    )
    assert outcome.data["worst_ratio"] == round(expected, 2)
    assert outcome.status is GateStatus.FAIL  # about 4.0:1


def test_an_opaque_ancestor_hides_what_is_beneath_it() -> None:
    doc = page(
        el("div", background_color="rgb(0, 0, 0)"),
        el("section", parent=1, background_color="rgb(20, 20, 20)"),
        el("p", parent=2, text="x", color="rgb(255, 255, 255)"),
        body_bg="rgb(255, 255, 255)",
    )
    assert run(doc).status is GateStatus.PASS


def test_group_opacity_fades_the_text() -> None:
    faded = page(el("p", text="x", color="rgb(0, 0, 0)", opacity="0.3"))
    assert run(faded).status is GateStatus.FAIL
    parent_faded = page(el("div", opacity="0.3"), el("p", parent=1, text="x", color="rgb(0, 0, 0)"))
    assert run(parent_faded).status is GateStatus.FAIL


def rooted(*elements: dict, canvas: str | None, html_bg: str = "rgba(0, 0, 0, 0)") -> dict:
    """A probe whose root is <html> (with the canvas the sensor derived), then a transparent
    <body>, then ``elements`` (their parents counted from the body at index 1)."""
    doc = page(*elements, body_bg="rgba(0, 0, 0, 0)")
    html = {**doc["elements"][0], "tag": "html", "parent": None, "text": ""}
    html["style"] = {**html["style"], "background-color": html_bg}
    if canvas is not None:
        html["canvas"] = canvas
    shifted = []
    for item in doc["elements"]:
        parent = item["parent"]
        shifted.append({**item, "parent": 0 if parent is None else parent + 1})
    doc["elements"] = [html, *shifted]
    for index, item in enumerate(doc["elements"]):
        item["index"] = index
    return doc


def test_the_canvas_is_the_one_the_probe_derived() -> None:
    light_text = el("p", id="t", text="x", color="rgb(240, 240, 240)")
    on_dark = rooted(light_text, canvas="rgb(18, 18, 18)")
    assert run(on_dark).status is GateStatus.PASS
    on_white = rooted(light_text, canvas="rgb(255, 255, 255)")
    assert run(on_white).status is GateStatus.FAIL


def test_a_translucent_root_background_composites_over_the_canvas() -> None:
    dark_text = el("p", id="t", text="x", color="rgb(22, 24, 29)")
    doc = rooted(dark_text, canvas="rgb(18, 18, 18)", html_bg="rgba(255, 255, 255, 0.5)")
    outcome = run(doc)
    shown = composite(RGBA(255, 255, 255, 0.5), RGBA(18, 18, 18))
    assert outcome.data["worst_ratio"] == round(contrast_ratio(RGBA(22, 24, 29), shown), 2)


def test_an_unknown_canvas_is_measured_from_the_render(tmp_path: Path) -> None:
    doc = rooted(el("p", id="t", text="x", color="rgb(240, 240, 240)", box=BOX), canvas=None)
    white = run(doc, render=render_with(tmp_path, lambda im: None))
    assert white.status is GateStatus.FAIL and white.data["from_render"] == 1
    dark = run(doc, render=render_with(tmp_path, paint_dark_box))
    assert dark.status is GateStatus.PASS and dark.data["from_render"] == 1
    missing = run(doc, render=tmp_path / "missing.png")
    assert missing.status is GateStatus.ERROR
    assert "canvas" in missing.findings[0].message


def test_an_opaque_body_needs_no_canvas() -> None:
    doc = rooted(el("p", text="x", color="rgb(22, 24, 29)"), canvas=None)
    doc["elements"][1]["style"]["background-color"] = "rgb(255, 255, 255)"
    outcome = run(doc)
    assert outcome.status is GateStatus.PASS and outcome.data["from_render"] == 0


def test_selectors_do_not_climb_through_the_root() -> None:
    doc = rooted(el("main"), el("p", parent=1, text="x"), canvas="rgb(255, 255, 255)")
    probe = parse_probe(doc)
    assert probe.selector(probe.elements[3]) == "body > main > p"
    assert probe.selector(probe.elements[0]) == "html"


def test_invisible_and_visually_hidden_text_is_not_judged() -> None:
    doc = page(
        el("p", text="a", color="rgb(250, 250, 250)", opacity="0"),
        el(
            "h2",
            text="b",
            color="rgb(250, 250, 250)",
            box={"x": 0, "y": 0, "width": 1, "height": 1},
        ),
        el("p", text="c", color="rgb(250, 250, 250)", visible=False),
        el("p", text="   ", color="rgb(250, 250, 250)"),
    )
    doc["elements"].append({**doc["elements"][1], "index": 5, "text": "d", "style": BODY_TEXT})
    outcome = run(doc)
    assert outcome.status is GateStatus.PASS
    assert outcome.data["checked"] == 1  # only "d"
    assert outcome.data["invisible"] == 1


BODY_TEXT = {**page()["elements"][0]["style"], "color": "rgb(22, 24, 29)"}


@pytest.mark.parametrize(
    "elements",
    [
        (),  # nothing at all
        (el("div", box={"x": 0, "y": 0, "width": 100, "height": 100}),),  # shown, no text
        (el("p", text="gone", visible=False), el("p", text="faded", opacity="0")),
    ],
)
def test_nothing_to_check_is_a_skip_not_a_pass(elements: tuple) -> None:
    doc = page(*elements)
    doc["elements"][0]["visible"] = bool(elements)
    outcome = run(doc)
    assert outcome.status is GateStatus.SKIP
    assert outcome.summary.startswith("nothing to check")
    assert outcome.data["checked"] == 0


# --- text over images and gradients: measured from the render -----------------------------


def render_with(tmp_path: Path, paint) -> Path:
    image = Image.new("RGB", (1280, 800), (255, 255, 255))
    paint(image)
    path = tmp_path / "render.png"
    image.save(path)
    return path


def gradient_doc(color: str = "rgb(255, 255, 255)") -> dict:
    return page(
        el("div", id="hero", background_image="linear-gradient(90deg, #000, #fff)", box=BOX),
        el("p", parent=1, id="hero-text", text="Over the hero", color=color, box=BOX),
    )


def paint_gradient(image: Image.Image, start: int, end: int) -> None:
    x0, y0, w, h = BOX["x"], BOX["y"], BOX["width"], BOX["height"]
    ramp = np.linspace(start, end, w).astype(np.uint8)
    block = np.repeat(np.repeat(ramp[None, :, None], h, axis=0), 3, axis=2)
    image.paste(Image.fromarray(block), (x0, y0))


def paint_glyphs(image: Image.Image, color: tuple[int, int, int]) -> None:
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=20)
    draw.text((BOX["x"] + 8, BOX["y"] + 8), "Over the hero wwwmm", font=font, fill=color)


def test_text_over_a_gradient_that_reaches_its_colour_fails(tmp_path: Path) -> None:
    render = render_with(tmp_path, lambda im: paint_gradient(im, 0, 255))
    outcome = run(gradient_doc(), render=render)
    assert outcome.status is GateStatus.FAIL
    assert outcome.data["from_render"] == 1
    (finding,) = outcome.findings
    assert finding.element == "#hero-text"
    assert "render" in finding.message


def test_text_over_a_dark_gradient_passes_despite_its_own_glyph_pixels(tmp_path: Path) -> None:
    def paint(image: Image.Image) -> None:
        paint_gradient(image, 0, 60)
        paint_glyphs(image, (255, 255, 255))

    outcome = run(gradient_doc(), render=render_with(tmp_path, paint))
    assert outcome.status is GateStatus.PASS, outcome.findings
    # The worst case is the lightest background pixel (60), not an anti-aliased glyph edge.
    expected = contrast_ratio(RGBA(255, 255, 255), RGBA(60, 60, 60))
    assert outcome.data["worst_ratio"] == pytest.approx(expected, abs=0.3)


def test_a_background_patch_matching_the_text_is_not_mistaken_for_glyphs(tmp_path: Path) -> None:
    def paint(image: Image.Image) -> None:
        paint_gradient(image, 0, 30)
        draw = ImageDraw.Draw(image)  # a light band under part of the text, wider than a stroke
        draw.rectangle(
            (BOX["x"] + 200, BOX["y"], BOX["x"] + 260, BOX["y"] + 39), fill=(235, 235, 235)
        )
        paint_glyphs(image, (255, 255, 255))

    outcome = run(gradient_doc(), render=render_with(tmp_path, paint))
    assert outcome.status is GateStatus.FAIL
    assert outcome.data["worst_ratio"] < 1.2


def test_text_over_an_image_off_the_render_is_not_measurable(tmp_path: Path) -> None:
    doc = gradient_doc()
    for item in doc["elements"][1:]:
        item["box"] = {"x": 100, "y": 2000, "width": 300, "height": 40}
    outcome = run(doc, render=render_with(tmp_path, lambda im: None))
    assert outcome.status is GateStatus.ERROR
    assert outcome.findings[0].value == "not measurable"
    assert "outside the render" in outcome.findings[0].message


def test_text_over_an_image_without_a_render_is_not_measurable(tmp_path: Path) -> None:
    outcome = run(gradient_doc(), render=tmp_path / "missing.png")
    assert outcome.status is GateStatus.ERROR
    assert outcome.data["not_measurable"] == 1


def test_a_fail_outranks_not_measurable(tmp_path: Path) -> None:
    doc = gradient_doc()
    doc["elements"].append({**doc["elements"][2], "index": 3, "parent": 0, "id": "bad"})
    doc["elements"][3]["style"] = {**doc["elements"][3]["style"], "color": "rgb(250, 250, 250)"}
    outcome = run(doc, render=tmp_path / "missing.png")
    assert outcome.status is GateStatus.FAIL


def test_hidpi_render_scales_the_box(tmp_path: Path) -> None:
    image = Image.new("RGB", (2560, 1600), (0, 0, 0))
    x, y, w, h = (2 * BOX[k] for k in ("x", "y", "width", "height"))
    ImageDraw.Draw(image).rectangle((x, y, x + w - 1, y + h - 1), fill=(250, 250, 250))
    image.save(tmp_path / "render.png")
    outcome = run(gradient_doc(), render=tmp_path / "render.png")
    assert outcome.status is GateStatus.FAIL  # only the light box (scaled by 2) is measured
    assert outcome.data["worst_ratio"] < 1.1


@pytest.mark.parametrize(
    ("mutate", "match"),
    [
        (lambda d: d.update(elements="x"), "'elements' must be a list"),
        (lambda d: d["elements"][1].update(parent=7), "parent"),
        (lambda d: d["elements"][1].update(style={"color": 3}), "style"),
        (lambda d: d["elements"][1]["box"].update(width="wide"), "box.width"),
    ],
)
def test_malformed_probe_is_an_input_error(mutate, match: str) -> None:
    doc = page(el("p", text="x"))
    mutate(doc)
    with pytest.raises(InputError, match=match):
        run(doc)


# --- the text's own rectangles, not its element's block box ---------------------------------


def test_the_render_is_measured_inside_the_text_rects_not_the_block_box(tmp_path: Path) -> None:
    """A heading block over a white-to-dark gradient whose text sits on the white part."""
    doc = gradient_doc(color="rgb(22, 24, 29)")
    title = doc["elements"][2]
    title["text_rects"] = [{"x": 100, "y": 105, "width": 90, "height": 30}]

    def paint(image: Image.Image) -> None:
        draw = ImageDraw.Draw(image)
        draw.rectangle((BOX["x"] + 150, BOX["y"], BOX["x"] + 299, BOX["y"] + 39), fill=(22, 24, 29))
        paint_glyphs(image, (22, 24, 29))

    outcome = run(doc, render=render_with(tmp_path, paint))
    assert outcome.status is GateStatus.PASS, outcome.findings
    assert outcome.data["from_render"] == 1
    # The whole block box would reach the dark end of the background.
    del title["text_rects"]
    assert run(doc, render=render_with(tmp_path, paint)).status is GateStatus.FAIL


def test_each_text_rect_is_measured_and_the_worst_one_counts(tmp_path: Path) -> None:
    doc = gradient_doc(color="rgb(22, 24, 29)")
    doc["elements"][2]["text_rects"] = [
        {"x": 100, "y": 105, "width": 40, "height": 30},
        {"x": 300, "y": 105, "width": 40, "height": 30},
    ]

    def paint(image: Image.Image) -> None:
        ImageDraw.Draw(image).rectangle((290, 100, 399, 139), fill=(40, 40, 40))

    outcome = run(doc, render=render_with(tmp_path, paint))
    assert outcome.status is GateStatus.FAIL
    assert outcome.data["worst_ratio"] < 1.5


@pytest.mark.parametrize(
    "rects",
    ["wide", [{"x": 1, "y": 2}], [{"x": 1, "y": 2, "width": "w", "height": 3}]],
)
def test_malformed_text_rects_are_an_input_error(rects) -> None:
    doc = page(el("p", text="x"))
    doc["elements"][1]["text_rects"] = rects
    with pytest.raises(InputError, match="text_rects"):
        run(doc)


# --- text over something that is not an ancestor's background -------------------------------


def backdrop_doc(backdrop: list[str] | None) -> dict:
    """Dark text whose ancestors say 'white' while something else paints under it."""
    doc = page(el("h1", id="title", text="Habits", color="rgb(22, 24, 29)", box=BOX))
    if backdrop is not None:
        doc["elements"][1]["backdrop"] = backdrop
    return doc


def paint_dark_box(image: Image.Image) -> None:
    x0, y0 = BOX["x"], BOX["y"]
    ImageDraw.Draw(image).rectangle(
        (x0, y0, x0 + BOX["width"] - 1, y0 + BOX["height"] - 1), fill=(22, 24, 29)
    )


def test_text_with_a_foreign_backdrop_is_measured_from_the_render(tmp_path: Path) -> None:
    render = render_with(tmp_path, paint_dark_box)
    outcome = run(backdrop_doc(["h1::before"]), render=render)
    assert outcome.status is GateStatus.FAIL
    assert outcome.data["from_render"] == 1
    (finding,) = outcome.findings
    assert finding.element == "#title" and float(finding.value[:-2]) < 1.1
    # Explained by its ancestors alone, the same probe is judged from styles.
    assert run(backdrop_doc([]), render=render).status is GateStatus.PASS
    assert run(backdrop_doc(None), render=render).status is GateStatus.PASS


def test_a_foreign_backdrop_without_a_render_is_not_measurable(tmp_path: Path) -> None:
    outcome = run(backdrop_doc(["img"]), render=tmp_path / "missing.png")
    assert outcome.status is GateStatus.ERROR
    (finding,) = outcome.findings
    assert finding.value == "not measurable" and "img" in finding.message


@pytest.mark.parametrize("backdrop", ["img", [3], [""]])
def test_malformed_backdrop_is_an_input_error(backdrop) -> None:
    doc = backdrop_doc(None)
    doc["elements"][1]["backdrop"] = backdrop
    with pytest.raises(InputError, match="backdrop"):
        run(doc)


def test_text_drawn_on_its_own_colour_fails_despite_antialiasing_noise(tmp_path: Path) -> None:
    """Glyphs drawn in the background's colour leave pixels a shade off; those are not a
    background with contrast, and light page just outside the backdrop does not rescue it."""

    def paint(image: Image.Image) -> None:
        draw = ImageDraw.Draw(image)
        x0, y0 = BOX["x"], BOX["y"]
        draw.rectangle(
            (x0, y0 + 1, x0 + BOX["width"] - 1, y0 + BOX["height"] - 2), fill=(22, 24, 29)
        )
        for x in range(x0 + 2, x0 + BOX["width"] - 2, 4):  # strokes a shade off, everywhere
            draw.line((x, y0 + 4, x, y0 + BOX["height"] - 5), fill=(21, 23, 28))

    doc = backdrop_doc(["h1::before"])
    outcome = run(doc, render=render_with(tmp_path, paint))
    assert outcome.status is GateStatus.FAIL, outcome.data
    assert outcome.data["worst_ratio"] < 1.1


# --- text-shadow and the WCAG level ---------------------------------------------------------
def test_text_shadows_are_read_from_the_computed_value() -> None:
    from argus.gates._text_shadow import parse_text_shadows

    shadows = parse_text_shadows("rgb(0, 0, 0) 0px 0px 2px, rgba(128, 128, 128, 0.5) 1px 1px 0px")
    assert [(s.x, s.y, s.blur, round(s.color.a, 2)) for s in shadows] == [
        (0.0, 0.0, 2.0, 1.0),
        (1.0, 1.0, 0.0, 0.5),
    ]
    assert shadows[0].surrounds() and not shadows[1].surrounds()
    assert shadows[1].touches(16.0)
    assert parse_text_shadows("none") == []
    with pytest.raises(InputError):
        parse_text_shadows("rgb(0, 0, 0) 1px")


def test_aaa_asks_for_7_to_1() -> None:
    from argus.evidence.probe import parse_probe
    from argus.gates.rendered_contrast import check_rendered_contrast

    # #595959 on white is 7.0:1; #666 is 5.74:1: AA passes both, AAA only the first.
    probe = parse_probe(
        {
            "viewport": {"width": 400, "height": 200},
            "elements": [
                {
                    "tag": "html",
                    "parent": None,
                    "canvas": "rgb(255, 255, 255)",
                    "box": {"x": 0, "y": 0, "width": 400, "height": 200},
                    "style": {},
                },
                {
                    "tag": "p",
                    "parent": 0,
                    "id": "a",
                    "text": "a",
                    "box": {"x": 0, "y": 0, "width": 100, "height": 20},
                    "style": {"color": "rgb(89, 89, 89)", "font-size": "16px"},
                },
                {
                    "tag": "p",
                    "parent": 0,
                    "id": "b",
                    "text": "b",
                    "box": {"x": 0, "y": 30, "width": 100, "height": 20},
                    "style": {"color": "rgb(102, 102, 102)", "font-size": "16px"},
                },
            ],
        }
    )
    assert check_rendered_contrast(probe, None).status is GateStatus.PASS
    aaa = check_rendered_contrast(probe, None, "AAA")
    assert aaa.status is GateStatus.FAIL
    assert [(f.element, f.expected) for f in aaa.findings] == [("#b", ">= 7:1")]
