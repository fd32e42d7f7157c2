"""axe: the axe-core audit the sensor ran on the live page (axe.json), judged here.

A violation at or above the impact floor (default ``serious``) fails. ``incomplete`` results
(axe could not decide, e.g. text over a gradient) are listed for review, never failed and
never passed: rendered_contrast decides the contrast ones from the render.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from argus.errors import InputError
from argus.gates.base import Finding, GateInputs, GateOutcome, GateStatus, register_gate

IMPACT_ORDER = ("minor", "moderate", "serious", "critical")
# Selectors come from the page's own markup: keep them short.
MAX_SELECTOR_CHARS = 120
MAX_FINDINGS = 50


def check_axe(
    axe: Mapping[str, Any],
    *,
    tags: Sequence[str] = (),
    impact_floor: str = "serious",
    disable_rules: Sequence[str] = (),
) -> GateOutcome:
    """Fail on axe violations at or above ``impact_floor`` among the rules ``tags`` select."""
    if impact_floor not in IMPACT_ORDER:
        raise InputError(
            f"axe impact floor {impact_floor!r} is not one of {', '.join(IMPACT_ORDER)}"
        )
    floor = IMPACT_ORDER.index(impact_floor)
    violations = _rules(axe, "violations")
    incomplete = _rules(axe, "incomplete")
    selected = [r for r in violations if _selected(r, tags, disable_rules)]
    failing = [r for r in selected if _impact_rank(r) >= floor]
    below = [r for r in selected if _impact_rank(r) < floor]
    review = [r for r in incomplete if _selected(r, tags, disable_rules)]

    findings: list[Finding] = []
    for rule in failing:
        for target in _targets(rule):
            findings.append(
                Finding(
                    element=target,
                    property=f"axe:{rule.get('id', '?')}",
                    value=str(rule.get("impact") or "unknown"),
                    expected=f"no {impact_floor}+ violation",
                    message=_short(str(rule.get("help") or rule.get("description") or "")),
                )
            )
    data = {
        "violations": {str(r.get("id", "?")): _node_count(r) for r in failing},
        "below_floor": {str(r.get("id", "?")): _node_count(r) for r in below},
        "incomplete": {str(r.get("id", "?")): _node_count(r) for r in review},
        "passes": _count(axe.get("passes")),
        "impact_floor": impact_floor,
        "findings_total": len(findings),
    }
    nodes = sum(_node_count(r) for r in failing)
    summary = (
        f"{len(failing)} rule(s) at {impact_floor}+ on {nodes} element(s); "
        f"{len(below)} below the floor; {len(review)} incomplete for review"
    )
    status = GateStatus.FAIL if failing else GateStatus.PASS
    return GateOutcome("axe", status, summary, tuple(findings[:MAX_FINDINGS]), data)


def _rules(axe: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
    rules = axe.get(key, [])
    if not isinstance(rules, list) or not all(isinstance(r, dict) for r in rules):
        raise InputError(f"axe.json: '{key}' must be a list of rule results; re-sense the view")
    return rules


def _selected(rule: Mapping[str, Any], tags: Sequence[str], disabled: Sequence[str]) -> bool:
    if rule.get("id") in disabled:
        return False
    rule_tags = rule.get("tags") or []
    return not tags or any(tag in rule_tags for tag in tags)


def _impact_rank(rule: Mapping[str, Any]) -> int:
    # A rule's impact is its worst node's; axe sets both, adapters may set only one.
    impacts = [rule.get("impact")] + [n.get("impact") for n in _nodes(rule)]
    ranks = [IMPACT_ORDER.index(i) for i in impacts if i in IMPACT_ORDER]
    # An unknown impact is not a reason to pass: treat it as the worst.
    return max(ranks) if ranks else len(IMPACT_ORDER) - 1


def _nodes(rule: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    nodes = rule.get("nodes") or []
    return [n for n in nodes if isinstance(n, dict)] if isinstance(nodes, list) else []


def _node_count(rule: Mapping[str, Any]) -> int:
    return len(_nodes(rule)) or 1


def _targets(rule: Mapping[str, Any]) -> list[str]:
    targets = [_selector(n.get("target")) for n in _nodes(rule)]
    return targets or ["page"]


def _selector(target: Any) -> str:
    parts: Iterable[Any] = target if isinstance(target, list) else [target]
    text = " ".join(_selector(p) if isinstance(p, list) else str(p) for p in parts if p)
    return _short(text or "page", MAX_SELECTOR_CHARS)


def _short(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _count(value: Any) -> int:
    if isinstance(value, list):
        return len(value)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


@register_gate("axe")
def axe_gate(inputs: GateInputs) -> GateOutcome:
    if inputs.spec.adapter != "web" and not inputs.sensed.axe.is_file():
        return GateOutcome(
            "axe", GateStatus.SKIP, f"no axe audit for adapter {inputs.spec.adapter!r}"
        )
    settings = inputs.config.gates.axe
    return check_axe(
        inputs.axe,
        tags=settings.tags,
        impact_floor=settings.impact_floor,
        disable_rules=settings.disable_rules,
    )
