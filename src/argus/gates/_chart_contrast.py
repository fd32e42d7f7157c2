"""Contrast of charts: SVG text (WCAG 1.4.3), meaningful marks and legend swatches (WCAG 1.4.11,
3:1 against what lies behind them).

SVG text is text: its colour is its fill (with the fill and group opacities); it is measured
from the render like HTML text over an image (argus.gates.render_pixels), and from styles when
there is no render. Which marks are meaningful (docs/gates.md, "Charts"): a shape inside a chart
(an <svg> with role img or graphics-document, or a name) that is not decoration (aria-hidden,
role presentation/none, data-argus-decorative on it or a group above it) and that carries data:
it names a series (data-series or a series class), has an accessible name, or is a filled shape.
Stroke-only shapes with neither (axes, gridlines, ticks) are chart furniture and not measured; a
filled shape under other marks (a plot background) is their background, not a mark. A mark
passes when its fill or its stroke reaches 3:1. A legend swatch is always measured.

What lies behind a mark comes from styles: the <svg>'s background composited up its ancestors
to the canvas (argus.gates.rendered_contrast.layering), under every earlier filled shape of the
same <svg> that covers the mark's centre.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from argus.color import RGBA, composite, contrast_ratio, to_hex
from argus.evidence.graphics import Graphics, Mark, backdrop_marks, mark_selector, marks_under
from argus.evidence.probe import Element, Probe
from argus.gates.base import Finding
from argus.gates.render_pixels import RenderImage, worst_contrast_in_boxes

NON_TEXT = 3.0


@dataclass(frozen=True)
class ChartContrast:
    where: str
    kind: str  # "svg text", "chart mark", "legend swatch"
    required: float
    ratio: float | None  # None: not measurable
    colour: RGBA
    background: RGBA | None
    threshold: str
    note: str = ""
    hidden: bool = False  # SVG text hidden from assistive technology (aria-hidden)

    @property
    def passed(self) -> bool:
        return self.ratio is not None and self.ratio >= self.required

    def finding(self) -> Finding:
        prop = f"contrast ({self.kind})"
        expected = f">= {self.required:g}:1"
        if self.ratio is None:
            return Finding(self.where, prop, "not measurable", expected, self.note)
        bg = to_hex(self.background) if self.background is not None else "?"
        return Finding(
            self.where,
            prop,
            f"{self.ratio:.2f}:1",
            expected,
            f"{to_hex(self.colour)} on {bg}; {self.threshold}",
        )


def text_element(mark: Mark) -> Element:
    """The text mark as an element for the HTML text rules (size, weight, symbols)."""
    style = {"font-size": f"{mark.font_size:g}px", "font-weight": mark.font_weight}
    return Element(-1, mark.svg, mark.tag, mark.id, mark.testid, mark.text, True, mark.box, style)


def meaningful(graphics: Graphics, mark: Mark, backdrops: frozenset[int]) -> bool:
    """A data mark of a chart, held to WCAG 1.4.11 (see the module's docstring)."""
    if mark.is_text or mark.decorative or graphics.chart_of(mark) is None:
        return False
    if mark.index in backdrops:
        return False
    if mark.series or mark.name:
        return True
    return mark.tag != "line" and mark.fill.color is not None and mark.fill.color.a > 0


def _shown(colour: RGBA, alpha: float) -> RGBA:
    return RGBA(colour.r, colour.g, colour.b, colour.a * alpha)


def measure_charts(
    probe: Probe,
    graphics: Graphics,
    background_of: Callable[[Element], RGBA | None],
    load_render: Callable[[], RenderImage | None],
    text_requirement: Callable[[Mark, Element], tuple[float, str] | None],
) -> list[ChartContrast]:
    """Every SVG text, meaningful mark and legend swatch, measured.

    ``background_of(element)``: the opaque background behind an element from styles (None
    when styles cannot say); ``text_requirement(mark, element)``: the minimum and the rule
    for a text, None when WCAG exempts it (a decorative glyph)."""
    backdrops = backdrop_marks(graphics)
    results: list[ChartContrast] = []
    for mark in graphics.marks:
        if mark.is_text:
            need = text_requirement(mark, text_element(mark))
            if need is not None:
                results.append(_text(probe, graphics, mark, need, background_of, load_render))
        elif meaningful(graphics, mark, backdrops):
            results.append(_mark(probe, graphics, mark, "chart mark", background_of))
    swatched = set()
    for chart in graphics.charts:
        for item in chart.legend.items if chart.legend is not None else ():
            swatch = item.swatch
            if swatch is None or swatch.color.color is None:
                continue
            if swatch.mark is not None:
                if swatch.mark in swatched:
                    continue
                swatched.add(swatch.mark)
                mark = graphics.marks[swatch.mark]
                results = [r for r in results if r.where != mark_selector(probe, mark)]
                results.append(_mark(probe, graphics, mark, "legend swatch", background_of))
            elif swatch.element is not None:
                results.append(
                    _box_swatch(probe, swatch.element, swatch.color.color, background_of)
                )
    return results


def _behind(
    probe: Probe, graphics: Graphics, mark: Mark, background_of: Callable[[Element], RGBA | None]
) -> RGBA | None:
    base = background_of(probe.elements[mark.svg])
    if base is None:
        return None
    for under in marks_under(graphics, mark):
        assert under.fill.color is not None
        base = composite(_shown(under.fill.color, under.opacity * under.fill_opacity), base)
    return base


def _mark(
    probe: Probe,
    graphics: Graphics,
    mark: Mark,
    kind: str,
    background_of: Callable[[Element], RGBA | None],
) -> ChartContrast:
    where = mark_selector(probe, mark)
    rule = f"{kind} (WCAG 1.4.11 non-text): {NON_TEXT:g}:1 for its fill or its stroke"
    behind = _behind(probe, graphics, mark, background_of)
    painted = [(paint.color, alpha) for _p, paint, alpha in mark.paints() if paint.color]
    if behind is None or not painted:
        why = "no plain fill or stroke colour" if behind is not None else "over an image"
        return ChartContrast(where, kind, NON_TEXT, None, RGBA(0, 0, 0, 1), None, rule, why)
    best = max(
        ((contrast_ratio(composite(_shown(c, a), behind), behind), c) for c, a in painted),
        key=lambda found: found[0],
    )
    return ChartContrast(where, kind, NON_TEXT, best[0], best[1], behind, rule)


def _box_swatch(
    probe: Probe, index: int, colour: RGBA, background_of: Callable[[Element], RGBA | None]
) -> ChartContrast:
    element = probe.elements[index]
    where = probe.selector(element)
    rule = f"legend swatch (WCAG 1.4.11 non-text): {NON_TEXT:g}:1"
    parent = probe.elements[element.parent] if element.parent is not None else element
    behind = background_of(parent)
    if behind is None:
        return ChartContrast(
            where, "legend swatch", NON_TEXT, None, colour, None, rule, "over an image"
        )
    ratio = contrast_ratio(composite(colour, behind), behind)
    return ChartContrast(where, "legend swatch", NON_TEXT, ratio, colour, behind, rule)


def _text(
    probe: Probe,
    graphics: Graphics,
    mark: Mark,
    need: tuple[float, str],
    background_of: Callable[[Element], RGBA | None],
    load_render: Callable[[], RenderImage | None],
) -> ChartContrast:
    where = mark_selector(probe, mark)
    minimum, rule = need
    colour = mark.fill.color
    hidden = mark.decorative == "aria-hidden"
    if colour is None:
        note = f"its fill is {mark.fill.raw or 'none'}: {mark.fill.unmeasured or 'no colour'}"
        return ChartContrast(where, "svg text", minimum, None, RGBA(0, 0, 0, 1), None, rule, note)
    shown = _shown(colour, mark.opacity * mark.fill_opacity)
    render = load_render()
    if render is not None:
        worst = worst_contrast_in_boxes(render, (mark.box,), shown, mark.font_size)
        if worst is not None:
            return ChartContrast(
                where, "svg text", minimum, worst[0], colour, worst[1], rule, hidden=hidden
            )
    behind = _behind(probe, graphics, mark, background_of)
    if behind is None:
        note = "no render.png, and styles cannot say what lies behind it"
        return ChartContrast(where, "svg text", minimum, None, colour, None, rule, note)
    ratio = contrast_ratio(composite(shown, behind), behind)
    return ChartContrast(where, "svg text", minimum, ratio, colour, behind, rule, hidden=hidden)
