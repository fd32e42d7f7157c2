"""token_compliance, layout_spacing, typography: computed styles against the design tokens.

The value checks are the token_compliance gate's own (argus.gates.token_compliance), run here
per dimension so that a project that switched the gate off is still judged, and so that each
dimension names only its own offences. The judge adds what the gate does not check: font
families against the tokens and the alignment of stacked siblings.

Scores: 1 when nothing is off; 0.5 when every offence is a near miss (a colour within
NEAR_DELTA_E of a token, a spacing within NEAR_PX or a type size within NEAR_TYPE_PX of a step,
a stacked sibling's edge at most ALIGN_SLOP px out of line);
0 otherwise.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from typing import Any

from argus.color import parse_color
from argus.diff.masks import select_elements
from argus.errors import InputError
from argus.evidence.content import clip
from argus.evidence.probe import Element, parse_px
from argus.gates.base import Finding
from argus.gates.token_compliance import (
    CHART_COLOUR_PROPS,
    COLOR_PROPS,
    PX_TOLERANCE,
    check_token_compliance,
)
from argus.judge.metric._context import Measured, MetricContext, Node
from argus.tokens.colorroles import inferred_appearance
from argus.tokens.model import ALL_APPEARANCES, _rendered_distance

NEAR_DELTA_E = 5.0
NEAR_PX = 2.0  # spacing
NEAR_TYPE_PX = 1.0  # type sizes sit closer together than spacing steps
ALIGN_SLOP = 3.0  # left edges this close but not equal are meant to line up and do not
MAX_LISTED = 3
SELECTOR_CHARS = 60

COLOUR_PROPERTIES = ("color", "background-color", "border-color")
SPACING_PROPERTIES = ("margin", "padding", "gap")


def _offences(
    ctx: MetricContext, properties: Sequence[str]
) -> tuple[list[Finding], int, dict[str, Any]]:
    """The gate's findings, how many values it checked, and what it said of charts (SVG
    marks, legends, canvas charts; empty when no colour was checked)."""
    settings = ctx.config.gates.token_compliance
    outcome = check_token_compliance(
        ctx.probe,
        ctx.tokens,
        ctx.appearance,
        properties=properties,
        allow=settings.allow,
        delta_e=settings.delta_e,
        max_findings=None,  # every offence is weighed, not only those a gate report lists
        graphics=ctx.graphics,
        series=ctx.chart_series,
        load_render=ctx.render_image,
    )
    charts = outcome.data.get("charts")
    return (
        list(outcome.findings),
        int(outcome.data.get("checked", 0)),
        charts if isinstance(charts, dict) else {},
    )


def _first(items: Sequence[str]) -> str:
    """The first MAX_LISTED items, and how many more there are."""
    more = len(items) - MAX_LISTED
    return "; ".join(items[:MAX_LISTED]) + (f" and {more} more" if more > 0 else "")


def _listed(findings: Sequence[Finding]) -> str:
    return _first(
        [
            f"{clip(f.element, SELECTOR_CHARS)} {f.property} {f.value} (nearest {f.expected})"
            for f in findings
        ]
    )


def _score(findings: Sequence[Finding], near: Callable[[Finding], bool]) -> float:
    if not findings:
        return 1
    return 0.5 if all(near(f) for f in findings) else 0


def _near_colour(ctx: MetricContext) -> Callable[[Finding], bool]:
    """A near miss for a colour finding; any other kind of finding is read as its own kind
    (a radius against the radius scale), never parsed as a colour."""
    near_radius = _near_length(ctx.tokens.nearest_radius, NEAR_PX)

    def near(finding: Finding) -> bool:
        if finding.property not in COLOR_PROPS | CHART_COLOUR_PROPS:
            return near_radius(finding)  # a legend swatch naming the wrong colour is never near
        # The gate parsed this value to find it off the palette: it is a colour.
        value = parse_color(finding.value)
        if finding.property in CHART_COLOUR_PROPS:
            # Near the colour the gate expected ("name #hex"): the series' own token when the
            # spec maps one, which the nearest palette colour may not be.
            try:
                wanted = parse_color(finding.expected.split()[-1])
            except (InputError, IndexError):
                return False
            return _rendered_distance(value, wanted) <= NEAR_DELTA_E
        nearest = ctx.tokens.nearest_color(value, ctx.appearance)
        return nearest is not None and nearest[1] <= NEAR_DELTA_E

    return near


def _near_length(
    lookup: Callable[[float], tuple[str, float] | None], slack: float
) -> Callable[[Finding], bool]:
    def near(finding: Finding) -> bool:
        # A shorthand such as a radius "6px 8px" is near only when every part is.
        parts = [parse_px(part) for part in finding.value.replace("/", " ").split()]
        if not parts or any(px is None for px in parts):
            return False
        nearest = [lookup(abs(px)) for px in parts if px is not None]
        return all(n is not None and n[1] <= slack for n in nearest)

    return near


def _token_appearances(ctx: MetricContext, name: str) -> tuple[str, ...]:
    role = ctx.tokens.color_roles.get(name)
    if role is not None and role.appearances:
        return role.appearances
    values = ctx.tokens.colors.get(name, {})
    if ALL_APPEARANCES in values:  # one value for all: its name may still say which
        inferred = inferred_appearance(name, ctx.tokens.appearances)
        return (inferred,) if inferred else ()
    return ()


def colour_role_findings(ctx: MetricContext) -> list[str]:
    """On-palette colours shown where their tokens' roles say they do not belong: outside the
    places a token is ``only`` for, or in an appearance it is not for."""
    tokens = ctx.tokens
    restricted = {
        name
        for name in tokens.colors
        if name in tokens.color_roles or _token_appearances(ctx, name)
    }
    if not restricted:
        return []
    places: dict[str, set[int]] = {}
    role_names: dict[str, set[str]] = {}
    for name, role in tokens.color_roles.items():
        selectors = [s for s in role.only if not s.startswith("role=")]
        hits, _ = (
            select_elements(selectors, ctx.probe_raw, "color_roles") if selectors else ([], ())
        )
        places[name] = {int(h["index"]) for h in hits if isinstance(h.get("index"), int)}
        role_names[name] = {s.removeprefix("role=") for s in role.only if s.startswith("role=")}
    palette = tokens.palette(ctx.appearance)
    delta_e = ctx.config.gates.token_compliance.delta_e
    out: list[str] = []
    for node in ctx.nodes:
        element = node.element
        if not node.shown:
            continue
        for prop in _shown_colour_properties(element):
            try:
                colour = parse_color(element.style.get(prop, ""))
            except InputError:
                continue
            if colour.a <= 0:
                continue
            candidates = [n for n, c in palette.items() if _rendered_distance(colour, c) <= delta_e]
            if not candidates or not set(candidates) <= restricted:
                continue
            reasons = [_misplaced(ctx, n, node, places, role_names) for n in candidates]
            if all(reasons):
                where = clip(ctx.probe.selector(element), SELECTOR_CHARS)
                out.append(f"{where} {prop} is {candidates[0]}, {reasons[0]}")
    return out


def _shown_colour_properties(element: Element) -> list[str]:
    props = ["color"] if element.has_text else []
    props.append("background-color")
    for side in ("top", "right", "bottom", "left"):
        width = element.px(f"border-{side}-width")
        if width is not None and width > 0:
            props.append(f"border-{side}-color")
    return props


def _misplaced(
    ctx: MetricContext,
    name: str,
    node: Node,
    places: dict[str, set[int]],
    role_names: dict[str, set[str]],
) -> str:
    """Why the token does not belong here ("" when it does)."""
    appearances = _token_appearances(ctx, name)
    if appearances and ctx.appearance not in appearances:
        return f"a {'/'.join(appearances)}-only token, in a {ctx.appearance} view"
    role = ctx.tokens.color_roles.get(name)
    if role is None or not role.only:
        return ""
    lineage = [node.element, *ctx.probe.ancestors(node.element)]
    if any(e.index in places.get(name, set()) for e in lineage):
        return ""
    wanted = role_names.get(name, set())
    if wanted and any(ctx.nodes[e.index].role in wanted for e in lineage):
        return ""
    return f"which the tokens keep for {', '.join(role.only)}"


def token_compliance(ctx: MetricContext) -> Measured:
    properties = COLOUR_PROPERTIES + (("border-radius",) if ctx.tokens.radii else ())
    findings, checked, charts = _offences(ctx, properties)
    misplaced = colour_role_findings(ctx)
    numbers: dict[str, Any] = {
        "checked": checked,
        "off_token": len(findings),
        "colour_roles": len(ctx.tokens.color_roles),
        "off_role": len(misplaced),
        "chart_paints": int(charts.get("marks_checked", 0)),
        "canvas_colours": int(charts.get("canvas_colours", 0)),
        "legend_mismatches": sum(1 for f in findings if f.property == "legend swatch"),
        "chart_unmeasured": int(charts.get("unmeasured", 0)),
    }
    what = f"rendered colour{' and radius' if ctx.tokens.radii else ''}"
    if numbers["chart_paints"] or numbers["canvas_colours"]:
        what += " (chart marks and canvases included)"
    unmeasured = _chart_unmeasured(charts)
    if misplaced:
        parts = [
            f"{len(misplaced)} colour(s) shown outside their token's role: {_first(misplaced)}"
        ]
        if findings:
            parts.append(f"also {len(findings)} value(s) off the tokens: {_listed(findings)}")
        return Measured(0, "; ".join(parts) + "." + unmeasured, numbers)
    if not findings:
        return Measured(
            1, f"All {checked} {what} values are {ctx.appearance} tokens.{unmeasured}", numbers
        )
    return Measured(
        _score(findings, _near_colour(ctx)),
        f"{len(findings)} of {checked} {what} values are off the {ctx.appearance} tokens: "
        f"{_listed(findings)}.{unmeasured}",
        numbers,
    )


def _chart_unmeasured(charts: dict[str, Any]) -> str:
    """A sentence on the chart colours nobody could measure ("" when there are none)."""
    count = int(charts.get("unmeasured", 0))
    if not count:
        return ""
    listed = [str(item) for item in charts.get("unmeasured_listed", [])]
    return f" {count} chart colour(s) not measured: {_first([clip(i, 120) for i in listed])}."


def _stacked_siblings(nodes: Sequence[Node]) -> list[tuple[Element, Element]]:
    """Pairs of shown siblings placed one under the other (a vertical stack)."""
    children: dict[int, list[Element]] = {}
    for node in nodes:
        e = node.element
        if node.shown and e.parent is not None:
            children.setdefault(e.parent, []).append(e)
    pairs = []
    for kids in children.values():
        kids = sorted(kids, key=lambda e: e.box.y)
        for upper, lower in itertools.pairwise(kids):
            if lower.box.y >= upper.box.y + upper.box.height - 0.5:
                pairs.append((upper, lower))
    return pairs


def layout_spacing(ctx: MetricContext) -> Measured:
    findings, checked, _ = _offences(ctx, SPACING_PROPERTIES)
    pairs = _stacked_siblings(ctx.nodes)
    misaligned = [(a, b) for a, b in pairs if 0.5 < abs(a.box.x - b.box.x) <= ALIGN_SLOP]
    numbers: dict[str, Any] = {
        "checked": checked,
        "off_scale": len(findings),
        "stacked_pairs": len(pairs),
        "misaligned_pairs": len(misaligned),
    }
    if not findings and not misaligned:
        return Measured(
            1,
            f"All {checked} margins, paddings and gaps are on the spacing scale and the "
            f"{len(pairs)} stacked sibling pairs line up.",
            numbers,
        )
    parts = []
    if findings:
        parts.append(f"{len(findings)} spacing values off the scale: {_listed(findings)}")
    if misaligned:
        a, b = misaligned[0]
        parts.append(
            f"{len(misaligned)} stacked sibling pair(s) almost but not quite aligned, e.g. "
            f"{clip(ctx.probe.selector(a), SELECTOR_CHARS)} and "
            f"{clip(ctx.probe.selector(b), SELECTOR_CHARS)} at x {a.box.x:g} and {b.box.x:g}"
        )
    # Edges a few px out of line are a near miss by definition (0.5), and any value off the
    # scale already scores 0.5 at best, so the values decide when there are any.
    score = _score(findings, _near_length(ctx.tokens.nearest_spacing, NEAR_PX)) if findings else 0.5
    return Measured(score, "; ".join(parts) + ".", numbers)


def _families(value: str) -> list[str]:
    return [part.strip().strip("'\"").lower() for part in value.split(",") if part.strip()]


_NUMERIC_TEXT = re.compile(r"^[\s\d.,:%+\-−/×$€£¥]*\d[\s\d.,:%+\-−/×$€£¥]*$")


def _text_kind(node: Node) -> str:
    if node.role == "heading":
        return "heading"
    return "numeric" if _NUMERIC_TEXT.match(node.element.text) else "body"


def _style_numbers(element: Element) -> tuple[float | None, float | None, float | None, float]:
    size = element.px("font-size")
    try:
        weight: float | None = float(element.style.get("font-weight", ""))
    except ValueError:
        weight = None
    line = element.px("line-height")  # None for "normal": not held to a role
    spacing = element.px("letter-spacing") or 0.0  # "normal" is 0
    return size, weight, line, spacing


def type_role_findings(ctx: MetricContext, texts: Sequence[Node]) -> list[str]:
    """Text whose size, weight, line height and letter spacing match no type role, or only
    roles of another kind than the element's (a heading set as body text)."""
    roles = list(ctx.tokens.type_roles.values())
    if not roles:
        return []
    kinds = {r.kind for r in roles}
    out: list[str] = []
    for node in texts:
        size, weight, line, spacing = _style_numbers(node.element)
        nearest = ctx.tokens.nearest_type_size(size) if size is not None else None
        if size is None or (nearest is not None and nearest[1] > PX_TOLERANCE):
            continue  # an off-scale size is the scale's finding, not charged twice
        matched = [r for r in roles if r.matches(size, weight, line, spacing)]
        where = clip(ctx.probe.selector(node.element), SELECTOR_CHARS)
        shown = f"{size:g}px weight {weight:g}" if weight is not None else f"{size:g}px"
        if line is not None:
            shown += f" line height {line:g}px"
        if spacing:
            shown += f" letter spacing {spacing:g}px"
        if not matched:
            same_size = [r.describe() for r in roles if abs(r.size - size) <= 0.05][:2]
            hint = f"; roles at this size: {', '.join(same_size)}" if same_size else ""
            out.append(f"{where} is set {shown}, which is no type role{hint}")
            continue
        kind = _text_kind(node)
        if kind in kinds and kind != "body" and all(r.kind != kind for r in matched):
            out.append(
                f"{where} is {kind} text set as {matched[0].describe()}, a {matched[0].kind} role"
            )
    return out


def truncation_findings(ctx: MetricContext, texts: Sequence[Node]) -> list[str]:
    """Text cut short by overflow or line clamping where the spec does not allow it."""
    selectors = ctx.contract.get("allow_truncation") or []
    allowed: set[int] = set()
    if selectors:
        hits, _ = select_elements(selectors, ctx.probe_raw, "allow_truncation")
        allowed = {int(h["index"]) for h in hits if isinstance(h.get("index"), int)}
    out = []
    for node in texts:
        if not node.truncated:
            continue
        element = node.element
        lineage = {element.index} | {a.index for a in ctx.probe.ancestors(element)}
        if lineage & allowed:
            continue
        where = clip(ctx.probe.selector(element), SELECTOR_CHARS)
        out.append(f"the text of {where} is cut short ({node.truncated})")
    return out


def typography(ctx: MetricContext) -> Measured:
    findings, checked, _ = _offences(ctx, ("font-size",))
    allowed = {f for stack in ctx.tokens.font_families.values() for f in _families(stack)[:1]}
    shown_text = [n for n in ctx.nodes if n.shown and n.element.has_text]
    # An element whose probe carries no font-family cannot be judged on it (not a miss).
    texts = [n.element for n in shown_text if n.element.style.get("font-family", "").strip()]
    off_family = [
        e
        for e in texts
        if allowed and (_families(e.style.get("font-family", "")) or [""])[0] not in allowed
    ]
    off_role = type_role_findings(ctx, shown_text)
    truncated = truncation_findings(ctx, shown_text)
    numbers: dict[str, Any] = {
        "checked": checked,
        "off_scale": len(findings),
        "families_checked": len(texts) if allowed else 0,
        "off_family": len(off_family),
        "type_roles": len(ctx.tokens.type_roles),
        "off_role": len(off_role),
        "truncated": len(truncated),
    }
    family_note = (
        "" if allowed else " (the tokens name no font family, so families were not checked)"
    )
    role_note = (
        f"; every text style is one of the {len(ctx.tokens.type_roles)} type roles"
        if ctx.tokens.type_roles
        else " (the tokens give sizes only, so weights and line heights were not checked)"
    )
    if not findings and not off_family and not off_role and not truncated:
        return Measured(
            1,
            f"All {checked} text sizes are on the type scale"
            f"{family_note or ' and every family is a token family'}{role_note}; no text is "
            "cut short.",
            numbers,
        )
    parts = []
    if findings:
        parts.append(f"{len(findings)} text sizes off the type scale: {_listed(findings)}")
    if off_family:
        parts.append(
            f"{len(off_family)} text element(s) set in a family the tokens do not name, e.g. "
            f"{clip(ctx.probe.selector(off_family[0]), SELECTOR_CHARS)}"
        )
    if off_role:
        parts.append(f"{len(off_role)} text style(s) off the type roles: {_first(off_role)}")
    if truncated:
        parts.append(
            f"{len(truncated)} text(s) truncated where the spec allows none: {_first(truncated)}"
        )
    score = (
        0
        if off_family or off_role or truncated
        else _score(findings, _near_length(ctx.tokens.nearest_type_size, NEAR_TYPE_PX))
    )
    return Measured(score, "; ".join(parts) + "." + family_note, numbers)
