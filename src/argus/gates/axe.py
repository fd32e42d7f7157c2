"""axe: the axe-core audit the sensor ran on the live page (axe.json), judged here.

Selected rules are those with one of the configured WCAG tags, plus the best-practice rules
Argus treats as defects in any product UI (``best_practice_rules``, docs/gates.md says why
each). A WCAG-tagged violation at or above the impact floor (default ``serious``) fails; a
violation of one of those best-practice rules fails at any impact (axe files them as minor or
moderate, but each one leaves a screen-reader or keyboard user stuck).

``incomplete`` results (axe could not decide) are never dropped: each node is a finding for
the judge or a person to look at (``axe-review:<rule>``), and the summary counts them. They
neither fail nor pass the gate. Contrast ones are decided from the render by
rendered_contrast when that gate runs, and are then only counted.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from argus.config import DEFAULT_BEST_PRACTICE_RULES, AxeConfig
from argus.errors import InputError
from argus.gates._registry import register_gate
from argus.gates.base import Finding, GateInputs, GateOutcome, GateStatus

IMPACT_ORDER = ("minor", "moderate", "serious", "critical")
# Selectors come from the page's own markup: keep them short.
MAX_SELECTOR_CHARS = 120
MAX_FINDINGS = 50
# Incomplete axe rules another gate decides from the render, and that gate's name.
DECIDED_BY_RENDER = {
    "color-contrast": "rendered_contrast",
    "color-contrast-enhanced": "rendered_contrast",
}


def check_axe(
    axe: Mapping[str, Any],
    *,
    tags: Sequence[str] = (),
    impact_floor: str = "serious",
    disable_rules: Sequence[str] = (),
    best_practice_rules: Sequence[str] = DEFAULT_BEST_PRACTICE_RULES,
    decided_elsewhere: Mapping[str, str] | None = None,
) -> GateOutcome:
    """Fail on selected axe violations; list what axe left incomplete for review.

    ``decided_elsewhere`` maps incomplete rule ids to the gate that decides them (they are
    counted, not listed).
    """
    if impact_floor not in IMPACT_ORDER:
        raise InputError(
            f"axe impact floor {impact_floor!r} is not one of {', '.join(IMPACT_ORDER)}"
        )
    floor = IMPACT_ORDER.index(impact_floor)
    elsewhere = decided_elsewhere or {}
    if axe.get("timed_out") is not None:
        # Stopped before it finished: whatever it found so far is not an audit of the page.
        return GateOutcome(
            "axe",
            GateStatus.ERROR,
            f"axe did not finish within {axe.get('timeout_s')} s; scope it with [gates.axe] "
            "include/exclude or raise [gates.axe] timeout",
            data={"timed_out": True},
        )

    def selected(rule: Mapping[str, Any]) -> bool:
        return _selected(rule, tags, disable_rules) or _best_practice(
            rule, best_practice_rules, disable_rules
        )

    def fails(rule: Mapping[str, Any]) -> bool:
        return _impact_rank(rule) >= floor or _best_practice(
            rule, best_practice_rules, disable_rules
        )

    violations = _rules(axe, "violations")
    incomplete = [r for r in _rules(axe, "incomplete") if selected(r)]
    chosen = [r for r in violations if selected(r)]
    failing = [r for r in chosen if fails(r)]
    below = [r for r in chosen if not fails(r)]
    review = [r for r in incomplete if r.get("id") not in elsewhere]
    delegated = [r for r in incomplete if r.get("id") in elsewhere]

    findings: list[Finding] = []
    for rule in failing:
        expected = (
            "no violation (a best-practice rule Argus treats as a defect)"
            if _best_practice(rule, best_practice_rules, disable_rules)
            else f"no {impact_floor}+ violation"
        )
        for target in _targets(rule):
            findings.append(
                Finding(
                    element=target,
                    property=f"axe:{rule.get('id', '?')}",
                    value=str(rule.get("impact") or "unknown"),
                    expected=expected,
                    message=_short(str(rule.get("help") or rule.get("description") or "")),
                )
            )
    failed_findings = len(findings)
    for rule in review:
        for target in _targets(rule):
            findings.append(
                Finding(
                    element=target,
                    property=f"axe-review:{rule.get('id', '?')}",
                    value="incomplete",
                    expected="decided by the judge or a person (axe could not tell)",
                    message=_short(str(rule.get("help") or rule.get("description") or "")),
                )
            )
    review_nodes = sum(_node_count(r) for r in review)
    data = {
        "violations": {str(r.get("id", "?")): _node_count(r) for r in failing},
        "below_floor": {str(r.get("id", "?")): _node_count(r) for r in below},
        "incomplete": {str(r.get("id", "?")): _node_count(r) for r in incomplete},
        "needs_review": {str(r.get("id", "?")): _node_count(r) for r in review},
        "decided_by": {str(r.get("id", "?")): elsewhere[str(r.get("id"))] for r in delegated},
        "passes": _count(axe.get("passes")),
        "impact_floor": impact_floor,
        "best_practice_rules": list(best_practice_rules),
        "findings_total": failed_findings,
    }
    nodes = sum(_node_count(r) for r in failing)
    summary = (
        f"{len(failing)} rule(s) failing on {nodes} element(s); "
        f"{len(below)} below the floor; {review_nodes} incomplete node(s) for review"
    )
    if delegated:
        summary += f" ({sum(_node_count(r) for r in delegated)} more left to rendered_contrast)"
    sampled = axe.get("sampled")
    if isinstance(sampled, Mapping):
        # A huge page: axe checked the probe's sample (sample.js), and says so.
        data["sampled"] = dict(sampled)
        summary += (
            f"; checked a sample of a huge page ({sampled.get('kept')} of "
            f"{sampled.get('total')} elements, docs/sense.md)"
        )
    status = GateStatus.FAIL if failing else GateStatus.PASS
    # Failures first, then review items; both capped.
    kept = findings[: min(failed_findings, MAX_FINDINGS)]
    kept += findings[failed_findings:][: max(0, MAX_FINDINGS - len(kept))]
    return GateOutcome("axe", status, summary, tuple(kept), data)


def _best_practice(rule: Mapping[str, Any], rules: Sequence[str], disabled: Sequence[str]) -> bool:
    rule_id = rule.get("id")
    return rule_id in rules and rule_id not in disabled


def _rules(axe: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
    if key == "violations" and key not in axe:
        # An audit without its violations list is no audit: it must not read as a clean one.
        raise InputError(
            "axe.json: no 'violations' list, so nothing was audited; re-sense the view"
        )
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


def axe_gate(inputs: GateInputs) -> GateOutcome:
    if inputs.spec.adapter != "web" and not inputs.sensed.axe.is_file():
        return GateOutcome(
            "axe", GateStatus.SKIP, f"no axe audit for adapter {inputs.spec.adapter!r}"
        )
    settings = inputs.config.gates.axe
    enabled = inputs.config.gates.for_target(inputs.target.gates)
    return check_axe(
        inputs.axe,
        tags=settings.tags,
        impact_floor=settings.impact_floor,
        disable_rules=settings.disable_rules,
        best_practice_rules=settings.best_practice_rules,
        decided_elsewhere={
            rule: gate for rule, gate in DECIDED_BY_RENDER.items() if gate in enabled
        },
    )


# Registered by a call, not a decorator, so that mutation testing (mutmut skips decorated
# functions) reaches the gate's body.
register_gate("axe", wcag="WCAG 2.x A and AA rules (axe-core)", settings=AxeConfig)(axe_gate)
