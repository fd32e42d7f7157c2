"""accessibility: the id contract, labelled controls, axe, and the contrast of rendered text.

- ids: every id of the spec's a11y contract is exposed (the a11y_ids gate's own check);
- names: every shown interactive element has a non-empty accessible name;
- axe: no violation at or above the configured impact floor (default serious) in axe.json,
  when the sensor ran axe (its absence is said, not counted as a pass of axe); for a spec whose
  adapter is not ``web`` (a terminal or native UI: no markup for axe to read) it does not
  apply, and the other checks measure the dimension;
- contrast: every visible text element meets WCAG AA against what is behind it (the
  rendered_contrast gate's own measurement);
- target size: WCAG 2.5.8 from the probe's boxes (axe leaves it incomplete): a control under
  24x24 CSS px needs a 24 px circle around it clear of the other targets;
- focus visible: WCAG 2.4.7 from the sensor's focus walk (the focus_visible gate's own check),
  whatever the project's gate list says.

1 when every check passes, 0 when any fails: an unlabelled button or a missing id is not
half-accessible. Without axe's results (the sensor ran no axe audit, or axe stopped at its
timeout), without a focus walk, or with text whose contrast could not be measured (over an
image, outside the render),
a page whose other checks pass is only partly measured, so the dimension abstains (unverified)
rather than pass.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from argus.evidence.content import clip
from argus.gates.a11y_ids import check_a11y_ids
from argus.gates.axe import check_axe
from argus.gates.base import Finding, GateStatus
from argus.gates.focus_visible import check_focus_visible
from argus.gates.rendered_contrast import check_rendered_contrast
from argus.judge.metric._context import Measured, MetricContext, Node

SELECTOR_CHARS = 60
TARGET_PX = 24.0  # WCAG 2.5.8 Target Size (Minimum), AA
# Landmarks a page makes focusable (a skip link's target, a scrolling <main> given tabindex so
# the keyboard can scroll it, as Streamlit does): their role is what a screen reader announces,
# and one of a kind needs no name, so they are not unnamed controls.
LANDMARK_ROLES = frozenset({"main", "banner", "contentinfo", "navigation", "complementary"})


def undersized_targets(ctx: MetricContext, controls: list[Node]) -> list[str]:
    """WCAG 2.5.8 from the probe's boxes: a target smaller than 24x24 CSS px passes only when
    a 24 px circle centred on it meets no other target and no other undersized target's
    circle. Inline links (a link inside a line of text) are the criterion's exception."""
    boxes = [(n, n.element.box) for n in controls if not _inline_link(ctx, n)]
    small = [(n, b) for n, b in boxes if b.width < TARGET_PX or b.height < TARGET_PX]
    radius = TARGET_PX / 2
    out = []
    for node, box in small:
        cx, cy = box.x + box.width / 2, box.y + box.height / 2
        crowded = False
        for other, obox in boxes:
            if other is node:
                continue
            # The circle meets the other box: the nearest point of the box is within the radius.
            nx = min(max(cx, obox.x), obox.x + obox.width)
            ny = min(max(cy, obox.y), obox.y + obox.height)
            if math.hypot(nx - cx, ny - cy) < radius:
                crowded = True
                break
            if obox.width < TARGET_PX or obox.height < TARGET_PX:
                ox, oy = obox.x + obox.width / 2, obox.y + obox.height / 2
                if math.hypot(ox - cx, oy - cy) < 2 * radius:
                    crowded = True
                    break
        if crowded:
            out.append(clip(ctx.probe.selector(node.element), SELECTOR_CHARS))
    return out


def _inline_link(ctx: MetricContext, node: Node) -> bool:
    parent = node.element.parent
    return node.role == "link" and parent is not None and ctx.probe.elements[parent].has_text


@dataclass(frozen=True)
class _Audit:
    """axe's part of the dimension: its numbers, what ran, a failure, what it left unmeasured."""

    numbers: dict[str, Any] | None
    ran: str
    failure: str | None = None
    unmeasured: str | None = None


def _axe_audit(ctx: MetricContext) -> _Audit:
    """axe.json read under the axe gate's settings. No audit, or one that did not finish, is
    not a clean audit: the dimension cannot pass on it."""
    axe = ctx.optional_json("axe")
    if axe is None and ctx.adapter != "web":
        # axe audits a web page's markup; a terminal or native UI has none for it to read.
        # What of WCAG its probe does carry (ids, names, targets, contrast, focus) is
        # measured below all the same.
        return _Audit(
            {"applies": False, "adapter": ctx.adapter},
            f"axe not applicable (the '{ctx.adapter}' adapter renders no web page)",
        )
    if axe is None:
        return _Audit(
            None,
            "axe not run by the sensor",
            unmeasured="no axe audit of the page (enable the axe gate so the sensor runs it)",
        )
    settings = ctx.config.gates.axe
    floor = settings.impact_floor
    outcome = check_axe(
        axe,
        tags=settings.tags,
        impact_floor=floor,
        disable_rules=settings.disable_rules,
        best_practice_rules=settings.best_practice_rules,
    )
    if outcome.status is GateStatus.ERROR:
        # axe stopped before it finished: what it found so far is no audit of the page.
        return _Audit(
            {"timed_out": True, "impact_floor": floor},
            "axe did not finish",
            unmeasured=f"no finished axe audit ({outcome.summary})",
        )
    violations = dict(outcome.data.get("violations", {}))
    failure = None
    if violations:
        rules = ", ".join(f"{rule} ×{count}" for rule, count in sorted(violations.items()))
        failure = f"axe {floor}+ violations: {rules}"
    return _Audit(
        {"violations": violations, "impact_floor": floor},
        f"axe: {sum(violations.values())} {floor}+ violation node(s)",
        failure,
    )


def _focus_visibility(ctx: MetricContext) -> _Audit:
    """The sensor's focus walk (focus.json) read by the focus_visible gate's own check, so
    every focus ring removed counts here whether or not the gate is in the project's list.
    No walk is not a visible focus: the dimension cannot pass on it."""
    walk = ctx.optional_json("focus")
    if walk is None:
        return _Audit(
            None,
            "focus not walked",
            unmeasured="the keyboard focus indicator (the sensor wrote no focus.json; re-sense)",
        )
    outcome = check_focus_visible(walk, str(ctx.packet.require("focus")))
    numbers = dict(outcome.data)
    if outcome.status is GateStatus.SKIP:
        if not numbers.get("stops"):
            return _Audit(numbers, "no element takes the keyboard focus")
        return _Audit(
            numbers,
            "focus indicator not compared",
            unmeasured="the keyboard focus indicator (no focus stop was on screen)",
        )
    invisible = [f.element for f in outcome.findings]
    failure = None
    if invisible:
        where = ", ".join(clip(e, SELECTOR_CHARS) for e in invisible[:3])
        failure = (
            f"{numbers.get('invisible')} focus stop(s) show no sign of the keyboard focus "
            f"(WCAG 2.4.7: {where})"
        )
    return _Audit(numbers, outcome.summary, failure)


def accessibility(ctx: MetricContext) -> Measured:
    numbers: dict[str, Any] = {}
    failures: list[str] = []
    ran: list[str] = []

    contract = [str(i) for i in ctx.contract.get("a11y_contract") or []]
    ids = check_a11y_ids(ctx.probe_raw, contract)
    missing = list(ids.data.get("missing", []))
    numbers["ids"] = {"expected": ids.data.get("expected"), "missing": missing}
    ran.append(f"{len(contract) - len(missing)}/{len(contract)} contract ids present")
    if missing:
        failures.append(f"contract id(s) missing: {', '.join(missing)}")

    controls = [n for n in ctx.nodes if n.shown and n.interactive]
    unnamed = [n for n in controls if not n.name.strip() and n.role not in LANDMARK_ROLES]
    numbers["controls"] = len(controls)
    numbers["unnamed_controls"] = len(unnamed)
    ran.append(f"{len(controls) - len(unnamed)}/{len(controls)} controls named")
    if unnamed:
        where = ", ".join(clip(ctx.probe.selector(n.element), SELECTOR_CHARS) for n in unnamed[:3])
        failures.append(f"{len(unnamed)} control(s) without an accessible name ({where})")

    small = undersized_targets(ctx, controls)
    numbers["targets"] = {"checked": len(controls), "undersized": len(small)}
    ran.append(f"{len(controls) - len(small)}/{len(controls)} targets 24x24 or spaced")
    if small:
        failures.append(
            f"{len(small)} target(s) under {TARGET_PX:g}x{TARGET_PX:g} px without the spacing "
            f"WCAG 2.5.8 asks for ({', '.join(small[:3])})"
        )

    audit = _axe_audit(ctx)
    numbers["axe"] = audit.numbers
    ran.append(audit.ran)
    failures += [audit.failure] if audit.failure else []
    unmeasured = [audit.unmeasured] if audit.unmeasured else []

    contrast = check_rendered_contrast(
        ctx.probe, ctx.packet.require("render"), graphics=ctx.graphics
    )
    low = int(contrast.data.get("failed", 0))
    unknown = int(contrast.data.get("not_measurable", 0))
    numbers["contrast"] = {
        "checked": contrast.data.get("checked"),
        "below_aa": low,
        "not_measurable": unknown,
        "worst_ratio": contrast.data.get("worst_ratio"),
    }
    ran.append(f"text contrast worst {contrast.data.get('worst_ratio')}:1")
    in_charts = int(contrast.data.get("chart_failed", 0))
    numbers["contrast"]["in_charts"] = in_charts
    if low:
        failures.append(
            f"{low} text element(s) or chart mark(s) below their WCAG contrast minimum "
            f"(worst {contrast.data.get('worst_ratio')}:1"
            + (
                f"; {in_charts} in charts: {_chart_failures(contrast.findings)}"
                if in_charts
                else ""
            )
            + ")"
        )

    focus = _focus_visibility(ctx)
    numbers["focus_visible"] = focus.numbers
    ran.append(focus.ran)
    failures += [focus.failure] if focus.failure else []
    unmeasured += [focus.unmeasured] if focus.unmeasured else []

    if unknown:
        unmeasured.append(
            f"the contrast of {unknown} text element(s) (over an image, not rendered)"
        )

    if failures:
        return Measured(0, "; ".join(failures) + ".", numbers)
    if unmeasured:
        return Measured.abstain(
            "Measured only in part: "
            + "; ".join(ran)
            + ". Not measured: "
            + "; ".join(unmeasured)
            + ". Accessibility is not passed on what was not measured.",
            **numbers,
        )
    return Measured(1, "Accessible: " + "; ".join(ran) + ".", numbers)


def _chart_failures(findings: tuple[Finding, ...]) -> str:
    """The first chart contrast findings, named (SVG text, marks, legend swatches)."""
    named = [
        f"{clip(f.element, 60)} {f.property.removeprefix('contrast ').strip('()')} {f.value}"
        for f in findings
        if f.property.startswith("contrast (")
        and f.value != "not measurable"
        and f.property not in ("contrast (value)", "contrast (placeholder)", "contrast (label)")
    ]
    return ", ".join(named[:3])
