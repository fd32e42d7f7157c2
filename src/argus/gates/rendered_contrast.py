"""rendered_contrast: every visible text's colour against what is really behind it (WCAG 1.4.3).

For solid backgrounds the answer comes from computed styles: walk the ancestors, compositing
translucent backgrounds and group opacity, down to the canvas; a text-shadow that touches the
glyphs is part of what surrounds them (a halo can raise the contrast, a grey one can lower
it). Where a background image or gradient lies under the text, styles cannot say, so the
render is measured instead (see argus.gates.render_pixels). What cannot be decided either way
is reported as not measurable, which keeps the gate from passing.

Which text is measured follows WCAG's "incidental" exception (docs/gates.md): text of inactive
components (disabled controls, their labels, disabled fieldsets, aria-disabled), text nobody
can see (clipped, off-screen, zero-sized, fully transparent, or hidden from assistive
technology and drawn in its background's colour) and purely decorative glyphs (symbols only,
hidden from assistive technology) are counted, never measured. A glyph that stands for a
control named otherwise (an "×" button named "Close") is not text: it is held to 3:1 as a
graphical object (WCAG 1.4.11). Form fields' own text (value, placeholder, a button input's
label) is measured like any other text. Charts (argus.gates._chart_contrast): SVG text like
text, meaningful marks and legend swatches at 3:1.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from argus.color import RGBA, composite, contrast_ratio, parse_color, to_hex
from argus.config import RenderedContrastConfig
from argus.diff.masks import Box
from argus.evidence.graphics import Graphics, Mark, parse_graphics
from argus.evidence.probe import Element, Probe, parse_probe
from argus.gates._chart_contrast import ChartContrast, measure_charts
from argus.gates._registry import register_gate
from argus.gates._text_shadow import TextShadow, parse_text_shadows
from argus.gates.base import (
    Finding,
    GateInputs,
    GateOutcome,
    GateStatus,
    adapter_probe_without_elements,
    skip_for_adapter_probe,
)
from argus.gates.render_pixels import RenderImage, worst_contrast_in_boxes

AA_NORMAL = 4.5
AA_LARGE = 3.0
# WCAG 1.4.3 (AA) and 1.4.6 (AAA): (normal text, large text).
LEVELS: dict[str, tuple[float, float]] = {"AA": (4.5, 3.0), "AAA": (7.0, 4.5)}
# Symbols that are not text in a human language but carry meaning (an exposed "★", "×"):
# WCAG 1.4.11's 3:1 for graphical objects.
NON_TEXT = 3.0
# Below this, text is drawn in its background's colour: nobody sees it.
INVISIBLE_RATIO = 1.1
# A control's visible text of one character, or of symbols only, is a glyph.
GLYPH_CHARS = 1
WHITE = RGBA(255.0, 255.0, 255.0, 1.0)
MAX_FINDINGS = 50


@dataclass(frozen=True)
class Layering:
    """What composites into the pixels of one text element's box."""

    text: RGBA  # the text's colour as shown (opaque), when no image is involved
    background: RGBA  # the background as shown (opaque), when no image is involved
    text_alpha: float  # the text's colour alpha times every group opacity above it
    over_image: bool  # a background image or gradient shows through under the text
    canvas_unknown: bool = False  # the canvas shows through, and the probe does not name it
    group_opacity: float = 1.0  # every group opacity above the text, multiplied


@dataclass(frozen=True)
class Requirement:
    minimum: float
    threshold: str  # which rule applied, for the finding: "large text (>= 24px ...): 3:1"


@dataclass(frozen=True)
class TextResult:
    element: Element
    required: float
    ratio: float | None  # None: not measurable
    method: Literal["style", "render"]
    text: RGBA
    background: RGBA | None
    note: str = ""  # why it could not be measured
    reason: str = ""  # why the render was measured instead of the styles
    threshold: str = ""  # which WCAG threshold applied
    kind: str = "text"  # "text", or a field's "value", "placeholder", "label"
    surround: str = ""  # "text-shadow halo" when a halo, not the background, decided

    @property
    def passed(self) -> bool:
        return self.ratio is not None and self.ratio >= self.required


@dataclass(frozen=True)
class TextItem:
    """One run of text to measure: an element's own text or the text a form field draws."""

    element: Element
    color: RGBA
    boxes: tuple[Box, ...]
    kind: str = "text"


@dataclass
class Skipped:
    """Text WCAG does not ask about, counted by reason."""

    invisible: int = 0  # fully transparent
    hidden: int = 0  # clipped, off-screen, zero-sized
    inactive: int = 0  # part of an inactive user-interface component
    decorative: int = 0  # symbols only, hidden from assistive technology
    unseen: int = 0  # hidden from assistive technology and drawn in its background's colour


def is_large_text(element: Element) -> bool:
    """WCAG large text: 18pt (24px), or 14pt (18.66px) and bold (700 and up)."""
    size = element.px("font-size") or 0.0
    return size >= 24.0 or (size >= 18.66 and font_weight(element) >= 700)


def requirement(
    element: Element, level: str = "AA", *, symbols_only: bool = False, glyph: bool = False
) -> Requirement:
    """The minimum ratio for this text, and the WCAG rule that sets it."""
    normal, large = LEVELS[level]
    criterion = "1.4.6" if level == "AAA" else "1.4.3"
    if glyph and element.control is not None:
        return Requirement(
            NON_TEXT,
            f"a glyph standing for a control named {element.control.name!r}, not text "
            f"(WCAG 1.4.11 non-text): {NON_TEXT:g}:1",
        )
    if symbols_only:
        return Requirement(
            NON_TEXT, f"symbols only, not words (WCAG 1.4.11 non-text): {NON_TEXT:g}:1"
        )
    size = element.px("font-size") or 0.0
    weight = font_weight(element)
    if is_large_text(element):
        return Requirement(
            large,
            f"large text ({size:g}px, weight {weight}; >= 24px, or >= 18.66px bold) "
            f"under WCAG {criterion} {level}: {large:g}:1",
        )
    return Requirement(
        normal,
        f"normal text ({size:g}px, weight {weight}; large starts at 24px, or 18.66px bold) "
        f"under WCAG {criterion} {level}: {normal:g}:1",
    )


def symbols_only(text: str) -> bool:
    """No letter and no digit in any script: arrows, bullets, stars, icon-font glyphs."""
    return bool(text.strip()) and not any(unicodedata.category(ch)[0] in ("L", "N") for ch in text)


def _words(text: str) -> list[str]:
    return re.findall(r"\w+|[^\w\s]", text.casefold())


def glyph_of_control(element: Element) -> bool:
    """The element's text is a glyph standing for a control whose accessible name is other
    words: the control's visible text is a symbol or one character ("×", "X", "+") and
    does not appear, word for word, in its name ("Close"). A control whose name holds its
    visible text ("Save" named "Save draft") shows text, and is measured as text."""
    control = element.control
    if control is None:
        return False
    shown = _words(control.text)
    compact = "".join(shown)
    if not compact or not (symbols_only(control.text) or len(compact) <= GLYPH_CHARS):
        return False
    name = _words(control.name)
    if not name:
        return False  # no name besides the glyph: it is the control's text
    return not any(name[i : i + len(shown)] == shown for i in range(len(name) - len(shown) + 1))


def font_weight(element: Element) -> int:
    raw = element.style.get("font-weight", "400").strip().lower()
    keywords = {"normal": 400, "bold": 700, "bolder": 700, "lighter": 300}
    if raw in keywords:
        return keywords[raw]
    try:
        return int(float(raw))
    except ValueError:
        return 400


def layering(
    probe: Probe, element: Element, canvas: RGBA | None, color: RGBA | None = None
) -> Layering:
    """Composite the element's text and background up through its ancestors to the canvas.

    With ``canvas`` None (unknown) the numbers assume white and ``canvas_unknown`` says
    whether that assumption matters (nothing opaque lies between the text and the canvas).
    """
    text_color = color or parse_color(element.style.get("color", "rgb(0, 0, 0)"))
    bg = _background(element)
    over_image = _has_image(element)
    text = composite(text_color, bg)
    text_alpha = text_color.a
    node = element
    for parent in probe.ancestors(element):
        opacity = _opacity(node)
        text, bg = _fade(text, opacity), _fade(bg, opacity)
        text_alpha *= opacity
        if bg.a < 1.0:
            # Whatever the parent paints shows through the translucent layers above it.
            over_image = over_image or _has_image(parent)
            parent_bg = _background(parent)
            text, bg = composite(text, parent_bg), composite(bg, parent_bg)
        node = parent
    opacity = _opacity(node)
    text, bg = _fade(text, opacity), _fade(bg, opacity)
    text_alpha *= opacity
    base = canvas or WHITE
    unknown = canvas is None and bg.a < 1.0
    group = text_alpha / text_color.a if text_color.a > 0 else 0.0
    return Layering(
        composite(text, base), composite(bg, base), text_alpha, over_image, unknown, group
    )


def _background(element: Element) -> RGBA:
    return parse_color(element.style.get("background-color", "rgba(0, 0, 0, 0)"))


def _has_image(element: Element) -> bool:
    return element.style.get("background-image", "none").strip() not in ("", "none")


def _opacity(element: Element) -> float:
    try:
        return min(max(float(element.style.get("opacity", "1")), 0.0), 1.0)
    except ValueError:
        return 1.0


def _fade(color: RGBA, opacity: float) -> RGBA:
    return color if opacity >= 1.0 else RGBA(color.r, color.g, color.b, color.a * opacity)


def text_items(probe: Probe, skipped: Skipped) -> list[TextItem]:
    """What WCAG 1.4.3 applies to, in document order; the rest is counted in ``skipped``."""
    items: list[TextItem] = []
    for element in probe.elements:
        if not element.visible or element.box.width <= 1 or element.box.height <= 1:
            continue
        if element.has_text:
            if element.text_hidden:
                skipped.hidden += 1
            elif element.inactive:
                skipped.inactive += 1
            elif element.aria_hidden and symbols_only(element.text):
                skipped.decorative += 1
            else:
                color = parse_color(element.style.get("color", "rgb(0, 0, 0)"))
                items.append(TextItem(element, color, element.text_boxes))
        field = element.field_text
        if field is not None:
            if not field.rects:
                skipped.hidden += 1
            elif element.inactive:
                skipped.inactive += 1
            else:
                color = parse_color(field.color)
                color = RGBA(color.r, color.g, color.b, color.a * field.opacity)
                items.append(TextItem(element, color, field.rects, field.kind))
    return items


def measure(
    probe: Probe,
    load_render: Callable[[], RenderImage | None],
    level: str = "AA",
    skipped: Skipped | None = None,
) -> tuple[list[TextResult], int]:
    """Contrast of every text WCAG applies to; also how many were fully transparent.

    ``load_render`` is called only when some text lies over an image.
    """
    canvas = probe.canvas
    skipped = skipped if skipped is not None else Skipped()
    results: list[TextResult] = []
    for item in text_items(probe, skipped):
        element = item.element
        layers = layering(probe, element, canvas, item.color)
        if layers.text_alpha <= 0.0:
            skipped.invisible += 1
            continue
        symbols = item.kind == "text" and symbols_only(element.text)
        glyph = item.kind == "text" and glyph_of_control(element)
        need = requirement(element, level, symbols_only=symbols, glyph=glyph)
        common = {"threshold": need.threshold, "kind": item.kind}
        reason = render_reason(element, layers)
        if not reason:
            ratio, surround = style_contrast(element, layers)
            results.append(
                TextResult(
                    element,
                    need.minimum,
                    ratio,
                    "style",
                    layers.text,
                    surround[1],
                    surround=surround[0],
                    **common,
                )
            )
            continue
        shown = RGBA(item.color.r, item.color.g, item.color.b, layers.text_alpha)
        render = load_render()
        if render is None:
            results.append(
                TextResult(
                    element,
                    need.minimum,
                    None,
                    "render",
                    shown,
                    None,
                    "no render.png",
                    reason,
                    **common,
                )
            )
            continue
        worst = worst_contrast_in_boxes(render, item.boxes, shown, _size(element))
        if worst is None:
            note = "its box lies outside the render"
            results.append(
                TextResult(
                    element, need.minimum, None, "render", shown, None, note, reason, **common
                )
            )
        else:
            ratio, pixel = worst
            results.append(
                TextResult(
                    element, need.minimum, ratio, "render", shown, pixel, reason=reason, **common
                )
            )
    kept = []
    for result in results:
        if unseen(result.element.aria_hidden, result.ratio):
            skipped.unseen += 1
        else:
            kept.append(result)
    return kept, skipped.invisible


def unseen(aria_hidden: bool, ratio: float | None) -> bool:
    """Hidden from assistive technology and drawn in its background's colour: WCAG 1.4.3
    asks nothing of text that nobody, seeing or not, is given."""
    return aria_hidden and ratio is not None and ratio < INVISIBLE_RATIO


def style_contrast(element: Element, layers: Layering) -> tuple[float, tuple[str, RGBA]]:
    """The text's contrast with what surrounds its glyphs, from styles.

    Without a text-shadow touching the glyphs that is the background. A halo (a shadow all
    round the glyphs) is the glyphs' surround instead, whether it raises or lowers the
    contrast; a one-sided shadow touching the glyphs can only lower it.
    """
    shadows = [
        s
        for s in parse_text_shadows(element.style.get("text-shadow", "none"))
        if s.touches(_size(element))
    ]
    ratio = contrast_ratio(layers.text, layers.background)
    surround = ("background", layers.background)
    halos = [s for s in shadows if s.surrounds()]
    if not halos and _outline(shadows):
        halos = shadows
    if halos:
        halo = layers.background
        for shadow in reversed(halos):  # the first listed shadow is painted on top
            color = shadow.color
            halo = composite(RGBA(color.r, color.g, color.b, color.a * layers.group_opacity), halo)
        ratio = contrast_ratio(layers.text, halo)
        surround = ("text-shadow halo", halo)
    for shadow in shadows:
        if shadow in halos:
            continue
        color = shadow.color
        side = composite(
            RGBA(color.r, color.g, color.b, color.a * layers.group_opacity), layers.background
        )
        side_ratio = contrast_ratio(layers.text, side)
        if side_ratio < ratio:
            ratio, surround = side_ratio, ("text-shadow", side)
    return ratio, surround


def _outline(shadows: list[TextShadow]) -> bool:
    """Offset shadows that together outline the glyphs (left and right, above and below)."""
    xs = [s.x for s in shadows]
    ys = [s.y for s in shadows]
    return bool(shadows) and min(xs) < 0 < max(xs) and min(ys) < 0 < max(ys)


def render_reason(element: Element, layers: Layering) -> str:
    """Why styles cannot say what is behind the text ("" when they can)."""
    if element.backdrop:
        shown = ", ".join(element.backdrop[:3]) + (", …" if len(element.backdrop) > 3 else "")
        return f"something besides its ancestors' backgrounds paints there ({shown})"
    if layers.over_image:
        return "text over an image or gradient"
    if layers.canvas_unknown:
        return "nothing opaque lies under it and the probe does not name the page canvas"
    return ""


def _size(element: Element) -> float:
    return element.px("font-size") or 16.0


def measure_graphics(
    probe: Probe,
    graphics: Graphics,
    load_render: Callable[[], RenderImage | None],
    level: str,
    skipped: Skipped,
) -> list[ChartContrast]:
    """SVG text, meaningful chart marks and legend swatches (argus.gates._chart_contrast), with
    the text rules of HTML text; exempt text is counted in ``skipped``."""

    def background_of(element: Element) -> RGBA | None:
        layers = layering(probe, element, probe.canvas)
        return None if render_reason(element, layers) else layers.background

    def text_requirement(mark: Mark, element: Element) -> tuple[float, str] | None:
        if mark.opacity * mark.fill_opacity <= 0 or (
            mark.fill.color is not None and mark.fill.color.a <= 0
        ):
            skipped.invisible += 1
            return None
        if mark.decorative == "aria-hidden" and symbols_only(element.text):
            skipped.decorative += 1
            return None
        need = requirement(element, level, symbols_only=symbols_only(element.text))
        return need.minimum, need.threshold

    kept = []
    for result in measure_charts(probe, graphics, background_of, load_render, text_requirement):
        if result.kind == "svg text" and unseen(result.hidden, result.ratio):
            skipped.unseen += 1
        else:
            kept.append(result)
    return kept


def check_rendered_contrast(
    probe: Probe, render_path: Path | None, level: str = "AA", graphics: Graphics | None = None
) -> GateOutcome:
    """WCAG 1.4.3 (or 1.4.6 at AAA) for every text it applies to, from styles or the render;
    with ``graphics``, charts too (SVG text, and WCAG 1.4.11 for marks and legend swatches)."""

    @functools.cache
    def load_render() -> RenderImage | None:
        if render_path is None or not render_path.is_file():
            return None
        return RenderImage.load(render_path, probe.viewport_width)

    skipped = Skipped()
    results, _ = measure(probe, load_render, level, skipped)
    charts = measure_graphics(probe, graphics, load_render, level, skipped) if graphics else []
    invisible = skipped.invisible
    failed = [r for r in results if r.ratio is not None and not r.passed]
    unmeasurable = [r for r in results if r.ratio is None]
    chart_failed = [r for r in charts if r.ratio is not None and not r.passed]
    chart_unmeasurable = [r for r in charts if r.ratio is None]
    findings = [
        *(_finding(probe, r) for r in failed),
        *(r.finding() for r in chart_failed),
        *(_finding(probe, r) for r in unmeasurable),
        *(r.finding() for r in chart_unmeasurable),
    ][:MAX_FINDINGS]
    ratios = [r.ratio for r in results if r.ratio is not None] + [
        r.ratio for r in charts if r.kind == "svg text" and r.ratio is not None
    ]
    data = {
        "checked": len(results) + len(charts),
        "failed": len(failed) + len(chart_failed),
        "not_measurable": len(unmeasurable) + len(chart_unmeasurable),
        "from_render": sum(1 for r in results if r.method == "render"),
        "svg_text": sum(1 for r in charts if r.kind == "svg text"),
        "chart_marks": sum(1 for r in charts if r.kind == "chart mark"),
        "legend_swatches": sum(1 for r in charts if r.kind == "legend swatch"),
        "chart_failed": len(chart_failed),
        "invisible": invisible,
        "unseen": skipped.unseen,
        "hidden": skipped.hidden,
        "inactive": skipped.inactive,
        "decorative": skipped.decorative,
        "fields": sum(1 for r in results if r.kind != "text"),
        "level": level,
        "worst_ratio": round(min(ratios), 2) if ratios else None,
        "marks_left_out": graphics.marks_left_out if graphics else 0,
        "charts_left_out": graphics.charts_left_out if graphics else 0,
    }
    summary = (
        f"{len(results)} text(s): {len(failed)} below WCAG {level}, "
        f"{len(unmeasurable)} not measurable ({data['from_render']} measured from the render)"
    )
    if charts:
        summary += (
            f"; charts: {data['svg_text']} SVG text(s), {data['chart_marks']} mark(s), "
            f"{data['legend_swatches']} legend swatch(es): {len(chart_failed)} below their "
            f"minimum, {len(chart_unmeasurable)} not measurable"
        )
    # Canvas charts are not this gate's: their pixels are read for colours, not contrast.
    if graphics is not None and (left_out := graphics.left_out(canvases=False)):
        summary += f"; {left_out} (their contrast unchecked)"
    hidden = skipped.hidden + invisible + skipped.unseen
    exempt = hidden + skipped.inactive + skipped.decorative
    if exempt:
        summary += (
            f"; not applicable: {skipped.inactive} inactive, {hidden} "
            f"hidden, {skipped.decorative} decorative"
        )
    if not results and not charts:
        # No text WCAG applies to: a pass would claim a contrast nobody measured.
        summary = (
            f"nothing to check: no visible text ({invisible} fully transparent, "
            f"{skipped.hidden} hidden, {skipped.inactive} inactive, "
            f"{skipped.decorative} decorative)"
        )
        return GateOutcome("rendered_contrast", GateStatus.SKIP, summary, (), data)
    if failed or chart_failed:
        status = GateStatus.FAIL
    elif unmeasurable or chart_unmeasurable:
        status = GateStatus.ERROR
    else:
        status = GateStatus.PASS
    return GateOutcome("rendered_contrast", status, summary, tuple(findings), data)


def _finding(probe: Probe, result: TextResult) -> Finding:
    where = probe.selector(result.element)
    prop = "contrast" if result.kind == "text" else f"contrast ({result.kind})"
    expected = f">= {result.required:g}:1"
    if result.ratio is None:
        return Finding(where, prop, "not measurable", expected, f"{result.reason}: {result.note}")
    bg = to_hex(result.background) if result.background else "?"
    if result.method == "render":
        source = "worst background pixel in the render"
    else:
        source = result.surround or "background"
    return Finding(
        element=where,
        property=prop,
        value=f"{result.ratio:.2f}:1",
        expected=expected,
        message=f"text {to_hex(result.text)} on {source} {bg}; {result.threshold}",
    )


def rendered_contrast_gate(inputs: GateInputs) -> GateOutcome:
    if adapter_probe_without_elements(inputs):
        return skip_for_adapter_probe(inputs, "rendered_contrast")
    source = str(inputs.sensed.probe)
    probe = parse_probe(inputs.probe, source)
    level = inputs.config.gates.rendered_contrast.level
    graphics = parse_graphics(inputs.probe, probe, source)
    return check_rendered_contrast(probe, inputs.sensed.render, level, graphics)


# Registered by a call, not a decorator, so that mutation testing (mutmut skips decorated
# functions) reaches the gate's body.
register_gate(
    "rendered_contrast",
    wcag="1.4.3 Contrast (Minimum), 1.4.11 Non-text Contrast",
    settings=RenderedContrastConfig,
)(rendered_contrast_gate)
