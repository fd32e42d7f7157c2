"""hierarchy: the page leads the eye in the order the spec means.

Checks, each pass or fail:
- one_h1: exactly one level-1 heading is shown;
- h1_largest: no shown text is set larger than it, figures aside: a KPI value, an amount, a
  date, a table cell is data, not a heading (argus.judge.metric.figures; the spec's
  ``hierarchy.headings`` and ``hierarchy.figures`` selectors say otherwise where needed);
- outline: heading levels start at 1 and never skip a level going down;
- primary_leads: the spec's primary action is shown with a fill of its own, and no other
  control carries more visual weight (box area × (fill contrast − 1), where fill contrast is
  the control's own background against what is behind it: a control without a fill weighs 0);
- primary_alone: no other control wears the primary action's treatment (the same fill colour),
  which would make several actions compete for first look.
Disabled controls (``disabled``, ``aria-disabled``, inside a disabled fieldset) are not
competing for prominence: they are left out, and a disabled primary action is only required
to be shown.

The primary action is the view's state's (``primary_actions`` in the spec), else the
target's (``primary_action``). 1 when all pass, 0.5 when exactly one fails (and it is neither
one_h1 nor the primary action missing), 0 otherwise. Without a declared primary action, a page
that has controls cannot be fully judged: the dimension abstains unless a heading check already
failed. A state the spec declares without one (``null``) is judged on its headings alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from argus.color import RGBA, composite, contrast_ratio, delta_e_2000, parse_color
from argus.gates.rendered_contrast import WHITE, layering
from argus.judge.metric._context import Measured, MetricContext, Node
from argus.judge.metric.figures import figures

SAME_TREATMENT_DELTA_E = 5.0


@dataclass(frozen=True)
class Fill:
    node: Node
    colour: RGBA | None  # None: no fill of its own
    contrast: float  # 1.0 without a fill

    @property
    def weight(self) -> float:
        box = self.node.element.box
        return box.width * box.height * (self.contrast - 1.0)


def _fill(ctx: MetricContext, node: Node) -> Fill:
    element = node.element
    own = parse_color(element.style.get("background-color", "rgba(0, 0, 0, 0)"))
    if own.a <= 0:
        return Fill(node, None, 1.0)
    canvas = ctx.probe.canvas or WHITE  # Chromium's canvas without a dark color-scheme
    parent = ctx.probe.elements[element.parent] if element.parent is not None else None
    behind = layering(ctx.probe, parent, canvas).background if parent else canvas
    shown = composite(own, behind)
    return Fill(node, shown, contrast_ratio(shown, behind))


def _font_size(node: Node) -> float:
    return node.element.px("font-size") or 0.0


def _primary(ctx: MetricContext, ident: str) -> Node | None:
    for node in ctx.nodes:
        if ident in (node.element.id, node.element.testid):
            return node
    return None


def hierarchy(ctx: MetricContext) -> Measured:
    shown = [n for n in ctx.nodes if n.shown]
    h1s = [n for n in shown if n.heading_level == 1]
    outline = [n.heading_level for n in ctx.nodes if n.element.visible and n.heading_level]
    texts = [n for n in shown if n.element.has_text]
    checks: dict[str, bool] = {"one_h1": len(h1s) == 1}
    numbers: dict[str, object] = {"h1_count": len(h1s), "heading_levels": outline}
    notes: list[str] = []
    if not checks["one_h1"]:
        notes.append(f"{len(h1s)} level-1 headings are shown (one expected)")
    data = figures(ctx)
    if data.unmatched:
        numbers["hierarchy_selectors_unmatched"] = list(data.unmatched)
    if h1s:
        top = max(_font_size(n) for n in h1s)
        # Figures (KPI values, amounts, dates, cells) lead as data, not as headings.
        others = [n for n in texts if n.heading_level != 1]
        figure = {id(ctx.nodes[i]) for i in data.indices}
        prose = [n for n in others if id(n) not in figure]
        larger = [n for n in prose if _font_size(n) > top]
        checks["h1_largest"] = not larger
        numbers["h1_px"] = top
        numbers["largest_other_px"] = max((_font_size(n) for n in prose), default=0.0)
        numbers["figures_larger_than_h1"] = sum(
            1 for n in others if id(n) in figure and _font_size(n) > top
        )
        if larger:
            notes.append(f"{len(larger)} text element(s) are set larger than the {top:g}px h1")
    skips = [(a, b) for a, b in zip([0, *outline], outline, strict=False) if b > a + 1]
    checks["outline"] = not skips
    if skips:
        a, b = skips[0]
        notes.append(f"the heading outline jumps from level {a or 'none'} to {b}")

    # A disabled control is not competing for prominence: it is left out of the contest.
    controls = [n for n in shown if n.interactive and not n.disabled]
    ident = ctx.contract.get("primary_action")
    numbers["controls"] = len(controls)
    none_here = ctx.contract.get("no_primary_action") is True
    if none_here:
        numbers["no_primary_action"] = True  # the spec: this state has none to lead with
    elif not ident:
        if all(checks.values()) and controls:
            return Measured.abstain(
                "The spec names no primary_action, so which of the page's "
                f"{len(controls)} controls should lead cannot be measured; headings are in order.",
                **numbers,
            )
    else:
        primary = _primary(ctx, str(ident))
        if primary is None or not primary.shown:
            checks["primary_leads"] = False
            notes.append(f"the primary action {ident!r} is not shown")
        elif primary.disabled:
            # A disabled primary action is muted on purpose: it leads nothing until enabled,
            # so neither its weight nor its (muted) fill is put against the other controls.
            numbers["primary_disabled"] = True
        else:
            fills = [_fill(ctx, n) for n in controls if n is not primary]
            own = _fill(ctx, primary)
            heavier = [f for f in fills if f.weight > own.weight]
            same = [
                f
                for f in fills
                if own.colour is not None
                and f.colour is not None
                and delta_e_2000(f.colour, own.colour) <= SAME_TREATMENT_DELTA_E
            ]
            checks["primary_leads"] = own.colour is not None and not heavier
            checks["primary_alone"] = not same
            numbers["primary_fill_contrast"] = round(own.contrast, 2)
            numbers["primary_weight"] = round(own.weight)
            numbers["heaviest_other_weight"] = round(max((f.weight for f in fills), default=0.0))
            numbers["controls_sharing_primary_fill"] = len(same)
            if own.colour is None:
                notes.append(f"the primary action {ident!r} has no fill of its own to lead with")
            elif heavier:
                notes.append(
                    f"{len(heavier)} other control(s) outweigh the primary action "
                    f"(area × fill contrast {numbers['heaviest_other_weight']} "
                    f"against {numbers['primary_weight']})"
                )
            if same:
                notes.append(
                    f"{len(same)} other control(s) wear the primary action's fill, "
                    "so actions compete"
                )

    failed = [name for name, ok in checks.items() if not ok]
    numbers["failed_checks"] = failed
    if not failed:
        lead = (
            "no primary action, as the spec declares for this state"
            if none_here
            else "the primary action is disabled, so it is not put against the other controls"
            if numbers.get("primary_disabled")
            else f"the primary action outweighs the other {len(controls) - 1} controls (area × "
            f"fill contrast {numbers.get('primary_weight')} against at most "
            f"{numbers.get('heaviest_other_weight')}) with no rival in its colour"
        )
        return Measured(
            1,
            f"One h1 ({numbers.get('h1_px', 0):g}px, the largest text), headings in order, and "
            f"{lead}.",
            numbers,
        )
    severe = {"one_h1"} | (
        {"primary_leads"}
        if "primary_leads" in failed and numbers.get("primary_fill_contrast") is None
        else set()
    )
    score = 0.5 if len(failed) == 1 and not severe & set(failed) else 0
    text = "; ".join(notes)
    return Measured(score, text[:1].upper() + text[1:] + ".", numbers)
