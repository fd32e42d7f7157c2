"""Chart colours against the design tokens: what token_compliance adds for SVG and canvas.

- Every painted fill and stroke of an inline SVG mark (and SVG text's fill) must be a palette
  colour; a mark of a series the spec maps to a token (``charts.series``) must be that token.
  ``none`` and transparent paint nothing and are not checked; ``currentColor`` arrives computed
  (the colour it stands for); a gradient or pattern (``url(#...)``) is listed as unmeasured.
- A declared canvas chart's distinct colours (argus.gates._canvas_pixels) must be palette colours;
  a canvas the render does not show, or one without distinct colours, is listed as unmeasured.
- A legend swatch must show the colour of the series it names (the colour most of that series'
  marks are drawn in).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from argus.color import RGBA, to_hex
from argus.errors import InputError
from argus.evidence.graphics import (
    FILL_LESS,
    Chart,
    Graphics,
    LegendItem,
    Mark,
    backdrop_marks,
    mark_selector,
)
from argus.evidence.probe import Probe
from argus.gates._canvas_pixels import canvas_colours
from argus.gates.base import Finding
from argus.gates.render_pixels import RenderImage
from argus.tokens import Tokens
from argus.tokens.model import _rendered_distance

# (value, expected, message) for a colour off the palette, None when it is on it.
ColourProblem = Callable[[RGBA, str], tuple[str, str, str] | None]
MAX_UNMEASURED_LISTED = 10


@dataclass
class ChartReport:
    findings: list[Finding] = field(default_factory=list)
    marks_checked: int = 0  # fills and strokes of SVG marks
    canvas_colours: int = 0  # distinct colours of canvas charts
    unmeasured: list[str] = field(default_factory=list)
    legend_items: int = 0
    legend_unmatched: int = 0
    canvases_checked: int = 0
    # Per canvas read: its selector, its distinct colours with their shares, the unlisted share.
    canvases: list[dict[str, object]] = field(default_factory=list)

    @property
    def checked(self) -> int:
        return self.marks_checked + self.canvas_colours

    def data(self, graphics: Graphics) -> dict[str, object]:
        return {
            "recorded": graphics.recorded,
            "marks_checked": self.marks_checked,
            "canvas_colours": self.canvas_colours,
            "marks_left_out": graphics.marks_left_out,
            "charts_left_out": graphics.charts_left_out,
            "canvases_left_out": graphics.canvases_left_out,
            "canvases_checked": self.canvases_checked,
            "legend_items": self.legend_items,
            "legend_unmatched": self.legend_unmatched,
            "canvases": self.canvases[:MAX_UNMEASURED_LISTED],
            "unmeasured": len(self.unmeasured),
            "unmeasured_listed": self.unmeasured[:MAX_UNMEASURED_LISTED],
        }


def series_colours(
    tokens: Tokens, appearance: str, series: Mapping[str, str]
) -> dict[str, tuple[str, RGBA]]:
    """The spec's series -> (token, its colour in ``appearance``); a token the tokens lack is
    bad input (``argus lint`` says so too)."""
    out: dict[str, tuple[str, RGBA]] = {}
    for name, token in series.items():
        if token not in tokens.colors:
            raise InputError(
                f"spec.json charts.series.{name}: no colour token '{token}' in "
                f"{tokens.source.name}; name one of its colours"
            )
        out[name.casefold()] = (token, tokens.color(token, appearance))
    return out


def check_marks(
    probe: Probe,
    graphics: Graphics,
    series: Mapping[str, tuple[str, RGBA]],
    delta_e: float,
    problem: ColourProblem,
    covered: Callable[[Mark], bool],
    report: ChartReport,
) -> None:
    """Every painted fill and stroke of every recorded mark."""
    for mark in graphics.marks:
        if covered(mark):
            continue
        for prop, paint, _alpha in mark.paints():
            where = mark_selector(probe, mark)
            if paint.color is None:
                report.unmeasured.append(f"{where} {prop} {paint.raw}: {paint.unmeasured}")
                continue
            report.marks_checked += 1
            token = series.get(mark.series.casefold()) if mark.series and not mark.is_text else None
            if token is not None:
                found = _series_problem(paint.color, mark.series, token, delta_e)
            else:
                found = problem(paint.color, to_hex(paint.color))
            if found is not None:
                value, expected, message = found
                report.findings.append(Finding(where, prop, value, expected, message))


def _series_problem(
    color: RGBA, series: str, token: tuple[str, RGBA], delta_e: float
) -> tuple[str, str, str] | None:
    name, wanted = token
    distance = _rendered_distance(color, wanted)
    if distance <= delta_e:
        return None
    return (
        to_hex(color),
        f"{name} {to_hex(wanted)}",
        f"series {series!r} is drawn {to_hex(color)}, not its token {name} "
        f"(ΔE2000 {distance:.1f} > {delta_e:g}; spec charts.series)",
    )


def _drawn_colour(mark: Mark) -> RGBA | None:
    for _prop, paint, _alpha in mark.paints():
        if paint.color is not None:
            return paint.color
    return None


def check_legends(probe: Probe, graphics: Graphics, delta_e: float, report: ChartReport) -> None:
    """Each legend swatch against the colour its series is drawn in."""
    swatches = graphics.swatch_marks()
    for chart in graphics.charts:
        if chart.legend is None:
            continue
        drawn = _series_drawn(graphics, chart, swatches)
        if not drawn:
            drawn = _drawn_in_order(graphics, chart, swatches, chart.legend.items)
        for item in chart.legend.items:
            report.legend_items += 1
            key = next((k for k in (item.series, item.label) if k and k.casefold() in drawn), None)
            if key is None or item.swatch is None or item.swatch.color.color is None:
                report.legend_unmatched += 1
                continue
            shown = item.swatch.color.color
            modal = drawn[key.casefold()]
            colour = min(modal, key=lambda c: _rendered_distance(shown, c))
            distance = _rendered_distance(shown, colour)
            if distance <= delta_e:
                continue
            report.findings.append(
                Finding(
                    _swatch_selector(probe, graphics, chart, item.swatch.mark, item.swatch.element),
                    "legend swatch",
                    to_hex(shown),
                    f"{to_hex(colour)} (series {key})",
                    f"the legend shows {item.label or key!r} as {to_hex(shown)} but the chart "
                    f"draws series {key!r} in {to_hex(colour)} "
                    f"(ΔE2000 {distance:.1f} > {delta_e:g})",
                )
            )


def _series_drawn(
    graphics: Graphics, chart: Chart, swatches: frozenset[int]
) -> dict[str, list[RGBA]]:
    """Series -> the colour(s) most of its marks in this chart are drawn in (several on a tie)."""
    seen: dict[str, Counter[RGBA]] = {}
    for mark in graphics.marks:
        if mark.svg != chart.svg or mark.is_text or mark.index in swatches or not mark.series:
            continue
        colour = _drawn_colour(mark)
        if colour is not None:
            seen.setdefault(mark.series.casefold(), Counter())[colour] += 1
    out: dict[str, list[RGBA]] = {}
    for series, counts in seen.items():
        top = max(counts.values())
        out[series] = [c for c, n in counts.items() if n == top]
    return out


def _drawn_in_order(
    graphics: Graphics, chart: Chart, swatches: frozenset[int], items: tuple[LegendItem, ...]
) -> dict[str, list[RGBA]]:
    """A chart whose marks name no series (no data-series, no series class): its legend's
    items paired in order with the distinct colours its filled data shapes are drawn in, in
    document order, the way chart libraries draw series in legend order. Only when the two
    counts agree; otherwise nothing is paired and the items are counted unmatched."""
    colours: list[RGBA] = []
    backdrops = backdrop_marks(graphics)
    for mark in graphics.marks:
        if mark.svg != chart.svg or mark.is_text or mark.decorative:
            continue
        if mark.index in swatches or mark.index in backdrops:
            continue
        fill = mark.fill.color if mark.tag not in FILL_LESS else None
        if fill is not None and fill.a > 0 and fill not in colours:
            colours.append(fill)
    if len(colours) != len(items):
        return {}
    return {
        (item.series or item.label).casefold(): [colour]
        for item, colour in zip(items, colours, strict=True)
        if item.series or item.label
    }


def _swatch_selector(
    probe: Probe, graphics: Graphics, chart: Chart, mark: int | None, element: int | None
) -> str:
    if mark is not None:
        return mark_selector(probe, graphics.marks[mark])
    if element is not None:
        return probe.selector(probe.elements[element])
    return probe.selector(probe.elements[chart.svg])


def check_canvases(
    probe: Probe,
    graphics: Graphics,
    load_render: Callable[[], RenderImage | None],
    problem: ColourProblem,
    report: ChartReport,
) -> None:
    """Each declared canvas chart's distinct colours, from the render."""
    for canvas in graphics.canvases:
        where = probe.selector(probe.elements[canvas.element])
        render = load_render()
        if render is None:
            report.unmeasured.append(f"{where} canvas: no render.png to read its pixels from")
            continue
        found = canvas_colours(render, canvas.box)
        if found is None:
            report.unmeasured.append(f"{where} canvas: its box lies outside the render")
            continue
        if not found.measurable:
            report.unmeasured.append(
                f"{where} canvas: no distinct colours ({found.unlisted:.0%} of its pixels are "
                "blends, gradients or images)"
            )
            continue
        if found.partial:
            report.unmeasured.append(f"{where} canvas: only the part inside the render was read")
        report.canvases_checked += 1
        report.canvases.append(
            {
                "canvas": where,
                "colours": [[to_hex(c), round(share, 3)] for c, share in found.colours],
                "unlisted": round(found.unlisted, 3),
            }
        )
        for colour, share in found.colours:
            report.canvas_colours += 1
            off = problem(colour, to_hex(colour))
            if off is not None:
                value, expected, message = off
                report.findings.append(
                    Finding(
                        where,
                        "canvas colour",
                        value,
                        expected,
                        f"covers {share:.0%} of the canvas chart; {message}",
                    )
                )
