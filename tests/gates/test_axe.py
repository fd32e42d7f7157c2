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


def test_incomplete_is_a_review_finding_never_a_failure() -> None:
    axe = {"violations": [], "incomplete": [rule("aria-valid-attr-value", "serious", nodes=2)]}
    outcome = check_axe(axe, tags=WCAG)
    assert outcome.status is GateStatus.PASS
    assert outcome.data["incomplete"] == {"aria-valid-attr-value": 2}
    assert outcome.data["needs_review"] == {"aria-valid-attr-value": 2}
    assert [(f.element, f.property, f.value) for f in outcome.findings] == [
        ("#n0", "axe-review:aria-valid-attr-value", "incomplete"),
        ("#n1", "axe-review:aria-valid-attr-value", "incomplete"),
    ]


def test_incomplete_contrast_is_left_to_the_gate_that_measures_the_render() -> None:
    axe = {"violations": [], "incomplete": [rule("color-contrast", "serious", nodes=3)]}
    outcome = check_axe(axe, tags=WCAG, decided_elsewhere={"color-contrast": "rendered_contrast"})
    assert outcome.status is GateStatus.PASS and outcome.findings == ()
    assert outcome.data["incomplete"] == {"color-contrast": 3}
    assert outcome.data["decided_by"] == {"color-contrast": "rendered_contrast"}
    # Without that gate nobody decides them: they are listed for review.
    alone = check_axe(axe, tags=WCAG)
    assert len(alone.findings) == 3 and alone.data["needs_review"] == {"color-contrast": 3}


BEST = ["best-practice"]


@pytest.mark.parametrize(
    ("rule_id", "impact", "status"),
    [
        # Default best-practice defects fail at any impact.
        ("empty-heading", "minor", GateStatus.FAIL),
        ("empty-table-header", "minor", GateStatus.FAIL),
        ("aria-dialog-name", "serious", GateStatus.FAIL),
        ("tabindex", "serious", GateStatus.FAIL),
        # Page-structure advice stays off for component views.
        ("region", "moderate", GateStatus.PASS),
        ("landmark-one-main", "moderate", GateStatus.PASS),
        ("page-has-heading-one", "moderate", GateStatus.PASS),
        ("heading-order", "moderate", GateStatus.PASS),
    ],
)
def test_default_best_practice_rules(rule_id: str, impact: str, status: GateStatus) -> None:
    axe = {"violations": [rule(rule_id, impact, tags=BEST)], "incomplete": []}
    outcome = check_axe(axe, tags=WCAG)
    assert outcome.status is status
    if status is GateStatus.FAIL:
        assert outcome.findings[0].property == f"axe:{rule_id}"


def test_best_practice_rules_are_configurable_and_can_be_disabled() -> None:
    axe = {"violations": [rule("empty-heading", "minor", tags=BEST)], "incomplete": []}
    assert check_axe(axe, tags=WCAG, best_practice_rules=[]).status is GateStatus.PASS
    disabled = check_axe(axe, tags=WCAG, disable_rules=["empty-heading"])
    assert disabled.status is GateStatus.PASS
    region = {"violations": [rule("region", "moderate", tags=BEST)], "incomplete": []}
    assert check_axe(region, tags=WCAG, best_practice_rules=["region"]).status is GateStatus.FAIL


def test_the_sensor_asks_axe_for_the_best_practice_rules_besides_the_tags() -> None:
    from argus.config import AxeConfig
    from argus.sense.axe import axe_options

    options = axe_options(AxeConfig(disable_rules=["tabindex"]))
    assert options["runOnly"] == {"type": "tag", "values": AxeConfig().tags}
    assert options["rules"]["empty-heading"] == {"enabled": True}
    assert options["rules"]["tabindex"] == {"enabled": False}
    assert "region" not in options["rules"]


def test_rules_outside_the_tags_and_disabled_rules_are_ignored() -> None:
    axe = {
        "violations": [
            rule("landmark-unique", "critical", tags=["best-practice"]),
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
