"""accessibility on hand-written probes and axe results: each check's outcome, the target-size
geometry at its boundaries, and what is not measured abstaining rather than passing (no
browser)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from argus.config import ProjectConfig
from argus.evidence.content import clip
from argus.judge.metric import MetricJudge
from tests.judge.conftest import PacketFactory
from tests.judge.test_metric import el, good_page, page
from tests.support.habits import HABITS_SPEC, copy_habits


@pytest.fixture(scope="module")
def habits_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One copy of the example per module (make_packet only reads it): quicker tests, so
    quicker mutation runs."""
    return copy_habits(tmp_path_factory.mktemp("habits"))


RULE_TAGS = ["wcag2a"]


def axe_file(tmp_path: Path, *rules: dict[str, Any], **extra: Any) -> Path:
    path = tmp_path / f"axe-{len(list(tmp_path.glob('axe-*')))}.json"
    path.write_text(
        json.dumps({"violations": list(rules), "incomplete": [], "passes": 3, **extra}), "utf-8"
    )
    return path


def rule(rule_id: str, impact: str, nodes: int = 1) -> dict[str, Any]:
    return {
        "id": rule_id,
        "impact": impact,
        "tags": RULE_TAGS,
        "nodes": [{"target": [f"#n{i}"], "impact": impact} for i in range(nodes)],
    }


def accessibility(
    make_packet: PacketFactory,
    tmp_path: Path,
    probe: dict[str, Any] | None = None,
    *,
    axe: Path | bool | None = True,
    ids: list[str] | None = None,
    **gates_axe: Any,
) -> Any:
    """Measure accessibility; by default with a clean axe audit and the id ``habits.add``."""
    extra = {}
    if axe is True:
        extra["axe"] = axe_file(tmp_path)
    elif isinstance(axe, Path):
        extra["axe"] = axe
    contract = {"a11y_contract": ["habits.add"] if ids is None else ids}
    packet = make_packet(probe=probe or good_page(), contract=contract, extra=extra)
    config = ProjectConfig.model_validate(
        {"root": packet.directory, "gates": {"axe": gates_axe}} if gates_axe else {"root": "."}
    )
    return MetricJudge(config).measure(packet, ("accessibility",))["accessibility"]


def test_a_clean_page_scores_1_with_its_numbers(make_packet: PacketFactory, tmp_path: Path) -> None:
    result = accessibility(make_packet, tmp_path)
    assert result.score == 1, result.evidence
    assert result.numbers["ids"] == {"expected": 1, "missing": []}
    assert result.numbers["controls"] == 2 and result.numbers["unnamed_controls"] == 0
    assert result.numbers["targets"] == {"checked": 2, "undersized": 0}
    assert result.numbers["axe"] == {"violations": {}, "impact_floor": "serious"}
    assert result.numbers["contrast"]["below_aa"] == 0
    assert result.numbers["contrast"]["checked"] == 3  # the h1, the paragraph, "Add habit"
    assert result.numbers["contrast"]["worst_ratio"] > 4.5
    assert f"worst {result.numbers['contrast']['worst_ratio']}:1" in result.evidence


def test_a_missing_contract_id_fails(make_packet: PacketFactory, tmp_path: Path) -> None:
    result = accessibility(make_packet, tmp_path, ids=["habits.add", "habits.list", "x.y"])
    assert result.score == 0
    assert result.numbers["ids"] == {"expected": 3, "missing": ["habits.list", "x.y"]}


def test_an_empty_contract_checks_no_id(make_packet: PacketFactory, tmp_path: Path) -> None:
    result = accessibility(make_packet, tmp_path, ids=[])
    assert result.score == 1 and result.numbers["ids"]["missing"] == []


@pytest.mark.parametrize(("name", "unnamed"), [("", 1), ("   ", 1), ("Delete", 0)])
def test_a_control_without_an_accessible_name_fails(
    make_packet: PacketFactory, tmp_path: Path, name: str, unnamed: int
) -> None:
    probe = good_page()
    probe["elements"][4]["name"] = name
    result = accessibility(make_packet, tmp_path, probe)
    assert result.numbers["unnamed_controls"] == unnamed
    assert result.score == (0 if unnamed else 1)


@pytest.mark.parametrize(
    ("tag", "role", "unnamed"),
    [
        ("main", "main", 0),  # a focusable landmark: its role is its name
        ("nav", "navigation", 0),
        ("div", "region", 1),  # a region is no landmark without a name
        ("div", "", 1),
        ("div", "generic", 1),
    ],
)
def test_a_focusable_landmark_is_not_an_unnamed_control(
    make_packet: PacketFactory, tmp_path: Path, tag: str, role: str, unnamed: int
) -> None:
    probe = good_page()
    probe["elements"][4].update({"tag": tag, "role": role, "name": ""})
    result = accessibility(make_packet, tmp_path, probe)
    assert result.numbers["unnamed_controls"] == unnamed
    assert result.score == (0 if unnamed else 1)


@pytest.mark.parametrize(
    ("change", "controls"),
    [
        ({"visible": False}, 1),
        ({"box": {"x": 10, "y": 120, "width": 1, "height": 1}}, 1),  # visually hidden
        ({"interactive": False}, 1),
        ({}, 2),
    ],
)
def test_only_shown_interactive_elements_are_controls(
    make_packet: PacketFactory, tmp_path: Path, change: dict[str, Any], controls: int
) -> None:
    probe = good_page()
    probe["elements"][4].update(change, name="")  # unnamed: counted only as a control
    result = accessibility(make_packet, tmp_path, probe)
    assert result.numbers["controls"] == controls
    assert result.numbers["unnamed_controls"] == controls - 1
    assert result.numbers["targets"]["checked"] == controls


def control(index: int, x: float, y: float, w: float, h: float, **kw: Any) -> dict[str, Any]:
    kw.setdefault("role", "button")
    return el(
        index,
        kw.pop("parent", 0),
        "button",
        name=f"Go {index}",
        interactive=True,
        box=(x, y, w, h),
        **kw,
    )


def targets(make_packet: PacketFactory, tmp_path: Path, *elements: dict[str, Any]) -> Any:
    result = accessibility(make_packet, tmp_path, page(*elements), ids=[])
    return result


@pytest.mark.parametrize(
    ("other_x", "undersized"),
    [
        (120, 0),  # the 16 px target's centre (108, 108) is exactly 12 px from the box
        (119.5, 1),  # 11.5 px: the 24 px circle meets it
        (200, 0),
    ],
)
def test_a_small_target_needs_a_clear_circle(
    make_packet: PacketFactory, tmp_path: Path, other_x: float, undersized: int
) -> None:
    result = targets(
        make_packet,
        tmp_path,
        control(1, 100, 100, 16, 16),
        control(2, other_x, 90, 40, 40),
    )
    assert result.numbers["targets"] == {"checked": 2, "undersized": undersized}
    assert result.score == (0 if undersized else 1), result.evidence


@pytest.mark.parametrize(
    ("other_x", "undersized"),
    [(124, 0), (123.5, 2)],  # two 16 px targets, centres 24 px (or 23.5 px) apart
)
def test_two_small_targets_need_circles_that_do_not_overlap(
    make_packet: PacketFactory, tmp_path: Path, other_x: float, undersized: int
) -> None:
    result = targets(
        make_packet, tmp_path, control(1, 100, 100, 16, 16), control(2, other_x, 100, 16, 16)
    )
    assert result.numbers["targets"]["undersized"] == undersized
    assert result.score == (0 if undersized else 1)


def test_vertical_spacing_counts_as_much_as_horizontal(
    make_packet: PacketFactory, tmp_path: Path
) -> None:
    near = targets(
        make_packet, tmp_path, control(1, 100, 100, 16, 16), control(2, 90, 119.5, 40, 40)
    )
    assert near.numbers["targets"]["undersized"] == 1
    clear = targets(
        make_packet, tmp_path, control(1, 100, 100, 16, 16), control(2, 100, 123.5, 16, 16)
    )
    assert clear.numbers["targets"]["undersized"] == 2
    apart = targets(
        make_packet, tmp_path, control(1, 100, 100, 16, 16), control(2, 100, 124, 16, 16)
    )
    assert apart.numbers["targets"]["undersized"] == 0


@pytest.mark.parametrize(
    ("size", "undersized"),
    [((24, 24), 0), ((23.5, 24), 1), ((24, 23.5), 1), ((40, 16), 1)],
)
def test_24_by_24_is_large_enough_whatever_its_neighbours(
    make_packet: PacketFactory, tmp_path: Path, size: tuple[float, float], undersized: int
) -> None:
    w, h = size
    near = 100 + w / 2 + 11.5  # 11.5 px from the centre: inside a 24 px circle
    result = targets(
        make_packet, tmp_path, control(1, 100, 100, w, h), control(2, near, 90, 40, 40)
    )
    assert result.numbers["targets"]["undersized"] == undersized


def test_a_small_target_alone_is_fine(make_packet: PacketFactory, tmp_path: Path) -> None:
    result = targets(make_packet, tmp_path, control(1, 100, 100, 10, 10))
    assert result.numbers["targets"] == {"checked": 1, "undersized": 0}
    assert result.score == 1


def test_an_inline_link_is_the_exception(make_packet: PacketFactory, tmp_path: Path) -> None:
    paragraph = el(1, 0, "p", role="paragraph", text="Read the guide", box=(0, 90, 300, 40))
    link = control(2, 118, 100, 16, 16, role="link", parent=1)
    button = control(3, 100, 100, 16, 16)
    inline = targets(make_packet, tmp_path, paragraph, link, button)
    # The link inside a line of text is neither checked nor crowds the button.
    assert inline.numbers["targets"] == {"checked": 2, "undersized": 0}, inline.evidence
    paragraph["text"] = ""  # a link in a box without text is an ordinary target
    boxed = targets(make_packet, tmp_path, paragraph, link, button)
    assert boxed.numbers["targets"] == {"checked": 2, "undersized": 2}
    assert boxed.score == 0
    link["role"] = "button"  # only links are the exception
    paragraph["text"] = "Read the guide"
    button_in_text = targets(make_packet, tmp_path, paragraph, link, button)
    assert button_in_text.numbers["targets"]["undersized"] == 2


def test_the_crowded_targets_are_named(make_packet: PacketFactory, tmp_path: Path) -> None:
    result = targets(
        make_packet,
        tmp_path,
        control(1, 100, 100, 16, 16, testid="pair.left"),
        control(2, 118, 100, 16, 16, testid="pair.right"),
        control(3, 250, 150, 16, 16, testid="alone"),
    )
    assert result.numbers["targets"] == {"checked": 3, "undersized": 2}
    assert "pair.left" in result.evidence and "pair.right" in result.evidence
    assert "alone" not in result.evidence


@pytest.mark.parametrize(
    ("rules", "floor", "violations", "score"),
    [
        ([rule("button-name", "critical", 2)], None, {"button-name": 2}, 0),
        ([rule("image-alt", "serious")], None, {"image-alt": 1}, 0),
        ([rule("list", "moderate")], None, {}, 1),  # below the default floor
        ([rule("list", "moderate")], "moderate", {"list": 1}, 0),
        ([rule("list", "minor")], "moderate", {}, 1),
        ([rule("b", "critical"), rule("a", "serious", 3)], None, {"a": 3, "b": 1}, 0),
    ],
)
def test_axe_violations_at_or_above_the_floor_fail(
    make_packet: PacketFactory,
    tmp_path: Path,
    rules: list[dict[str, Any]],
    floor: str | None,
    violations: dict[str, int],
    score: float,
) -> None:
    settings = {"impact_floor": floor} if floor else {}
    result = accessibility(make_packet, tmp_path, axe=axe_file(tmp_path, *rules), **settings)
    assert result.numbers["axe"] == {
        "violations": violations,
        "impact_floor": floor or "serious",
    }
    assert result.score == score, result.evidence
    for rule_id, count in violations.items():  # the evidence names each failing rule
        assert f"{rule_id} ×{count}" in result.evidence


def test_axe_settings_choose_the_rules(make_packet: PacketFactory, tmp_path: Path) -> None:
    axe = axe_file(tmp_path, rule("button-name", "critical"))
    disabled = accessibility(make_packet, tmp_path, axe=axe, disable_rules=["button-name"])
    assert disabled.score == 1 and disabled.numbers["axe"]["violations"] == {}
    other_tags = accessibility(make_packet, tmp_path, axe=axe, tags=["wcag21aa"])
    assert other_tags.score == 1
    practice = axe_file(tmp_path, {**rule("region", "moderate"), "tags": ["best-practice"]})
    listed = accessibility(make_packet, tmp_path, axe=practice, best_practice_rules=["region"])
    assert listed.score == 0 and listed.numbers["axe"]["violations"] == {"region": 1}
    unlisted = accessibility(make_packet, tmp_path, axe=practice, best_practice_rules=[])
    assert unlisted.score == 1


def test_a_failure_is_0_even_without_axe(make_packet: PacketFactory, tmp_path: Path) -> None:
    result = accessibility(make_packet, tmp_path, axe=None, ids=["habits.add", "nowhere"])
    assert result.score == 0 and result.numbers["axe"] is None


def test_axe_that_did_not_finish_is_not_an_audit(
    make_packet: PacketFactory, tmp_path: Path
) -> None:
    # axe stopped at its timeout: whatever it found so far says nothing of the page.
    stopped = axe_file(tmp_path, timed_out=True, timeout_s=60)
    result = accessibility(make_packet, tmp_path, axe=stopped)
    assert result.score is None, result.evidence
    assert result.numbers["axe"] == {"timed_out": True, "impact_floor": "serious"}
    failing = accessibility(make_packet, tmp_path, axe=stopped, ids=["nowhere"])
    assert failing.score == 0  # a measured failure still fails


def _low_contrast_page() -> dict[str, Any]:
    probe = good_page()
    probe["elements"][2]["style"]["color"] = "rgb(200, 200, 200)"  # on #f5f6f8
    return probe


def test_low_contrast_text_fails(make_packet: PacketFactory, tmp_path: Path) -> None:
    result = accessibility(make_packet, tmp_path, _low_contrast_page())
    assert result.score == 0
    assert result.numbers["contrast"]["below_aa"] == 1
    assert result.numbers["contrast"]["checked"] == 3
    assert result.numbers["contrast"]["worst_ratio"] < 2
    assert f"worst {result.numbers['contrast']['worst_ratio']}:1" in result.evidence


def _unmeasurable_page() -> dict[str, Any]:
    # Text over a gradient, outside the render: its contrast cannot be measured.
    probe = good_page()
    probe["elements"][2]["style"]["background-image"] = "linear-gradient(#fff, #000)"
    probe["elements"][2]["box"] = {"x": 10, "y": 900, "width": 200, "height": 24}
    return probe


def test_text_whose_contrast_was_not_measured_is_not_passed(
    make_packet: PacketFactory, tmp_path: Path
) -> None:
    result = accessibility(make_packet, tmp_path, _unmeasurable_page())
    assert result.numbers["contrast"]["below_aa"] == 0
    assert result.numbers["contrast"]["not_measurable"] == 1
    assert result.score is None, result.evidence
    failing = accessibility(make_packet, tmp_path, _unmeasurable_page(), ids=["nowhere"])
    assert failing.score == 0


def test_a_target_small_in_one_direction_has_a_circle_too(
    make_packet: PacketFactory, tmp_path: Path
) -> None:
    # A 16 px target, and below it a 40x16 one: its box is 12 px from the first one's centre
    # (the circle does not meet it), but their centres are 20 px apart, so their circles meet.
    result = targets(
        make_packet, tmp_path, control(1, 100, 100, 16, 16), control(2, 88, 120, 40, 16)
    )
    assert result.numbers["targets"]["undersized"] == 2


def test_the_evidence_clips_long_selectors_to_60_characters(
    make_packet: PacketFactory, tmp_path: Path
) -> None:
    long = "row." + "x" * 80
    result = targets(
        make_packet,
        tmp_path,
        control(1, 100, 100, 16, 16, testid=long),
        control(2, 118, 100, 16, 16, testid="right"),
    )
    assert result.numbers["targets"]["undersized"] == 2
    where = f'[data-testid="{long}"]'
    assert clip(where, 60) + "," in result.evidence
    probe = good_page()
    probe["elements"][4].update(name="", testid=long)
    unnamed = accessibility(make_packet, tmp_path, probe)
    assert unnamed.numbers["unnamed_controls"] == 1
    assert f"({clip(where, 60)})" in unnamed.evidence


def test_the_evidence_names_three_offenders(make_packet: PacketFactory, tmp_path: Path) -> None:
    # Four unnamed, crowded 16 px buttons in a row: three of each are named, the count is 4.
    row = [control(i + 1, 100 + 18 * i, 100, 16, 16, testid=f"b{i}") for i in range(4)]
    for button in row:
        button["name"] = ""
    result = targets(make_packet, tmp_path, *row)
    assert result.numbers["unnamed_controls"] == 4
    assert result.numbers["targets"]["undersized"] == 4
    named = [f'[data-testid="b{i}"]' for i in range(4)]
    assert all(result.evidence.count(n) == 2 for n in named[:3])  # once per finding
    assert named[3] not in result.evidence


def test_text_over_an_image_is_measured_from_the_render(
    make_packet: PacketFactory, tmp_path: Path
) -> None:
    # The paragraph sits on a gradient: styles cannot say what is behind it, the render can.
    probe = good_page()
    probe["elements"][2]["style"]["background-image"] = "linear-gradient(#f5f5f5, #f5f5f5)"
    result = accessibility(make_packet, tmp_path, probe)
    assert result.numbers["contrast"]["not_measurable"] == 0
    assert result.numbers["contrast"]["below_aa"] == 0
    assert result.score == 1, result.evidence


def _chart_page(fill: str) -> dict[str, Any]:
    probe = good_page()
    svg = len(probe["elements"])
    probe["elements"].append(
        {
            **probe["elements"][1],
            "index": svg,
            "parent": 1,
            "tag": "svg",
            "id": "sales",
            "testid": "",
            "text": "",
            "role": "img",
            "name": "Sales",
            "interactive": False,
            "box": {"x": 10, "y": 200, "width": 200, "height": 100},
        }
    )
    bar = {
        "index": 0,
        "svg": svg,
        "tag": "rect",
        "path": "#north",
        "id": "north",
        "series": "north",
        "box": {"x": 20, "y": 210, "width": 30, "height": 80},
        "fill": fill,
        "stroke": "none",
    }
    probe["graphics"] = {"marks": [bar], "charts": [{"svg": svg, "role": "img", "name": "Sales"}]}
    return probe


def test_a_faint_chart_mark_fails_accessibility_naming_it(
    make_packet: PacketFactory, tmp_path: Path
) -> None:
    faint = accessibility(make_packet, tmp_path, _chart_page("rgb(240, 240, 240)"))
    assert faint.score == 0 and faint.numbers["contrast"]["in_charts"] == 1
    assert "1 in charts: #north chart mark 1.05:1" in faint.evidence
    solid = accessibility(make_packet, tmp_path, _chart_page("rgb(52, 71, 196)"))
    assert solid.score == 1, solid.evidence
    assert solid.numbers["contrast"]["in_charts"] == 0


def test_faint_text_alone_is_said_without_charts(
    make_packet: PacketFactory, tmp_path: Path
) -> None:
    probe = good_page()
    probe["elements"][2]["style"]["color"] = "rgb(240, 240, 240)"
    result = accessibility(make_packet, tmp_path, probe)
    assert result.numbers["contrast"]["in_charts"] == 0
    said = "1 text element(s) or chart mark(s) below their WCAG contrast minimum (worst 1.05:1)."
    assert result.score == 0 and result.evidence == said, result.evidence


def test_the_chart_failures_named_are_three_chart_marks_never_text(
    make_packet: PacketFactory, tmp_path: Path
) -> None:
    # Four faint bars and a faint paragraph: the paragraph counts among the failures but is
    # not a chart's, and three of the bars are named.
    probe = _chart_page("rgb(240, 240, 240)")
    (bar,) = probe["graphics"]["marks"]
    probe["graphics"]["marks"] = [
        {
            **bar,
            "index": i,
            "path": f"#m{i}",
            "id": f"m{i}",
            "box": {**bar["box"], "x": 20 + 40 * i},
        }
        for i in range(4)
    ]
    probe["elements"][2]["style"]["color"] = "rgb(240, 240, 240)"
    result = accessibility(make_packet, tmp_path, probe)
    assert result.score == 0 and result.numbers["contrast"]["in_charts"] == 4, result.evidence
    assert result.numbers["contrast"]["below_aa"] == 5
    named = ", ".join(f"#m{i} chart mark 1.05:1" for i in range(3))
    assert f"; 4 in charts: {named})" in result.evidence, result.evidence


def test_axe_does_not_apply_to_a_non_web_adapter(
    make_packet: PacketFactory, tmp_path: Path, habits_root: Path
) -> None:
    """A terminal or native UI has no markup for axe: without axe.json its spec's adapter
    decides, never the sensor's word. Web without axe stays unmeasured; axe.json, when an
    adapter writes one, still counts."""
    spec = json.loads((habits_root / HABITS_SPEC).read_text())
    spec["adapter"] = "textual"
    textual = tmp_path / "spec.json"
    textual.write_text(json.dumps(spec))
    config = ProjectConfig.model_validate({"root": "."})

    def measure(**extra: Path) -> Any:
        contract = {"a11y_contract": ["habits.add"]}
        packet = make_packet(probe=good_page(), contract=contract, extra=extra)
        return MetricJudge(config).measure(packet, ("accessibility",))["accessibility"]

    assert measure().score is None  # web, no axe: not measured
    applies = measure(spec=textual)
    assert applies.score == 1, applies.evidence
    assert applies.numbers["axe"] == {"applies": False, "adapter": "textual"}
    assert "axe not applicable" in applies.evidence
    violated = measure(spec=textual, axe=axe_file(tmp_path, rule("button-name", "critical")))
    assert violated.score == 0
