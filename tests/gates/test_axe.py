from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from argus.errors import InputError
from argus.gates.axe import axe_gate, check_axe
from argus.gates.base import GateInputs, GateStatus

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


# --- the outcome in full: names, counts, findings, the timeout, sampling, the cap ---


def test_an_audit_that_timed_out_is_an_error_not_a_verdict() -> None:
    axe = {"timed_out": True, "timeout_s": 37, "violations": [rule("button-name", "critical")]}
    outcome = check_axe(axe, tags=WCAG)
    assert (outcome.name, outcome.status) == ("axe", GateStatus.ERROR)
    assert outcome.data == {"timed_out": True} and outcome.findings == ()
    assert "37" in outcome.summary
    # timed_out: null is a finished audit
    finished = check_axe({"timed_out": None, "violations": []}, tags=WCAG)
    assert (finished.name, finished.status) == ("axe", GateStatus.PASS)


def test_passes_are_counted_from_a_list_or_a_whole_number_only() -> None:
    def passes(value: object) -> object:
        return check_axe({"violations": [], "passes": value}, tags=WCAG).data["passes"]

    assert [passes([{}, {}, {}]), passes(7)] == [3, 7]
    for junk in (True, None, "12", 2.5):
        assert passes(junk) == 0 and passes(junk) is not True


def test_a_rule_is_as_bad_as_its_worst_node() -> None:
    worst_node = rule("button-name", "minor")
    worst_node["nodes"][0]["impact"] = "critical"
    assert check_axe({"violations": [worst_node]}, tags=WCAG).status is GateStatus.FAIL
    worst_rule = rule("button-name", "critical")
    worst_rule["nodes"][0]["impact"] = "minor"
    assert check_axe({"violations": [worst_rule]}, tags=WCAG).status is GateStatus.FAIL
    mild = rule("button-name", "minor")
    assert check_axe({"violations": [mild]}, tags=WCAG).status is GateStatus.PASS


def test_an_unknown_impact_fails_even_at_the_critical_floor() -> None:
    axe = {"violations": [rule("custom", None)]}
    outcome = check_axe(axe, tags=WCAG, impact_floor="critical")
    assert outcome.status is GateStatus.FAIL
    assert outcome.findings[0].value == "unknown"


def test_a_rule_without_nodes_or_targets_is_one_finding_on_the_page() -> None:
    no_nodes = {**rule("document-title", "serious"), "nodes": []}
    junk_nodes = {**rule("html-has-lang", "serious"), "nodes": 5}
    no_target = rule("frame-title", "serious")
    no_target["nodes"][0]["target"] = None
    outcome = check_axe({"violations": [no_nodes, junk_nodes, no_target]}, tags=WCAG)
    assert [(f.element, f.property) for f in outcome.findings] == [
        ("page", "axe:document-title"),
        ("page", "axe:html-has-lang"),
        ("page", "axe:frame-title"),
    ]
    assert outcome.data["violations"] == {"document-title": 1, "html-has-lang": 1, "frame-title": 1}


def test_selectors_string_nested_and_long() -> None:
    def element(target: object) -> str:
        found = rule("button-name", "critical")
        found["nodes"][0]["target"] = target
        return check_axe({"violations": [found]}, tags=WCAG).findings[0].element

    assert element("#save") == "#save"
    # axe's target for a node inside an iframe or a shadow root is a list of lists
    assert element(["iframe#pay", ["#card", "input"]]) == "iframe#pay #card input"
    exact = "#" + "a" * 119
    assert element([exact]) == exact
    cut = element(["#" + "b" * 200])
    assert len(cut) == 120 and cut == "#" + "b" * 118 + "…"


def test_messages_are_the_rules_help_else_its_description_cut_to_200() -> None:
    def messages(**text: str) -> list[str]:
        failing = {"id": "button-name", "impact": "critical", "tags": ["wcag2a"], **text}
        review = {**failing, "id": "aria-valid-attr-value"}
        outcome = check_axe({"violations": [failing], "incomplete": [review]}, tags=WCAG)
        return [f.message for f in outcome.findings]

    assert messages(help="Buttons need a name", description="d") == ["Buttons need a name"] * 2
    assert messages(description="Ensures buttons have names") == ["Ensures buttons have names"] * 2
    assert messages() == ["", ""]
    assert messages(help="h" * 200) == ["h" * 200] * 2
    assert messages(help="h" * 300) == ["h" * 199 + "…"] * 2


def test_each_finding_says_what_it_was_and_what_was_expected() -> None:
    axe = {
        "violations": [
            rule("button-name", "critical"),
            rule("empty-heading", "minor", tags=BEST),
        ],
        "incomplete": [rule("aria-valid-attr-value", "serious")],
    }
    outcome = check_axe(axe, tags=WCAG, impact_floor="critical")
    wcag, best, review = outcome.findings
    assert (wcag.value, best.value, review.value) == ("critical", "minor", "incomplete")
    # the WCAG failure names the floor; the best-practice one fails whatever the floor
    assert "critical" in wcag.expected
    assert best.expected and "critical" not in best.expected
    assert review.expected and review.expected not in (wcag.expected, best.expected)
    assert [f.message for f in outcome.findings] == [
        "button-name help",
        "empty-heading help",
        "aria-valid-attr-value help",
    ]


def test_a_rule_without_an_id_is_counted_as_question_mark() -> None:
    def anonymous(impact: str) -> dict:
        found = rule("x", impact)
        del found["id"]
        return found

    axe = {"violations": [anonymous("critical"), anonymous("minor")], "incomplete": []}
    axe["incomplete"] = [anonymous("serious")]
    outcome = check_axe(axe, tags=WCAG)
    assert outcome.data["violations"] == {"?": 1}
    assert outcome.data["below_floor"] == {"?": 1}
    assert outcome.data["incomplete"] == {"?": 1}
    assert outcome.data["needs_review"] == {"?": 1}
    assert [f.property for f in outcome.findings] == ["axe:?", "axe-review:?"]


def test_the_outcome_data_in_full() -> None:
    axe = {
        "violations": [rule("button-name", "critical", nodes=2), rule("region", "moderate")],
        "incomplete": [
            rule("aria-valid-attr-value", "serious", nodes=3),
            rule("color-contrast", "serious", nodes=4),
        ],
        "passes": [{}],
    }
    outcome = check_axe(
        axe,
        tags=WCAG,
        best_practice_rules=["tabindex"],
        decided_elsewhere={"color-contrast": "rendered_contrast"},
    )
    assert (outcome.name, outcome.status) == ("axe", GateStatus.FAIL)
    assert outcome.data == {
        "violations": {"button-name": 2},
        "below_floor": {"region": 1},
        "incomplete": {"aria-valid-attr-value": 3, "color-contrast": 4},
        "needs_review": {"aria-valid-attr-value": 3},
        "decided_by": {"color-contrast": "rendered_contrast"},
        "passes": 1,
        "impact_floor": "serious",
        "best_practice_rules": ["tabindex"],
        "findings_total": 2,
    }
    # rules failing, their elements, rules below the floor, review nodes, delegated nodes
    assert [int(n) for n in re.findall(r"\d+", outcome.summary)] == [1, 2, 1, 3, 4]


def test_a_sampled_audit_says_so_in_data_and_summary() -> None:
    sampled = {"kept": 5000, "total": 81234}
    outcome = check_axe({"violations": [], "sampled": sampled}, tags=WCAG)
    assert (outcome.name, outcome.status) == ("axe", GateStatus.PASS)
    assert outcome.data["sampled"] == sampled
    assert [int(n) for n in re.findall(r"\d+", outcome.summary)] == [0, 0, 0, 0, 5000, 81234]
    unsampled = check_axe({"violations": [], "sampled": None}, tags=WCAG)
    assert "sampled" not in unsampled.data


def test_an_audit_needs_its_violations_list_but_not_the_others() -> None:
    assert check_axe({"violations": []}, tags=WCAG).status is GateStatus.PASS
    with pytest.raises(InputError, match="violations"):
        check_axe({"incomplete": [], "passes": 3}, tags=WCAG)


@pytest.mark.parametrize(
    ("failing", "review", "kept"),
    [
        # failures first: 60 of them fill the cap, no review item is kept
        (60, 5, (50, 0)),
        (50, 1, (50, 0)),
        # review items fill what the failures leave
        (10, 60, (10, 40)),
        (0, 70, (0, 50)),
    ],
)
def test_findings_are_capped_failures_first(failing: int, review: int, kept: tuple) -> None:
    axe = {"violations": [], "incomplete": [rule("aria-valid-attr-value", "serious", nodes=review)]}
    if failing:
        axe["violations"] = [rule("button-name", "critical", nodes=failing)]
    outcome = check_axe(axe, tags=WCAG)
    props = [f.property.partition(":")[0] for f in outcome.findings]
    assert (props.count("axe"), props.count("axe-review")) == kept
    assert outcome.data["findings_total"] == failing


# --- the gate: the project's [gates.axe] settings and who decides contrast ---


def settings(
    inputs: GateInputs,
    adapter: str = "web",
    target_gates: tuple[str, ...] | None = None,
    enabled: list[str] | None = None,
    **axe: Any,
) -> GateInputs:
    gates = inputs.config.gates
    update: dict[str, Any] = {"axe": gates.axe.model_copy(update=axe)}
    if enabled is not None:
        update["enabled"] = enabled
    config = inputs.config.model_copy(update={"gates": gates.model_copy(update=update)})
    target = replace(inputs.target, gates=target_gates)
    return replace(inputs, spec=replace(inputs.spec, adapter=adapter), config=config, target=target)


def test_the_gate_applies_the_projects_axe_settings(
    habits_inputs: Callable[..., GateInputs],
) -> None:
    axe = {
        "violations": [
            rule("region", "moderate", tags=BEST),
            rule("landmark", "moderate", tags=["wcag2aa"]),
            rule("button-name", "critical", tags=["wcag2a"]),
        ]
    }
    inputs = habits_inputs(axe=axe)
    default = axe_gate(settings(inputs))
    assert (default.name, default.status) == ("axe", GateStatus.FAIL)
    assert default.data["violations"] == {"button-name": 1}
    assert default.data["below_floor"] == {"landmark": 1}
    configured = axe_gate(
        settings(
            inputs,
            tags=["wcag2a", "wcag2aa"],
            impact_floor="moderate",
            disable_rules=["button-name"],
            best_practice_rules=["region"],
        )
    )
    assert configured.data["violations"] == {"region": 1, "landmark": 1}
    assert configured.data["impact_floor"] == "moderate"
    assert configured.data["best_practice_rules"] == ["region"]
    only_tags = axe_gate(settings(inputs, tags=["wcag2aa"], disable_rules=[]))
    assert only_tags.data["violations"] == {} and only_tags.data["below_floor"] == {"landmark": 1}


def test_incomplete_contrast_goes_to_rendered_contrast_only_when_that_gate_runs(
    habits_inputs: Callable[..., GateInputs],
) -> None:
    contrast = rule("color-contrast", "serious")
    inputs = habits_inputs(axe={"violations": [], "incomplete": [contrast]})
    both = axe_gate(settings(inputs, enabled=["axe", "rendered_contrast"]))
    assert both.data["decided_by"] == {"color-contrast": "rendered_contrast"}
    assert both.data["needs_review"] == {}
    alone = axe_gate(settings(inputs, enabled=["axe"]))
    assert alone.data["decided_by"] == {} and alone.data["needs_review"] == {"color-contrast": 1}
    # the target's own gate list wins over the project's
    target = axe_gate(settings(inputs, enabled=["axe", "rendered_contrast"], target_gates=("axe",)))
    assert target.data["decided_by"] == {}
    chosen = axe_gate(settings(inputs, enabled=["axe"], target_gates=("axe", "rendered_contrast")))
    assert chosen.data["decided_by"] == {"color-contrast": "rendered_contrast"}


def test_a_web_view_needs_its_audit_an_adapters_may_lack_it(
    habits_inputs: Callable[..., GateInputs],
) -> None:
    inputs = habits_inputs()
    with pytest.raises(InputError, match=r"axe\.json"):
        axe_gate(settings(inputs))
    skipped = axe_gate(settings(inputs, adapter="ios"))
    assert (skipped.name, skipped.status, skipped.data) == ("axe", GateStatus.SKIP, {})
    written = habits_inputs(axe={"violations": [rule("button-name", "critical")]})
    assert axe_gate(settings(written, adapter="ios")).status is GateStatus.FAIL
