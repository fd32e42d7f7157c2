"""token_compliance: every rendered colour, font size and spacing value is a design token.

Colours (text, background, border) must be a token colour of the view's appearance, exactly
or within a CIEDE2000 tolerance; font sizes must be on the type scale; non-zero margins,
paddings and gaps on the spacing scale. Findings name the element, the property, the value
and the nearest allowed value. When colours are checked, so are charts: SVG fills and strokes,
series held to their tokens, legend swatches to their series, canvas charts' colours
(argus.gates._chart_colours).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from argus.color import RGBA, parse_color, to_hex
from argus.config import TokenComplianceConfig
from argus.errors import InputError
from argus.evidence.graphics import Graphics, Mark, parse_graphics
from argus.evidence.probe import Element, Probe, parse_probe, parse_px
from argus.gates._chart_colours import (
    ChartReport,
    check_canvases,
    check_legends,
    check_marks,
    series_colours,
)
from argus.gates._registry import register_gate
from argus.gates.base import (
    Finding,
    GateInputs,
    GateOutcome,
    GateStatus,
    adapter_probe_without_elements,
    skip_for_adapter_probe,
)
from argus.gates.render_pixels import RenderImage
from argus.tokens import Tokens

SIDES = ("top", "right", "bottom", "left")
# Property groups a config may name; each expands to the computed longhands in probe.json.
GROUPS: dict[str, tuple[str, ...]] = {
    "border-color": tuple(f"border-{s}-color" for s in SIDES),
    "margin": tuple(f"margin-{s}" for s in SIDES),
    "padding": tuple(f"padding-{s}" for s in SIDES),
    "gap": ("row-gap", "column-gap"),
}
DEFAULT_PROPERTIES = (
    "color",
    "background-color",
    "border-color",
    "font-size",
    "margin",
    "padding",
    "gap",
)
COLOR_PROPS = frozenset({"color", "background-color", *GROUPS["border-color"]})
# The properties of chart findings whose value is a colour held to the palette.
CHART_COLOUR_PROPS = frozenset({"fill", "stroke", "canvas colour"})
SPACING_PROPS = frozenset({*GROUPS["margin"], *GROUPS["padding"], *GROUPS["gap"]})
KNOWN = frozenset({*COLOR_PROPS, *SPACING_PROPS, "font-size", "border-radius"})
# Computed lengths come out of layout as floats: 16.0001px is still 16px.
PX_TOLERANCE = 0.05
# How far (px) auto margins and the room beside a centred box may differ (rounding, subpixels).
CENTRE_SLOP = 1.0
MAX_FINDINGS = 100


@dataclass(frozen=True)
class Allowance:
    """The allow-list split into what it can match: elements (and their subtrees) or values."""

    selectors: frozenset[str]
    colors: frozenset[RGBA]
    lengths: frozenset[float]

    @classmethod
    def parse(cls, entries: Iterable[str]) -> Allowance:
        selectors: set[str] = set()
        colors: set[RGBA] = set()
        lengths: set[float] = set()
        for raw in entries:
            entry = raw.strip()
            length = parse_px(entry)
            if length is not None:
                lengths.add(length)
                continue
            # "#abc" may be an id or a colour, "red" an id, a tag or a colour: allow each reading.
            selectors.add(entry.lower())
            with contextlib.suppress(InputError):
                colors.add(parse_color(entry))
        return cls(frozenset(selectors), frozenset(colors), frozenset(lengths))

    def covers(self, probe: Probe, element: Element) -> bool:
        return any(self._names(e) & self.selectors for e in (element, *probe.ancestors(element)))

    def covers_mark(self, probe: Probe, mark: Mark) -> bool:
        """The mark by its tag, id or test id, or its <svg> and what holds it."""
        own = Element(mark.index, None, mark.tag, mark.id, mark.testid, "", True, mark.box, {})
        return bool(self._names(own) & self.selectors) or self.covers(
            probe, probe.elements[mark.svg]
        )

    @staticmethod
    def _names(e: Element) -> set[str]:
        names = {e.tag}
        if e.id:
            names |= {e.id.lower(), f"#{e.id.lower()}"}
        if e.testid:
            t = e.testid.lower()
            names |= {t, f"[data-testid={t}]", f'[data-testid="{t}"]', f"[data-testid='{t}']"}
        return names


def expand_properties(names: Sequence[str]) -> tuple[str, ...]:
    props: list[str] = []
    for name in names:
        key = name.strip().lower()
        expanded = GROUPS.get(key, (key,))
        for prop in expanded:
            if prop not in KNOWN:
                raise InputError(
                    f"[gates.token_compliance] properties: unknown property {name!r}; "
                    f"use {', '.join(sorted({*GROUPS, *KNOWN}))}"
                )
            if prop not in props:
                props.append(prop)
    return tuple(props)


def check_token_compliance(
    probe: Probe,
    tokens: Tokens,
    appearance: str,
    *,
    properties: Sequence[str] = DEFAULT_PROPERTIES,
    allow: Sequence[str] = (),
    delta_e: float = 1.0,
    max_findings: int | None = MAX_FINDINGS,
    graphics: Graphics | None = None,
    series: Mapping[str, str] | None = None,
    load_render: Callable[[], RenderImage | None] | None = None,
) -> GateOutcome:
    """Every checked computed value of every visible element must be on the design tokens.
    ``max_findings``: how many findings the outcome lists (None: every one; the counts in
    ``data`` always cover every one). With colours among the properties and ``graphics``
    given, charts too: ``series`` (spec charts.series) maps a series to its token, and
    ``load_render`` reads the render for canvas charts."""
    tokens.require_appearance(appearance)
    props = expand_properties(properties)
    allowance = Allowance.parse(allow)
    checker = _Checker(probe, tokens, appearance, delta_e, allowance)
    findings: list[Finding] = []
    checked = 0
    for element in probe.elements:
        if not _rendered(element) or allowance.covers(probe, element):
            continue
        for prop in props:
            if not _applies(element, prop):
                continue
            checked += 1
            problem = checker.check(element, prop)
            if problem is not None:
                value, expected, message = problem
                findings.append(Finding(probe.selector(element), prop, value, expected, message))
    charts = None
    if graphics is not None and any(p in COLOR_PROPS for p in props):
        charts = _check_charts(
            probe, graphics, tokens, appearance, series or {}, delta_e, checker, load_render
        )
        findings.extend(charts.findings)
        checked += charts.checked
    by_property: dict[str, int] = {}
    for f in findings:
        by_property[f.property] = by_property.get(f.property, 0) + 1
    data: dict[str, object] = {
        "checked": checked,
        "off_token": len(findings),
        "by_property": by_property,
    }
    summary = f"{len(findings)} off-token value(s) among {checked} checked"
    if by_property:
        summary += " (" + ", ".join(f"{k}: {v}" for k, v in sorted(by_property.items())) + ")"
    if charts is not None and graphics is not None:
        data["charts"] = charts.data(graphics)
        summary += chart_summary(probe, graphics, charts)
    if not checked:
        # Nothing shown carries a checked property: a pass would be vacuous.
        summary = "nothing to check: no visible element carries a checked property"
        return GateOutcome("token_compliance", GateStatus.SKIP, summary, (), data)
    status = GateStatus.FAIL if findings else GateStatus.PASS
    return GateOutcome("token_compliance", status, summary, tuple(findings[:max_findings]), data)


def _check_charts(
    probe: Probe,
    graphics: Graphics,
    tokens: Tokens,
    appearance: str,
    series: Mapping[str, str],
    delta_e: float,
    checker: _Checker,
    load_render: Callable[[], RenderImage | None] | None,
) -> ChartReport:
    report = ChartReport()
    check_marks(
        probe,
        graphics,
        series_colours(tokens, appearance, series),
        delta_e,
        checker.colour_problem,
        lambda mark: checker.allow.covers_mark(probe, mark),
        report,
    )
    check_legends(probe, graphics, delta_e, report)
    check_canvases(probe, graphics, load_render or (lambda: None), checker.colour_problem, report)
    return report


def chart_summary(probe: Probe, graphics: Graphics, charts: ChartReport) -> str:
    """What the summary says of charts: nothing when the page has none; what was left out or
    could not be measured, always."""
    if not graphics.recorded:
        if any(e.tag in ("svg", "canvas") for e in probe.elements):
            return "; SVG and canvas not read (the probe has no graphics section: re-sense)"
        return ""
    parts = []
    if graphics.marks or graphics.canvases:
        parts.append(
            f"charts: {charts.marks_checked} SVG paint(s), "
            f"{charts.canvas_colours} canvas colour(s) checked"
        )
    if graphics.canvases_undeclared:
        parts.append(
            f"{graphics.canvases_undeclared} <canvas> not declared as a chart (role=img with a "
            "name, or data-argus-chart): its pixels not read"
        )
    if left_out := graphics.left_out():
        parts.append(left_out)
    if charts.unmeasured:
        more = len(charts.unmeasured) - 2
        listed = "; ".join(charts.unmeasured[:2]) + (f"; and {more} more" if more > 0 else "")
        parts.append(f"{len(charts.unmeasured)} not measured ({listed})")
    return "".join(f"; {p}" for p in parts)


def _rendered(element: Element) -> bool:
    # Boxes of 1px or less are the visually-hidden pattern: nothing of them is seen.
    return element.visible and element.box.width > 1 and element.box.height > 1


def _applies(element: Element, prop: str) -> bool:
    if prop in ("color", "font-size"):
        return element.has_text  # only text shows its colour and size
    if prop.startswith("border-") and prop.endswith("-color"):
        width = element.px(prop.replace("-color", "-width"))
        return width is not None and width > 0
    return prop in element.style


class _Checker:
    def __init__(
        self, probe: Probe, tokens: Tokens, appearance: str, delta_e: float, allow: Allowance
    ):
        self.probe = probe
        self.tokens = tokens
        self.appearance = appearance
        self.delta_e = delta_e
        self.allow = allow
        self.max_spacing = max(tokens.spacing.values(), default=0.0)

    def check(self, element: Element, prop: str) -> tuple[str, str, str] | None:
        """None when the value is allowed, else (value, nearest allowed, message)."""
        raw = element.style.get(prop, "").strip()
        if prop in COLOR_PROPS:
            return self._color(raw)
        if prop == "font-size":
            return self._on_scale(
                raw, self.tokens.type_scale, self.tokens.nearest_type_size, "type scale"
            )
        if prop == "border-radius":
            return self._radius(raw)
        if prop in ("margin-left", "margin-right") and _auto_centred(
            self.probe, element, self.max_spacing
        ):
            return None
        return self._on_scale(
            raw, self.tokens.spacing, self.tokens.nearest_spacing, "spacing scale"
        )

    def _color(self, raw: str) -> tuple[str, str, str] | None:
        return self.colour_problem(parse_color(raw), raw)

    def colour_problem(self, color: RGBA, raw: str) -> tuple[str, str, str] | None:
        """None when ``color`` is a palette colour (or allowed), else the finding's parts."""
        if color.a <= 0.0 or color in self.allow.colors:
            return None
        nearest = self.tokens.nearest_color(color, self.appearance)
        if nearest is None:
            return (raw, "(no colour tokens)", "the tokens define no colours for this appearance")
        name, distance = nearest
        if distance <= self.delta_e:
            return None
        token = to_hex(self.tokens.color(name, self.appearance))
        return (
            raw,
            f"{name} {token}",
            f"{to_hex(color)} is not a token colour of {self.appearance} "
            f"(nearest {name}, ΔE2000 {distance:.1f} > {self.delta_e:g})",
        )

    def _on_scale(
        self,
        raw: str,
        scale: Mapping[str, float],
        nearest_on: Callable[[float], tuple[str, float] | None],
        what: str,
    ) -> tuple[str, str, str] | None:
        px = parse_px(raw)
        if px is None or px == 0:
            return None  # keywords (normal, auto) and zero are always fine
        size = abs(px)  # a negative margin pulls by a step of the same scale
        if size in self.allow.lengths:
            return None
        nearest = nearest_on(size)
        if nearest is not None and nearest[1] <= PX_TOLERANCE:
            return None
        if nearest is None:
            return (raw, f"(no {what})", f"the tokens define no {what}")
        name = nearest[0]
        return (raw, f"{name} {scale[name]:g}px", f"{size:g}px is not on the {what}")

    def _radius(self, raw: str) -> tuple[str, str, str] | None:
        for part in raw.replace("/", " ").split():
            problem = self._on_scale(
                part, self.tokens.radii, self.tokens.nearest_radius, "radius scale"
            )
            if problem is not None:
                return (raw, problem[1], problem[2])
        return None


def _auto_centred(probe: Probe, element: Element, max_spacing: float) -> bool:
    """``margin: 0 auto`` resolved to px: equal horizontal margins, wider than any spacing
    step, that put the element in the middle of its parent's content box (the parent's box less
    its borders and paddings). Symmetric margins that do not centre it are real margins."""
    left, right = element.px("margin-left"), element.px("margin-right")
    if left is None or right is None or element.parent is None:
        return False
    if abs(left - right) > CENTRE_SLOP or left <= max_spacing:
        return False
    parent = probe.elements[element.parent]
    inset_left = sum(parent.px(p) or 0.0 for p in ("border-left-width", "padding-left"))
    inset_right = sum(parent.px(p) or 0.0 for p in ("border-right-width", "padding-right"))
    content_left = parent.box.x + inset_left
    content_right = parent.box.x + parent.box.width - inset_right
    box = element.box
    space_left = box.x - content_left
    space_right = content_right - (box.x + box.width)
    return abs(space_left - left) <= CENTRE_SLOP and abs(space_right - right) <= CENTRE_SLOP


def token_compliance_gate(inputs: GateInputs) -> GateOutcome:
    if adapter_probe_without_elements(inputs):
        return skip_for_adapter_probe(inputs, "token_compliance")
    settings = inputs.config.gates.token_compliance
    source = str(inputs.sensed.probe)
    probe = parse_probe(inputs.probe, source)
    render = inputs.sensed.render
    viewport = probe.viewport_width

    @functools.cache
    def load_render() -> RenderImage | None:
        return RenderImage.load(render, viewport) if render.is_file() else None

    return check_token_compliance(
        probe,
        inputs.tokens,
        inputs.view.appearance,
        properties=settings.properties,
        allow=settings.allow,
        delta_e=settings.delta_e,
        graphics=parse_graphics(inputs.probe, probe, source),
        series=inputs.spec.chart_series,
        load_render=load_render,
    )


# Registered by a call, not a decorator, so that mutation testing (mutmut skips decorated
# functions) reaches the gate's body.
register_gate("token_compliance", settings=TokenComplianceConfig)(token_compliance_gate)
