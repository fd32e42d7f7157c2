from __future__ import annotations

import pytest

from argus.errors import InputError
from argus.gates.axe import check_axe
from argus.gates.base import GateStatus

WCAG = ["wcag2a", "wcag2aa"]


def rule(rule_id: str, impact: str | None, tags: list[str] | None = None, nodes: int = 1) -> dict:
    return {
        "id": rule_id,
        "impact": impact,
        "help": f"{rule_id} help",
        "tags": tags if tags is not None else ["wcag2a"],
        "nodes": [{"target": [f"#n{i}"], "impact": impact} for i in range(nodes)],
    }


def test_clean_audit_passes() -> None:
    outcome = check_axe({"violations": [], "incomplete": [], "passes": 40}, tags=WCAG)
    assert outcome.status is GateStatus.PASS
    assert outcome.data["passes"] == 40


def test_serious_violation_fails_naming_each_node() -> None:
    axe = {"violations": [rule("button-name", "critical", nodes=2)], "incomplete": []}
    outcome = check_axe(axe, tags=WCAG)
    assert outcome.status is GateStatus.FAIL
    assert [f.element for f in outcome.findings] == ["#n0", "#n1"]
    assert outcome.findings[0].property == "axe:button-name"
    assert outcome.data["violations"] == {"button-name": 2}


def test_violation_below_the_floor_passes_but_is_counted() -> None:
    axe = {"violations": [rule("region", "moderate")], "incomplete": []}
    outcome = check_axe(axe, tags=WCAG)
    assert outcome.status is GateStatus.PASS
    assert outcome.data["below_floor"] == {"region": 1}


def test_floor_is_configurable() -> None:
    axe = {"violations": [rule("region", "moderate")], "incomplete": []}
    assert check_axe(axe, tags=WCAG, impact_floor="moderate").status is GateStatus.FAIL
    serious = {"violations": [rule("color-contrast", "serious")], "incomplete": []}
    assert check_axe(serious, tags=WCAG, impact_floor="critical").status is GateStatus.PASS


def test_incomplete_is_listed_for_review_not_failed() -> None:
    axe = {"violations": [], "incomplete": [rule("color-contrast", "serious", nodes=3)]}
    outcome = check_axe(axe, tags=WCAG)
    assert outcome.status is GateStatus.PASS
    assert outcome.data["incomplete"] == {"color-contrast": 3}


def test_rules_outside_the_tags_and_disabled_rules_are_ignored() -> None:
    axe = {
        "violations": [
            rule("best-practice-only", "critical", tags=["best-practice"]),
            rule("color-contrast", "serious", tags=["wcag2aa"]),
        ],
        "incomplete": [],
    }
    assert check_axe(axe, tags=WCAG, disable_rules=["color-contrast"]).status is GateStatus.PASS
    assert check_axe(axe, tags=WCAG).status is GateStatus.FAIL
    assert check_axe(axe, tags=[], disable_rules=["color-contrast"]).status is GateStatus.FAIL


def test_unknown_impact_counts_as_the_worst() -> None:
    axe = {"violations": [rule("custom", None)], "incomplete": []}
    assert check_axe(axe, tags=WCAG).status is GateStatus.FAIL


@pytest.mark.parametrize("axe", [{"violations": {}}, {"violations": ["x"]}, {"incomplete": 3}])
def test_malformed_axe_json_is_an_input_error(axe: dict) -> None:
    with pytest.raises(InputError, match=r"axe\.json"):
        check_axe(axe)


def test_bad_floor_is_an_input_error() -> None:
    with pytest.raises(InputError, match="impact floor"):
        check_axe({"violations": []}, impact_floor="severe")
