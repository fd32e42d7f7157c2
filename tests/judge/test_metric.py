"""The metric judge's scoring rules on hand-written probes and drawn images (no browser)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from argus.config import ProjectConfig
from argus.judge.metric import MetricJudge
from argus.judge.packet import Packet
from tests.judge.conftest import PacketFactory

INK = "rgb(22, 24, 29)"  # text-primary (light)
PRIMARY = "rgb(52, 71, 196)"  # primary (light)
SURFACE = "rgb(255, 255, 255)"
CLEAR = "rgba(0, 0, 0, 0)"


def el(
    index: int,
    parent: int | None,
    tag: str,
    *,
    role: str = "generic",
    name: str = "",
    text: str = "",
    testid: str = "",
    level: int | None = None,
    interactive: bool = False,
    box: tuple[float, float, float, float] = (0, 0, 100, 20),
    visible: bool = True,
    **style: str,
) -> dict[str, Any]:
    css = {
        "color": INK,
        "background-color": CLEAR,
        "font-size": "16px",
        "font-family": "Inter",
        "margin-top": "0px",
        "padding-top": "0px",
    }
    css.update({k.replace("_", "-"): v for k, v in style.items()})
    return {
        "index": index,
        "parent": parent,
        "tag": tag,
        "role": role,
        "name": name,
        "id": "",
        "testid": testid,
        "text": text,
        "heading_level": level,
        "visible": visible,
        "interactive": interactive,
        "box": dict(zip(("x", "y", "width", "height"), box, strict=True)),
        "style": css,
    }


def page(*elements: dict[str, Any], aria: str = "") -> dict[str, Any]:
    body = el(0, None, "body", box=(0, 0, 320, 200), background_color="rgb(245, 246, 248)")
    return {
        "version": 1,
        "viewport": {"width": 320, "height": 200},
        "elements": [body, *elements],
        "aria_snapshot": aria,
    }


def good_page(**primary_style: str) -> dict[str, Any]:
    return page(
        el(
            1,
            0,
            "h1",
            role="heading",
            name="Habits",
            text="Habits",
            level=1,
            font_size="28px",
            box=(10, 10, 200, 32),
        ),
        el(
            2,
            0,
            "p",
            role="paragraph",
            text="2 of 5 done today",
            font_size="14px",
            box=(10, 46, 200, 24),
        ),
        el(
            3,
            0,
            "button",
            role="button",
            name="Add habit",
            text="Add habit",
            testid="habits.add",
            interactive=True,
            box=(200, 120, 100, 40),
            color=SURFACE,
            background_color=PRIMARY,
            **primary_style,
        ),
        el(
            4,
            0,
            "button",
            role="button",
            name="Delete",
            interactive=True,
            box=(10, 120, 32, 32),
            background_color=SURFACE,
        ),
    )


def measure(packet: Packet, name: str) -> Any:
    return MetricJudge(ProjectConfig(root=packet.directory)).measure(packet, (name,))[name]


def test_a_well_formed_page_scores_1_on_the_design_dimensions(make_packet: PacketFactory) -> None:
    packet = make_packet(probe=good_page())
    for name in ("token_compliance", "layout_spacing", "typography", "hierarchy"):
        result = measure(packet, name)
        assert result.score == 1, (name, result.evidence)


@pytest.mark.parametrize(
    ("style", "score"),
    [
        ({"color": "rgb(23, 25, 30)"}, 1),  # ΔE < 1: the token itself
        ({"color": "rgb(30, 30, 40)"}, 0.5),  # a near miss of text-primary
        ({"color": "rgb(200, 30, 200)"}, 0),  # nothing like any token
    ],
)
def test_token_compliance_near_misses_score_half(
    make_packet: PacketFactory, style: dict[str, str], score: float
) -> None:
    probe = good_page()
    probe["elements"][2]["style"].update(style)
    result = measure(make_packet(probe=probe), "token_compliance")
    assert result.score == score, result.evidence
    assert result.numbers["checked"] > 0


@pytest.mark.parametrize(("margin", "score"), [("16px", 1), ("14px", 0.5), ("20px", 0)])
def test_spacing_off_the_scale(make_packet: PacketFactory, margin: str, score: float) -> None:
    probe = good_page()
    probe["elements"][2]["style"]["margin-top"] = margin
    assert measure(make_packet(probe=probe), "layout_spacing").score == score


def test_siblings_almost_aligned_are_a_near_miss(make_packet: PacketFactory) -> None:
    probe = good_page()
    probe["elements"][2]["box"]["x"] = 12  # 2 px off the h1's left edge above it
    result = measure(make_packet(probe=probe), "layout_spacing")
    assert result.score == 0.5 and result.numbers["misaligned_pairs"] == 1


@pytest.mark.parametrize(
    ("change", "score"),
    [
        ({"font-size": "17px"}, 0.5),
        ({"font-size": "22px"}, 0),
        ({"font-family": "Comic Sans MS"}, 0),
    ],
)
def test_typography(make_packet: PacketFactory, change: dict[str, str], score: float) -> None:
    probe = good_page()
    probe["elements"][2]["style"].update(change)
    assert measure(make_packet(probe=probe), "typography").score == score


def test_hierarchy_two_h1s_fail(make_packet: PacketFactory) -> None:
    probe = good_page()
    probe["elements"][2].update(role="heading", heading_level=1, name="Again")
    result = measure(make_packet(probe=probe), "hierarchy")
    assert result.score == 0 and "one_h1" in result.numbers["failed_checks"]


def test_hierarchy_a_skipped_heading_level_is_one_failure(make_packet: PacketFactory) -> None:
    probe = good_page()
    probe["elements"][2].update(role="heading", heading_level=3, name="Deep")
    result = measure(make_packet(probe=probe), "hierarchy")
    assert result.score == 0.5 and result.numbers["failed_checks"] == ["outline"]


def test_hierarchy_a_bigger_control_outweighs_the_primary(make_packet: PacketFactory) -> None:
    probe = good_page()
    probe["elements"][4]["box"] = {"x": 0, "y": 160, "width": 320, "height": 40}
    probe["elements"][4]["style"]["background-color"] = "rgb(29, 122, 74)"  # success, filled
    result = measure(make_packet(probe=probe), "hierarchy")
    # Shown with a fill, but outweighed: one ordinary failure, so 0.5.
    assert result.score == 0.5 and result.numbers["failed_checks"] == ["primary_leads"]
    assert result.numbers["heaviest_other_weight"] > result.numbers["primary_weight"]


def test_hierarchy_a_disabled_primary_is_not_competing(make_packet: PacketFactory) -> None:
    # A disabled primary action with a muted fill, next to a secondary control in nearly the
    # same fill: a disabled control is not competing for prominence.
    muted = "rgb(226, 229, 234)"
    probe = good_page()
    probe["elements"][3]["style"]["background-color"] = muted
    probe["elements"][3].update(disabled=True, interactive=False)
    probe["elements"][4]["style"]["background-color"] = "rgb(228, 230, 235)"
    result = measure(make_packet(probe=probe), "hierarchy")
    assert result.score == 1 and result.numbers["primary_disabled"] is True, result.evidence
    probe["elements"][3].update(disabled=False, interactive=True)
    enabled = measure(make_packet(probe=probe), "hierarchy")
    assert "primary_alone" in enabled.numbers["failed_checks"]


def test_hierarchy_a_disabled_big_control_does_not_outweigh_the_primary(
    make_packet: PacketFactory,
) -> None:
    probe = good_page()
    probe["elements"][4]["box"] = {"x": 0, "y": 160, "width": 320, "height": 40}
    probe["elements"][4]["style"]["background-color"] = "rgb(29, 122, 74)"
    probe["elements"][4].update(disabled=True, interactive=True)
    assert measure(make_packet(probe=probe), "hierarchy").score == 1


def test_an_off_scale_radius_is_read_as_a_radius_not_a_colour(make_packet: PacketFactory) -> None:
    probe = good_page()
    probe["elements"][3]["style"]["border-radius"] = "6px"  # between radius sm 4 and md 8
    result = measure(make_packet(probe=probe), "token_compliance")
    assert result.score == 0.5 and result.numbers["off_token"] == 1, result.evidence
    probe["elements"][3]["style"]["border-radius"] = "30px"
    assert measure(make_packet(probe=probe), "token_compliance").score == 0


def test_hierarchy_abstains_without_a_declared_primary_action(make_packet: PacketFactory) -> None:
    result = measure(make_packet(probe=good_page(), contract={"primary_action": None}), "hierarchy")
    assert result.score is None and "primary_action" in result.evidence


def test_functional_abstains_on_a_prose_only_contract(make_packet: PacketFactory) -> None:
    result = measure(
        make_packet(probe=good_page(), contract={"expectations": None}), "functional_correctness"
    )
    assert result.score is None and "prose" in result.evidence


def test_functional_counts_console_errors_without_quoting_them(make_packet: PacketFactory) -> None:
    console = {
        "messages": [{"level": "error", "text": "secret words", "location": ""}],
        "page_errors": [],
    }
    packet = make_packet(probe=good_page(), contract={"expectations": None}, console=console)
    result = measure(packet, "functional_correctness")
    assert result.score == 0 and "1 console error" in result.evidence
    assert "secret" not in result.evidence


def test_functional_checks_template_and_counts(make_packet: PacketFactory) -> None:
    expectations = {
        "aria_snapshot": '- heading "Habits" [level=1]\n- button "Add habit"',
        "counts": [
            {"role": "button", "name": "/^Add/", "equals": 1},
            {"role": "heading", "name": None, "equals": 2},
        ],
    }
    aria = (
        '- heading "Habits" [level=1]\n- paragraph: 2 of 5 done today\n'
        '- button "Add habit"\n- button "Delete"'
    )
    probe = {**good_page(), "aria_snapshot": aria}
    result = measure(
        make_packet(probe=probe, contract={"expectations": expectations}), "functional_correctness"
    )
    assert result.score == 0.5  # the template and one count hold; one heading, not two
    assert result.numbers["counts"][1] == {
        "role": "heading",
        "name": None,
        "expected": 2,
        "found": 1,
    }


def test_accessibility_unnamed_control_and_missing_id(make_packet: PacketFactory) -> None:
    probe = good_page()
    probe["elements"][4]["name"] = ""
    result = measure(
        make_packet(probe=probe, contract={"a11y_contract": ["habits.add", "habits.list"]}),
        "accessibility",
    )
    assert result.score == 0
    assert "habits.list" in result.evidence and "without an accessible name" in result.evidence
    assert result.numbers["axe"] is None  # not run: said, not passed


def _axe(tmp_path: Path, violations: list[dict[str, Any]] | None = None) -> Path:
    path = tmp_path / "axe-results.json"
    path.write_text(json.dumps({"violations": violations or [], "incomplete": [], "passes": 12}))
    return path


def test_accessibility_without_axe_is_unverified_not_passed(
    make_packet: PacketFactory, tmp_path: Path
) -> None:
    contract = {"a11y_contract": ["habits.add"]}
    unaudited = measure(make_packet(probe=good_page(), contract=contract), "accessibility")
    assert unaudited.score is None  # every other check holds, but axe never ran
    assert "axe" in unaudited.evidence and unaudited.numbers["axe"] is None
    audited = measure(
        make_packet(probe=good_page(), contract=contract, extra={"axe": _axe(tmp_path)}),
        "accessibility",
    )
    assert audited.score == 1, audited.evidence


_PROSE = {
    "component_contracts": [{"state": "populated", "expects": "a header and a card"}],
    "expectations_cover_prose": False,
}
_HOLDING = {
    "aria_snapshot": '- heading "Habits" [level=1]',
    "counts": [{"role": "button", "name": "/^Add/", "equals": 1}],
}


def test_functional_with_prose_beyond_the_expectations_is_a_partial_measurement(
    make_packet: PacketFactory,
) -> None:
    probe = {**good_page(), "aria_snapshot": '- heading "Habits" [level=1]\n- button "Add habit"'}
    packet = make_packet(probe=probe, contract={"expectations": _HOLDING, **_PROSE})
    result = measure(packet, "functional_correctness")
    # The machine expectations hold, but the prose says more than they check: not measured,
    # so unverified, never a pass.
    assert result.score is None
    assert result.numbers["partial"] is True and result.numbers["failed"] == 0
    assert "spec.md acceptance criteria" in result.numbers["unmeasured"]
    assert "1 component contract" in result.numbers["unmeasured"]
    assert "not measured here" in result.evidence


def test_functional_prose_declared_covered_by_the_expectations_is_measured(
    make_packet: PacketFactory,
) -> None:
    probe = {**good_page(), "aria_snapshot": '- heading "Habits" [level=1]\n- button "Add habit"'}
    contract = {**_PROSE, "expectations": _HOLDING, "expectations_cover_prose": True}
    result = measure(make_packet(probe=probe, contract=contract), "functional_correctness")
    assert result.score == 1 and result.numbers["covered_by_declaration"] is True
    assert result.numbers["partial"] is True  # a composite judge still asks its model


def test_functional_with_prose_still_fails_a_failing_expectation(
    make_packet: PacketFactory,
) -> None:
    probe = {**good_page(), "aria_snapshot": '- heading "Habits" [level=1]'}
    failing = {**_HOLDING, "counts": [{"role": "button", "name": "/^Add/", "equals": 2}]}
    packet = make_packet(probe=probe, contract={"expectations": failing, **_PROSE})
    result = measure(packet, "functional_correctness")
    assert result.score == 0 and result.numbers["partial"] is True


def test_functional_covered_by_its_expectations_is_a_full_measurement(
    make_packet: PacketFactory,
) -> None:
    probe = {**good_page(), "aria_snapshot": '- heading "Habits" [level=1]\n- button "Add habit"'}
    packet = make_packet(
        probe=probe,
        contract={"expectations": _HOLDING, "component_contracts": []},
        extra={},
        spec_md=False,
    )
    result = measure(packet, "functional_correctness")
    assert result.score == 1 and "partial" not in result.numbers


def test_visual_fidelity_abstains_without_a_reference(make_packet: PacketFactory) -> None:
    result = measure(make_packet(), "visual_fidelity")
    assert result.score is None and "reference" in result.evidence


@pytest.mark.parametrize("source", ["human", "candidate"])
def test_visual_fidelity_against_drawn_references(make_packet: PacketFactory, source: str) -> None:
    same = measure(make_packet(reference=source), "visual_fidelity")
    assert same.score == 1, same.evidence
    moved = measure(make_packet(reference=source, render_button=(20, 150)), "visual_fidelity")
    assert moved.score == 0 and "region" in moved.evidence


def test_visual_fidelity_candidate_a_repaint_is_a_listed_colour_change(
    make_packet: PacketFactory,
) -> None:
    # The same blocks in the same places, the page a shade lighter (background #f5f5f5 ->
    # #ffffff, as when a surface token replaces the page background): pixelmatch's default 0.1
    # threshold counts none of it; the palette-measured tolerance counts all of it.
    tint = measure(make_packet(reference="candidate", render_shade=255), "visual_fidelity")
    assert tint.score == 0.5, tint.evidence
    assert tint.numbers["tolerance"]["threshold"] < 0.02
    assert [r["kind"] for r in tint.numbers["regions"]] == ["colour"]
    assert tint.numbers["regions"][0]["share"] > 0.5
    assert "#ffffff" in tint.evidence and "YIQ threshold" in tint.evidence


def test_visual_fidelity_candidate_a_2px_move_is_a_listed_position_change(
    make_packet: PacketFactory,
) -> None:
    moved = measure(make_packet(reference="candidate", render_button=(200, 122)), "visual_fidelity")
    assert moved.score == 0.5, moved.evidence
    (region,) = moved.numbers["regions"]
    assert region["kind"] == "position" and "+2 px down" in region["detail"]
    assert region["box"]["y"] <= 122 and region["pixels"] > 0


def test_visual_fidelity_candidate_only_a_declared_mask_accepts_a_region(
    make_packet: PacketFactory,
) -> None:
    from tests.judge.conftest import small_probe

    probe = small_probe()
    blot = {**probe["elements"][2], "index": 3, "testid": "clock", "text": "12:00"}
    blot["box"] = {"x": 195, "y": 115, "width": 95, "height": 45}
    probe["elements"].append(blot)
    changed = make_packet(reference="candidate", render_button=(200, 122), probe=probe)
    assert measure(changed, "visual_fidelity").score == 0.5
    masked = make_packet(
        reference="candidate",
        render_button=(200, 122),
        probe=probe,
        contract={"masks": ["[data-testid=clock]"]},
    )
    result = measure(masked, "visual_fidelity")
    assert result.score == 1 and result.numbers["masks"] == 1, result.evidence
    assert result.numbers["differing_pixels"] == 0


def test_visual_fidelity_candidate_identical_says_what_was_compared(
    make_packet: PacketFactory,
) -> None:
    same = measure(make_packet(reference="candidate"), "visual_fidelity")
    assert same.score == 1 and same.numbers["differing_pixels"] == 0
    assert "YIQ threshold" in same.evidence and "same sensor" in same.evidence


def test_closer_to_reference_than_prev(make_packet: PacketFactory) -> None:
    judge = MetricJudge(ProjectConfig(root=Path(".")))
    closer = judge.judge(make_packet(reference="candidate", prev=True))  # render == reference
    assert closer["closer_to_reference_than_prev"] is True
    further = judge.judge(make_packet(reference="candidate", prev=True, render_button=(20, 150)))
    assert further["closer_to_reference_than_prev"] is False  # render moved like prev, not closer
    first = judge.judge(make_packet(reference="candidate"))
    assert first["closer_to_reference_than_prev"] is None


@pytest.mark.parametrize(
    ("weight", "line", "score"),
    [("700", "32px", 1), ("400", "32px", 0), ("700", "40px", 0), ("600", "32px", 0)],
)
def test_typography_holds_text_to_the_type_roles(
    make_packet: PacketFactory, weight: str, line: str, score: float
) -> None:
    # The example's roles: the 28px title is weight 700 on a 32px line.
    probe = good_page()
    probe["elements"][1]["style"].update({"font-weight": weight, "line-height": line})
    result = measure(make_packet(probe=probe), "typography")
    assert result.score == score, result.evidence
    assert result.numbers["off_role"] == (0 if score else 1)


def test_typography_a_heading_set_in_a_body_role_is_the_wrong_role(
    make_packet: PacketFactory,
) -> None:
    probe = good_page()
    probe["elements"][1]["style"].update(
        {"font-size": "16px", "font-weight": "400", "line-height": "24px"}
    )
    result = measure(make_packet(probe=probe), "typography")
    assert result.score == 0 and "heading text" in result.evidence


def test_typography_truncated_text_is_a_finding_unless_allowed(make_packet: PacketFactory) -> None:
    probe = good_page()
    probe["elements"][2]["truncated"] = "ellipsis"
    probe["elements"][2]["testid"] = "habits.summary"
    cut = measure(make_packet(probe=probe), "typography")
    assert cut.score == 0 and cut.numbers["truncated"] == 1, cut.evidence
    allowed = measure(
        make_packet(probe=probe, contract={"allow_truncation": ["[data-testid=habits.summary]"]}),
        "typography",
    )
    assert allowed.score == 1 and allowed.numbers["truncated"] == 0


DANGER = "rgb(179, 38, 30)"  # the example's danger (light), kept for alerts by its tokens


def test_token_compliance_a_colour_outside_its_role_fails(make_packet: PacketFactory) -> None:
    probe = good_page()
    probe["elements"][2]["style"]["color"] = DANGER  # the summary, in the danger red
    result = measure(make_packet(probe=probe), "token_compliance")
    assert result.score == 0 and result.numbers["off_role"] == 1, result.evidence
    assert result.numbers["off_token"] == 0  # on the palette all the same
    probe["elements"][2]["role"] = "alert"  # where the tokens allow it
    assert measure(make_packet(probe=probe), "token_compliance").score == 1


def test_token_compliance_a_token_named_for_another_appearance_fails(
    make_packet: PacketFactory, tmp_path: Path
) -> None:
    tokens = tmp_path / "flat-tokens.json"
    tokens.write_text(
        json.dumps(
            {
                "colors": {
                    "surface-light": "#ffffff",
                    "surface-dark": "#2b3039",
                    "ink": "#16181d",
                    "page": "#f5f6f8",
                    "primary": "#3447c4",
                }
            }
        )
    )
    probe = good_page()
    ok = measure(make_packet(probe=probe, extra={"tokens": tokens}), "token_compliance")
    assert ok.score == 1, ok.evidence  # a light view on the light surface
    probe["elements"][4]["style"]["background-color"] = "rgb(43, 48, 57)"  # surface-dark
    wrong = measure(make_packet(probe=probe, extra={"tokens": tokens}), "token_compliance")
    assert wrong.score == 0 and "dark-only" in wrong.evidence, wrong.evidence


def test_functional_texts_from_the_fixture_must_be_shown(make_packet: PacketFactory) -> None:
    contract = {
        "expectations": {"texts": ["2 of 5 done today", "Add habit"]},
        "component_contracts": [],
    }
    shown = measure(
        make_packet(probe=good_page(), contract=contract, spec_md=False), "functional_correctness"
    )
    assert shown.score == 1, shown.evidence
    contract["expectations"]["texts"] = ["2 of 5 done today", "1 items"]
    missing = measure(
        make_packet(probe=good_page(), contract=contract, spec_md=False), "functional_correctness"
    )
    assert missing.score == 0 and missing.numbers["texts"]["missing"] == ["1 items"]


def test_functional_unknown_words_are_a_finding(make_packet: PacketFactory) -> None:
    probe = good_page()
    probe["elements"][2]["text"] = "2 of 5 done todya"
    contract = {"expectations": None, "component_contracts": []}
    result = measure(make_packet(probe=probe, contract=contract), "functional_correctness")
    assert result.score == 0 and result.numbers["spelling"]["unknown"] == 1, result.evidence
    assert "todya" in result.evidence
    # The project's word list (words the spec knows) accepts it.
    known = {**contract, "words": ["todya"]}
    accepted = measure(make_packet(probe=probe, contract=known), "functional_correctness")
    assert accepted.score is None  # nothing else to measure: abstains, never a pass


def test_accessibility_small_targets_need_spacing(
    make_packet: PacketFactory, tmp_path: Path
) -> None:
    extra = {"axe": _axe(tmp_path)}
    ids = {"a11y_contract": ["habits.add"]}
    spaced = good_page()  # the 32x32 delete button and the 100x40 primary: fine
    assert measure(make_packet(probe=spaced, extra=extra, contract=ids), "accessibility").score == 1
    small = good_page()
    small["elements"][4]["box"] = {"x": 184, "y": 128, "width": 16, "height": 16}  # beside Add
    result = measure(make_packet(probe=small, extra=extra, contract=ids), "accessibility")
    assert result.score == 0 and result.numbers["targets"]["undersized"] == 1, result.evidence
    alone = good_page()
    alone["elements"][4]["box"] = {"x": 10, "y": 170, "width": 16, "height": 16}  # room around
    assert measure(make_packet(probe=alone, extra=extra, contract=ids), "accessibility").score == 1


def _hierarchy(make_packet: PacketFactory, probe: dict[str, Any], **contract: Any) -> Any:
    return measure(make_packet(probe=probe, contract=contract or None), "hierarchy")


def test_hierarchy_a_good_page_reports_its_numbers(make_packet: PacketFactory) -> None:
    from argus.color import contrast_ratio, parse_color

    result = _hierarchy(make_packet, good_page())
    behind = parse_color("rgb(245, 246, 248)")  # the body's fill behind the buttons
    primary = contrast_ratio(parse_color(PRIMARY), behind)
    delete = contrast_ratio(parse_color(SURFACE), behind)
    assert result.score == 1, result.evidence
    numbers = result.numbers
    assert numbers["failed_checks"] == [] and numbers["h1_count"] == 1
    assert numbers["heading_levels"] == [1] and numbers["controls"] == 2
    assert numbers["h1_px"] == 28 and numbers["largest_other_px"] == 16  # the button text
    assert numbers["primary_fill_contrast"] == round(primary, 2)
    assert numbers["primary_weight"] == round(100 * 40 * (primary - 1))
    assert numbers["heaviest_other_weight"] == round(32 * 32 * (delete - 1))
    assert numbers["controls_sharing_primary_fill"] == 0


@pytest.mark.parametrize(
    "hide",
    [
        pytest.param({"visible": False}, id="not visible"),
        pytest.param({"box": {"x": 0, "y": 0, "width": 1, "height": 1}}, id="1x1"),
        pytest.param({"box": {"x": 0, "y": 0, "width": 1, "height": 40}}, id="1 px wide"),
        pytest.param({"box": {"x": 0, "y": 0, "width": 100, "height": 1}}, id="1 px tall"),
        pytest.param({"testid": "habits.other"}, id="missing"),
    ],
)
def test_hierarchy_a_missing_or_hidden_primary_action_scores_0(
    make_packet: PacketFactory, hide: dict[str, Any]
) -> None:
    probe = good_page()
    probe["elements"][3].update(hide)
    result = _hierarchy(make_packet, probe)
    # The primary action not shown is severe: 0 although it is the only failed check.
    assert result.score == 0 and result.numbers["failed_checks"] == ["primary_leads"]
    assert "primary_fill_contrast" not in result.numbers


def test_hierarchy_a_2px_primary_action_is_shown(make_packet: PacketFactory) -> None:
    probe = good_page()
    probe["elements"][3]["box"] = {"x": 200, "y": 120, "width": 2, "height": 2}
    result = _hierarchy(make_packet, probe)
    assert "primary_fill_contrast" in result.numbers  # shown, so weighed
    assert result.numbers["failed_checks"] == ["primary_leads"] and result.score == 0.5


def test_hierarchy_primary_found_by_element_id(make_packet: PacketFactory) -> None:
    probe = good_page()
    probe["elements"][3].update(testid="", id="add-habit")
    assert _hierarchy(make_packet, probe, primary_action="add-habit").score == 1
    assert _hierarchy(make_packet, probe).numbers["failed_checks"] == ["primary_leads"]


def test_hierarchy_another_control_in_the_primary_fill_competes(
    make_packet: PacketFactory,
) -> None:
    probe = good_page()
    probe["elements"][4]["style"]["background-color"] = "rgb(54, 72, 198)"  # ΔE < 5 of primary
    result = _hierarchy(make_packet, probe)
    assert result.score == 0.5 and result.numbers["failed_checks"] == ["primary_alone"]
    assert result.numbers["controls_sharing_primary_fill"] == 1
    probe["elements"][4]["style"]["background-color"] = "rgb(29, 122, 74)"  # far from primary
    assert _hierarchy(make_packet, probe).score == 1


def test_hierarchy_a_primary_action_without_a_fill_does_not_lead(
    make_packet: PacketFactory,
) -> None:
    probe = good_page()
    probe["elements"][3]["style"].update({"background-color": CLEAR, "color": PRIMARY})
    result = _hierarchy(make_packet, probe)
    # Shown but unfilled: one ordinary failure (0.5), weighed at 0 with a contrast of 1.
    assert result.score == 0.5 and result.numbers["failed_checks"] == ["primary_leads"]
    assert result.numbers["primary_fill_contrast"] == 1.0
    assert result.numbers["primary_weight"] == 0


def test_hierarchy_a_big_control_without_a_fill_weighs_nothing(
    make_packet: PacketFactory,
) -> None:
    probe = good_page()
    probe["elements"][4]["box"] = {"x": 0, "y": 0, "width": 320, "height": 200}
    probe["elements"][4]["style"]["background-color"] = CLEAR
    result = _hierarchy(make_packet, probe)
    assert result.score == 1 and result.numbers["heaviest_other_weight"] == 0


@pytest.mark.parametrize(("size", "ok"), [("28px", True), ("28.5px", False), ("40px", False)])
def test_hierarchy_text_larger_than_the_h1(make_packet: PacketFactory, size: str, ok: bool) -> None:
    probe = good_page()
    probe["elements"][2]["style"]["font-size"] = size
    result = _hierarchy(make_packet, probe)
    assert result.numbers["largest_other_px"] == float(size.removesuffix("px"))
    if ok:
        assert result.score == 1, result.evidence
    else:
        assert result.score == 0.5 and result.numbers["failed_checks"] == ["h1_largest"]


def test_hierarchy_a_hidden_larger_text_does_not_count(make_packet: PacketFactory) -> None:
    probe = good_page()
    probe["elements"][2]["style"]["font-size"] = "40px"
    probe["elements"][2]["visible"] = False
    assert _hierarchy(make_packet, probe).score == 1


def test_hierarchy_two_failures_score_0_one_scores_half(make_packet: PacketFactory) -> None:
    probe = good_page()
    probe["elements"][2]["style"]["font-size"] = "40px"
    assert _hierarchy(make_packet, probe).score == 0.5
    probe["elements"][4]["style"]["background-color"] = "rgb(54, 72, 198)"
    result = _hierarchy(make_packet, probe)
    assert result.score == 0
    assert result.numbers["failed_checks"] == ["h1_largest", "primary_alone"]


def test_hierarchy_one_h1_failing_alone_scores_0(make_packet: PacketFactory) -> None:
    probe = good_page()
    probe["elements"][1].update(heading_level=2)  # no h1 at all; the outline starts at 2
    result = _hierarchy(make_packet, probe)
    assert result.score == 0 and result.numbers["h1_count"] == 0
    assert result.numbers["failed_checks"] == ["one_h1", "outline"]
    probe = good_page()
    probe["elements"][1]["visible"] = False  # the only h1 hidden
    result = _hierarchy(make_packet, probe, primary_action=None)
    assert result.score == 0 and "one_h1" in result.numbers["failed_checks"]


def test_hierarchy_a_hidden_second_h1_is_not_counted(make_packet: PacketFactory) -> None:
    probe = good_page()
    probe["elements"][2].update(heading_level=1, role="heading", visible=False)
    result = _hierarchy(make_packet, probe)
    assert result.score == 1 and result.numbers["h1_count"] == 1


def test_hierarchy_outline_steps_down_one_level_at_a_time(make_packet: PacketFactory) -> None:
    probe = good_page()
    probe["elements"][2].update(heading_level=2, role="heading")
    result = _hierarchy(make_packet, probe)
    assert result.score == 1 and result.numbers["heading_levels"] == [1, 2]


def test_hierarchy_without_a_primary_action_scores_the_headings(
    make_packet: PacketFactory,
) -> None:
    probe = good_page()
    probe["elements"][2].update(heading_level=3, role="heading")
    result = _hierarchy(make_packet, probe, primary_action=None)
    assert result.score == 0.5 and result.numbers["failed_checks"] == ["outline"]
    no_controls = good_page()
    del no_controls["elements"][3:]
    result = _hierarchy(make_packet, no_controls, primary_action=None)
    assert result.score == 1 and result.numbers["controls"] == 0


def test_hierarchy_a_larger_h2_fails_h1_largest(make_packet: PacketFactory) -> None:
    probe = good_page()
    probe["elements"][2].update(heading_level=2, role="heading")
    probe["elements"][2]["style"]["font-size"] = "32px"
    result = _hierarchy(make_packet, probe)
    assert result.score == 0.5 and result.numbers["failed_checks"] == ["h1_largest"]
    assert ";" not in result.evidence  # one failure, one note


def test_hierarchy_a_control_without_a_background_colour_has_no_fill(
    make_packet: PacketFactory,
) -> None:
    probe = good_page()
    del probe["elements"][4]["style"]["background-color"]
    probe["elements"][4]["box"] = {"x": 0, "y": 0, "width": 320, "height": 200}
    result = _hierarchy(make_packet, probe)
    assert result.score == 1 and result.numbers["heaviest_other_weight"] == 0


def test_hierarchy_a_translucent_fill_is_weighed_as_shown_over_the_canvas(
    make_packet: PacketFactory,
) -> None:
    from argus.color import composite, contrast_ratio, parse_color

    probe = good_page()
    probe["elements"][0]["style"]["background-color"] = CLEAR  # the body shows the canvas
    probe["elements"][3]["style"]["background-color"] = "rgba(52, 71, 196, 0.5)"
    result = _hierarchy(make_packet, probe)
    white = parse_color("rgb(255, 255, 255)")
    shown = composite(parse_color("rgba(52, 71, 196, 0.5)"), white)
    assert result.numbers["primary_fill_contrast"] == round(contrast_ratio(shown, white), 2)
    assert result.score == 1, result.evidence
    # A dark canvas (the sensor names it on the root element) is what the fill shows over.
    probe["elements"][0]["canvas"] = "rgb(18, 18, 18)"
    dark = parse_color("rgb(18, 18, 18)")
    shown = composite(parse_color("rgba(52, 71, 196, 0.5)"), dark)
    result = _hierarchy(make_packet, probe)
    assert result.numbers["primary_fill_contrast"] == round(contrast_ratio(shown, dark), 2)


def _sentence(evidence: object) -> None:
    assert isinstance(evidence, str) and len(evidence) > 20, evidence
    assert not evidence[0].islower() and evidence.endswith(".") and ".." not in evidence, evidence


def test_hierarchy_evidence_is_one_sentence_per_finding(make_packet: PacketFactory) -> None:
    good = _hierarchy(make_packet, good_page())
    _sentence(good.evidence)
    assert "disabled" not in good.evidence
    probe = good_page()
    probe["elements"][3].update(disabled=True)
    disabled = _hierarchy(make_packet, probe)
    _sentence(disabled.evidence)
    assert "disabled" in disabled.evidence
    unfilled = good_page()
    unfilled["elements"][3]["style"]["background-color"] = CLEAR
    result = _hierarchy(make_packet, unfilled)
    _sentence(result.evidence)
    assert ";" not in result.evidence
    two = good_page()
    two["elements"][2]["style"]["font-size"] = "40px"
    two["elements"][2].update(heading_level=3, role="heading")
    result = _hierarchy(make_packet, two)
    _sentence(result.evidence)
    assert result.evidence.count(";") == 1  # two failures, two notes


def test_hierarchy_a_twin_of_the_primary_competes_but_does_not_outweigh_it(
    make_packet: PacketFactory,
) -> None:
    probe = good_page()
    twin = json.loads(json.dumps(probe["elements"][3]))
    twin.update(index=5, testid="habits.twin", box={"x": 200, "y": 160, "width": 100, "height": 40})
    probe["elements"].append(twin)
    result = _hierarchy(make_packet, probe)
    # Equal weight is not more weight: only primary_alone fails.
    assert result.numbers["failed_checks"] == ["primary_alone"] and result.score == 0.5
    assert result.numbers["heaviest_other_weight"] == result.numbers["primary_weight"]


def test_hierarchy_a_page_with_one_control_and_one_text(make_packet: PacketFactory) -> None:
    probe = good_page()
    del probe["elements"][4]
    del probe["elements"][2]
    probe["elements"][2]["index"] = 2
    probe["elements"][2]["text"] = ""  # the primary action labelled by aria only
    result = _hierarchy(make_packet, probe)
    assert result.score == 1, result.evidence
    assert result.numbers["heaviest_other_weight"] == 0
    assert result.numbers["largest_other_px"] == 0
    assert result.numbers["controls"] == 1


def test_hierarchy_abstaining_still_reports_the_numbers(make_packet: PacketFactory) -> None:
    result = _hierarchy(make_packet, good_page(), primary_action=None)
    assert result.score is None
    assert result.numbers["controls"] == 2 and result.numbers["h1_count"] == 1
