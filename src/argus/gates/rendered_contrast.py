"""rendered_contrast: every visible text element's colour against what is really behind it.

For solid backgrounds the answer comes from computed styles: walk the ancestors, compositing
translucent backgrounds and group opacity, down to the canvas. Where a background image or
gradient lies under the text, styles cannot say, so the render is measured instead (see
argus.gates.render_pixels). What cannot be decided either way is reported as not measurable,
which keeps the gate from passing.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from argus.color import RGBA, composite, contrast_ratio, parse_color, to_hex
from argus.gates.base import (
    Finding,
    GateInputs,
    GateOutcome,
    GateStatus,
    adapter_probe_without_elements,
    register_gate,
    skip_for_adapter_probe,
)
from argus.gates.probe import Element, Probe, parse_probe
from argus.gates.render_pixels import RenderImage, worst_contrast_in_boxes

AA_NORMAL = 4.5
AA_LARGE = 3.0
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

    @property
    def passed(self) -> bool:
        return self.ratio is not None and self.ratio >= self.required


def is_large_text(element: Element) -> bool:
    """WCAG large text: 18pt (24px), or 14pt (18.66px) and bold."""
    size = element.px("font-size") or 0.0
    return size >= 24.0 or (size >= 18.66 and font_weight(element) >= 700)


def font_weight(element: Element) -> int:
    raw = element.style.get("font-weight", "400").strip().lower()
    keywords = {"normal": 400, "bold": 700, "bolder": 700, "lighter": 300}
    if raw in keywords:
        return keywords[raw]
    try:
        return int(float(raw))
    except ValueError:
        return 400


def layering(probe: Probe, element: Element, canvas: RGBA | None) -> Layering:
    """Composite the element's text and background up through its ancestors to the canvas.

    With ``canvas`` None (unknown) the numbers assume white and ``canvas_unknown`` says
    whether that assumption matters (nothing opaque lies between the text and the canvas).
    """
    text_color = parse_color(element.style.get("color", "rgb(0, 0, 0)"))
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
    return Layering(composite(text, base), composite(bg, base), text_alpha, over_image, unknown)


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


def text_elements(probe: Probe) -> list[Element]:
    """Elements with their own visible text and a box bigger than the 1px 'sr-only' trick."""
    return [
        e
        for e in probe.elements
        if e.visible and e.has_text and e.box.width > 1 and e.box.height > 1
    ]


def measure(
    probe: Probe, load_render: Callable[[], RenderImage | None]
) -> tuple[list[TextResult], int]:
    """Contrast of every visible text element; also how many were invisible (skipped).

    ``load_render`` is called only when some text lies over an image.
    """
    canvas = probe.canvas
    results: list[TextResult] = []
    invisible = 0
    for element in text_elements(probe):
        layers = layering(probe, element, canvas)
        if layers.text_alpha <= 0.0:
            invisible += 1
            continue
        required = AA_LARGE if is_large_text(element) else AA_NORMAL
        reason = render_reason(element, layers)
        if not reason:
            ratio = contrast_ratio(layers.text, layers.background)
            results.append(
                TextResult(element, required, ratio, "style", layers.text, layers.background)
            )
            continue
        text_color = parse_color(element.style.get("color", "rgb(0, 0, 0)"))
        shown = RGBA(text_color.r, text_color.g, text_color.b, layers.text_alpha)
        render = load_render()
        if render is None:
            results.append(
                TextResult(element, required, None, "render", shown, None, "no render.png", reason)
            )
            continue
        worst = worst_contrast_in_boxes(render, element.text_boxes, shown, _size(element))
        if worst is None:
            note = "its box lies outside the render"
            results.append(TextResult(element, required, None, "render", shown, None, note, reason))
        else:
            ratio, pixel = worst
            results.append(
                TextResult(element, required, ratio, "render", shown, pixel, reason=reason)
            )
    return results, invisible


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


def check_rendered_contrast(probe: Probe, render_path: Path | None) -> GateOutcome:
    """WCAG AA for every visible text element, from styles or, over images, from the render."""

    @functools.cache
    def load_render() -> RenderImage | None:
        if render_path is None or not render_path.is_file():
            return None
        return RenderImage.load(render_path, probe.viewport_width)

    results, invisible = measure(probe, load_render)
    failed = [r for r in results if r.ratio is not None and not r.passed]
    unmeasurable = [r for r in results if r.ratio is None]
    findings = [_finding(probe, r) for r in [*failed, *unmeasurable]][:MAX_FINDINGS]
    ratios = [r.ratio for r in results if r.ratio is not None]
    data = {
        "checked": len(results),
        "failed": len(failed),
        "not_measurable": len(unmeasurable),
        "from_render": sum(1 for r in results if r.method == "render"),
        "invisible": invisible,
        "worst_ratio": round(min(ratios), 2) if ratios else None,
    }
    summary = (
        f"{len(results)} text element(s): {len(failed)} below WCAG AA, "
        f"{len(unmeasurable)} not measurable ({data['from_render']} measured from the render)"
    )
    if not results:
        # No visible text: a pass would claim a contrast nobody measured.
        summary = f"nothing to check: no visible text ({invisible} fully transparent)"
        return GateOutcome("rendered_contrast", GateStatus.SKIP, summary, (), data)
    if failed:
        status = GateStatus.FAIL
    elif unmeasurable:
        status = GateStatus.ERROR
    else:
        status = GateStatus.PASS
    return GateOutcome("rendered_contrast", status, summary, tuple(findings), data)


def _finding(probe: Probe, result: TextResult) -> Finding:
    where = probe.selector(result.element)
    expected = f">= {result.required:g}:1"
    if result.ratio is None:
        return Finding(
            where, "contrast", "not measurable", expected, f"{result.reason}: {result.note}"
        )
    bg = to_hex(result.background) if result.background else "?"
    source = "worst background pixel in the render" if result.method == "render" else "background"
    return Finding(
        element=where,
        property="contrast",
        value=f"{result.ratio:.2f}:1",
        expected=expected,
        message=f"text {to_hex(result.text)} on {source} {bg}",
    )


@register_gate("rendered_contrast")
def rendered_contrast_gate(inputs: GateInputs) -> GateOutcome:
    if adapter_probe_without_elements(inputs):
        return skip_for_adapter_probe(inputs, "rendered_contrast")
    probe = parse_probe(inputs.probe, str(inputs.sensed.probe))
    return check_rendered_contrast(probe, inputs.sensed.render)
