"""The metric judge's own reading of the sensor's focus walk (accessibility, WCAG 2.4.7, whatever
the gate list says) and of its dead-control probe (functional_correctness, less the spec's inert
controls), on hand-written focus.json and controls.json (no browser)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from argus.config import ProjectConfig
from argus.errors import InputError
from argus.evidence.content import clip
from argus.judge.metric import MetricJudge
from tests.judge.conftest import VISIBLE_FOCUS, PacketFactory
from tests.judge.test_metric import good_page
from tests.judge.test_metric_accessibility import axe_file
from tests.support.habits import HABITS_SPEC, copy_habits


@pytest.fixture(scope="module")
def habits_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_habits(tmp_path_factory.mktemp("habits"))


def _stop(testid: str, changed: int | None, x: float = 10) -> dict[str, Any]:
    box = {"x": x, "y": 10, "width": 80, "height": 32}
    return {"id": "", "testid": testid, "tag": "button", "box": box, "changed_pixels": changed}


def _accessibility(make_packet: PacketFactory, tmp_path: Path, focus: Any) -> Any:
    packet = make_packet(
        probe=good_page(),
        contract={"a11y_contract": ["habits.add"]},
        extra={"axe": axe_file(tmp_path)},
        focus=focus,
    )
    config = ProjectConfig.model_validate({"root": "."})
    return MetricJudge(config).measure(packet, ("accessibility",))["accessibility"]


def test_a_focus_ring_removed_scores_accessibility_0_without_the_gate(
    make_packet: PacketFactory, tmp_path: Path
) -> None:
    walk = {"version": 1, "pad": 8, "stops": [_stop("habits.add", 120), _stop("x", 0, 200)]}
    result = _accessibility(make_packet, tmp_path, walk)
    assert result.score == 0, result.evidence
    assert "focus" in result.evidence and '[data-testid="x"]' in result.evidence
    assert result.numbers["focus_visible"]["invisible"] == 1
    visible = _accessibility(make_packet, tmp_path, VISIBLE_FOCUS)
    assert visible.score == 1, visible.evidence
    assert visible.numbers["focus_visible"] == {
        "stops": 1, "compared": 1, "not_compared": 0, "invisible": 0,
    }  # fmt: skip


def test_no_focus_walk_is_not_a_visible_focus(make_packet: PacketFactory, tmp_path: Path) -> None:
    result = _accessibility(make_packet, tmp_path, None)
    assert result.score is None and "focus.json" in result.evidence
    off_screen = {"version": 1, "pad": 8, "stops": [_stop("habits.add", None)]}
    result = _accessibility(make_packet, tmp_path, off_screen)
    assert result.score is None and "no focus stop was on screen" in result.evidence


def test_a_page_nothing_can_focus_has_no_indicator_to_miss(
    make_packet: PacketFactory, tmp_path: Path
) -> None:
    result = _accessibility(make_packet, tmp_path, {"version": 1, "pad": 8, "stops": []})
    assert result.score == 1, result.evidence
    assert "no element takes the keyboard focus" in result.evidence


def test_a_walk_not_compared_still_gives_its_numbers(
    make_packet: PacketFactory, tmp_path: Path
) -> None:
    nothing = _accessibility(make_packet, tmp_path, {"version": 1, "pad": 8, "stops": []})
    assert nothing.numbers["focus_visible"] == {
        "stops": 0, "compared": 0, "not_compared": 0, "invisible": 0,
    }  # fmt: skip
    off_screen = {"version": 1, "pad": 8, "stops": [_stop("habits.add", None)]}
    result = _accessibility(make_packet, tmp_path, off_screen)
    assert result.numbers["focus_visible"] == {
        "stops": 1, "compared": 0, "not_compared": 1, "invisible": 0,
    }  # fmt: skip


def test_invisible_focus_stops_are_named_three_at_most_clipped_to_60(
    make_packet: PacketFactory, tmp_path: Path
) -> None:
    long = "habits." + "x" * 70
    stops = [_stop(f"{i}{long}", 0, 10 + 100 * i) for i in range(4)]
    result = _accessibility(make_packet, tmp_path, {"version": 1, "pad": 8, "stops": stops})
    assert result.score == 0 and result.numbers["focus_visible"]["invisible"] == 4
    named = ", ".join(clip(f'[data-testid="{i}{long}"]', 60) for i in range(3))
    assert f"(WCAG 2.4.7: {named})" in result.evidence, result.evidence


def test_a_malformed_focus_walk_is_refused_naming_its_file(
    make_packet: PacketFactory, tmp_path: Path
) -> None:
    with pytest.raises(InputError, match=r"accessibility: \S+focus\.json: 'stops' must be a list"):
        _accessibility(make_packet, tmp_path, {"version": 1, "pad": 8, "stops": "all"})


def _control(testid: str, outcome: str, parent: str = "habits.list") -> dict[str, Any]:
    chain = [
        {"id": "", "testid": testid, "tag": "button"},
        {"id": "", "testid": parent, "tag": "ul"},
    ]
    return {
        "id": "", "testid": testid, "tag": "button", "role": "button", "name": "Remove",
        "selector": f'[data-testid="{testid}"]', "chain": chain, "outcome": outcome,
        "effects": ["dom"] if outcome == "live" else [],
    }  # fmt: skip


def _functional(
    make_packet: PacketFactory, tmp_path: Path, controls: Any, inert: list[str] | None = None
) -> Any:
    path = tmp_path / f"controls-{len(list(tmp_path.glob('controls-*')))}.json"
    path.write_text(json.dumps(controls), "utf-8")
    contract: dict[str, Any] = {"expectations": None}
    if inert is not None:
        contract["inert"] = inert
    packet = make_packet(
        probe=good_page(), console={"messages": [], "page_errors": []},
        contract=contract, extra={"controls": path},
    )  # fmt: skip
    config = ProjectConfig.model_validate({"root": "."})
    return MetricJudge(config).measure(packet, ("functional_correctness",))[
        "functional_correctness"
    ]


def _probe(*controls: dict[str, Any], capped: bool = False) -> dict[str, Any]:
    found = len(controls) + (5 if capped else 0)
    limit = len(controls) if capped else 12
    return {"version": 1, "url": "u", "found": found, "limit": limit, "capped": capped,
            "controls": list(controls)}  # fmt: skip


def test_a_remove_button_that_does_nothing_fails_functional_correctness(
    make_packet: PacketFactory, tmp_path: Path
) -> None:
    controls = _probe(_control("row.a.delete", "live"), _control("row.b.delete", "dead"))
    result = _functional(make_packet, tmp_path, controls)
    assert result.score == 0, result.evidence
    assert '[data-testid="row.b.delete"]' in result.evidence
    assert "row.a.delete" not in result.evidence
    assert "Remove" not in result.evidence  # page text is never quoted
    assert result.numbers["controls"] == {
        "measured": True, "found": 2, "activated": 2, "dead": 1, "declared_inert": 0,
        "capped": False, "ambient": [],
    }  # fmt: skip


def test_what_a_click_on_the_body_did_is_shown_beside_the_dead_controls(
    make_packet: PacketFactory, tmp_path: Path
) -> None:
    ambient = {"measured": True, "effects": ["request"], "requests": ["POST /collect"]}
    dead = {**_control("row.b.delete", "dead"), "not_counted": ["request"]}
    controls = {**_probe(_control("row.a.delete", "live"), dead), "version": 2}
    result = _functional(make_packet, tmp_path, {**controls, "ambient": ambient})
    assert result.score == 0 and "row.b.delete" in result.evidence
    assert result.numbers["controls"]["ambient"] == ["request", "POST /collect"]


def test_working_controls_alone_measure_nothing(make_packet: PacketFactory, tmp_path: Path) -> None:
    result = _functional(make_packet, tmp_path, _probe(_control("row.a.delete", "live")))
    assert result.score is None  # no expectations, clean console: still abstains
    assert result.numbers["controls"]["dead"] == 0


@pytest.mark.parametrize(
    "inert", [['[data-testid="row.b.delete"]'], ["[data-testid=habits.list]"], ["ul"]]
)
def test_a_control_the_spec_declares_inert_is_no_finding(
    make_packet: PacketFactory, tmp_path: Path, inert: list[str]
) -> None:
    controls = _probe(_control("row.b.delete", "dead"))
    result = _functional(make_packet, tmp_path, controls, inert=inert)
    assert result.score is None, result.evidence
    assert result.numbers["controls"]["declared_inert"] == 1
    # Another control's selector excuses nothing.
    other = _functional(make_packet, tmp_path, controls, inert=["#elsewhere"])
    assert other.score == 0


def test_a_probe_that_ran_but_failed_leaves_functional_correctness_unverified(
    make_packet: PacketFactory, tmp_path: Path
) -> None:
    failed = {"version": 1, "url": "u", "error": "the copy kept loading", "controls": []}
    result = _functional(make_packet, tmp_path, failed)
    assert result.score is None, result.evidence
    assert "the dead-control probe failed (the copy kept loading)" in result.evidence
    assert result.numbers["controls"] == {
        "measured": False, "why": "the dead-control probe failed (the copy kept loading)",
    }  # fmt: skip


def test_a_capped_probe_says_how_many_were_activated(
    make_packet: PacketFactory, tmp_path: Path
) -> None:
    result = _functional(make_packet, tmp_path, _probe(_control("b", "dead"), capped=True))
    assert result.score == 0 and "1 of 6 controls activated" in result.evidence


def _forged(**changes: Any) -> dict[str, Any]:
    probe = _probe(_control("row.a.delete", "live"), _control("row.b.delete", "dead"))
    return {**probe, **changes}


def _entry(**changes: Any) -> dict[str, Any]:
    return _forged(
        controls=[_control("row.a.delete", "live"), {**_control("b", "dead"), **changes}]
    )


# controls.json that is not a whole result of the probe: each is read as "dead controls were
# not measured", never as "none dead" (nor as the dead one it may still list).
UNMEASURED = {
    "missing": (None, "the packet has no controls.json"),
    "failed": (
        {"version": 1, "url": "u", "error": "Timeout 15000ms exceeded", "controls": []},
        "the dead-control probe failed (Timeout 15000ms exceeded)",
    ),
    "failed, no reason": (
        {**_forged(), "error": None},
        "the dead-control probe failed (no reason given)",
    ),
    "not run": (
        {"version": 1, "ran": False, "why": "no reader: gates only (argus gates)"},
        "the dead-control probe did not run (no reader: gates only (argus gates))",
    ),
    "not an object": ([_control("b", "dead")], "controls.json is not a JSON object"),
    "another version": (_forged(version=3), "controls.json has version 3, not 1 or 2"),
    "version 2, no ambient": (_forged(version=2), "ambient is not what a click on the page did"),
    "ambient as text": (
        _forged(version=2, ambient={"measured": True, "effects": "dom", "requests": []}),
        "ambient is not what a click on the page did",
    ),
    "found as text": (_forged(found="2"), "found, limit and capped are not"),
    "limit negative": (_forged(limit=-1), "found, limit and capped are not"),
    "capped as text": (_forged(capped="no"), "found, limit and capped are not"),
    "capped wrongly": (_forged(capped=True), "says capped True with 2 found"),
    "controls as text": (_forged(controls="x"), "controls are not a list"),
    "partial": (
        _forged(found=3),
        "lists 2 control(s) where the probe was to activate 3: a partial result",
    ),
    "too many": (_forged(found=1), "lists 2 control(s) where the probe was to activate 1"),
    "control as text": (_forged(controls=["x", "y"]), "a control that is not an object"),
    "unknown outcome": (_entry(outcome="fine"), "a control whose outcome is 'fine'"),
    "effects as text": (_entry(effects="dom"), "effects are not a list of names"),
    "live with no effect": (
        _forged(controls=[{**_control("a", "live"), "effects": []}, _control("b", "dead")]),
        "a live control with no effect",
    ),
    "dead with effects": (_entry(effects=["dom"]), "a dead control with effects"),
    "no selector": (_entry(selector=None), "a control with no selector"),
}


def _judged(make_packet: PacketFactory, console: dict[str, Any], controls: Any) -> Any:
    packet = make_packet(
        probe=good_page(), console=console,
        contract={"expectations": {"counts": [{"role": "heading", "equals": 1}]}},
        controls=controls,
    )  # fmt: skip
    config = ProjectConfig.model_validate({"root": "."})
    return MetricJudge(config).measure(packet, ("functional_correctness",))[
        "functional_correctness"
    ]


@pytest.mark.parametrize("case", list(UNMEASURED))
def test_a_probe_result_that_is_not_whole_is_never_no_dead_controls(
    make_packet: PacketFactory, case: str
) -> None:
    controls, why = UNMEASURED[case]
    clean = {"messages": [], "page_errors": []}
    result = _judged(make_packet, clean, controls)
    # Every expectation holds, and the dead control a forged file may list is not read: the
    # dimension is unverified, naming why, not 1 and not 0.
    assert result.score is None, result.evidence
    assert "1 machine check(s) hold" in result.evidence
    assert why in result.evidence and "so dead controls were not measured" in result.evidence
    assert result.numbers["controls"]["measured"] is False
    assert why in result.numbers["controls"]["why"]
    # Another failure still fails it, and the evidence says what was not measured.
    broken = _judged(make_packet, {"messages": [], "page_errors": [{"text": "x"}]}, controls)
    assert broken.score == 0, broken.evidence
    assert "Not measured: " in broken.evidence and why in broken.evidence


def test_a_whole_probe_result_is_read(make_packet: PacketFactory) -> None:
    clean = {"messages": [], "page_errors": []}
    assert _judged(make_packet, clean, _forged()).score == 0  # the dead control fails it
    live = _forged(controls=[_control("row.a.delete", "live")], found=1)
    assert _judged(make_packet, clean, live).score == 1


NOT_RUN = {"version": 1, "ran": False, "why": "no reader: gates only (argus gates)", "controls": []}


def test_a_probe_left_out_leaves_functional_correctness_unverified(
    make_packet: PacketFactory, tmp_path: Path
) -> None:
    result = _functional(make_packet, tmp_path, NOT_RUN)
    assert result.score is None, result.evidence
    assert "dead-control probe did not run" in result.evidence
    assert "no reader: gates only" in result.evidence
    assert result.numbers["controls"]["measured"] is False


def test_a_probe_left_out_abstains_even_when_every_expectation_holds(
    make_packet: PacketFactory, tmp_path: Path
) -> None:
    def judged(controls: Any) -> Any:
        path = tmp_path / f"c-{len(list(tmp_path.glob('c-*')))}.json"
        path.write_text(json.dumps(controls), "utf-8")
        packet = make_packet(
            probe=good_page(), console={"messages": [], "page_errors": []},
            contract={"expectations": {"counts": [{"role": "heading", "equals": 1}]}},
            extra={"controls": path},
        )  # fmt: skip
        config = ProjectConfig.model_validate({"root": "."})
        return MetricJudge(config).measure(packet, ("functional_correctness",))[
            "functional_correctness"
        ]

    ran = judged(_probe(_control("row.a.delete", "live")))
    assert ran.score == 1, ran.evidence  # the probe ran and found nothing dead: as before
    skipped = judged(NOT_RUN)
    assert skipped.score is None, skipped.evidence
    assert "1 machine check(s) hold" in skipped.evidence
    assert "dead-control probe did not run" in skipped.evidence


def test_a_probe_left_out_does_not_hide_other_failures(
    make_packet: PacketFactory, tmp_path: Path
) -> None:
    path = tmp_path / "controls.json"
    path.write_text(json.dumps(NOT_RUN), "utf-8")
    console = {"messages": [], "page_errors": [{"text": "TypeError: x"}]}
    packet = make_packet(
        probe=good_page(), console=console, contract={"expectations": None},
        extra={"controls": path},
    )  # fmt: skip
    config = ProjectConfig.model_validate({"root": "."})
    result = MetricJudge(config).measure(packet, ("functional_correctness",))[
        "functional_correctness"
    ]
    assert result.score == 0, result.evidence
    assert "Not measured: the dead-control probe did not run" in result.evidence


def test_the_probe_does_not_apply_to_a_non_web_adapter_that_did_not_run_it(
    make_packet: PacketFactory, tmp_path: Path, habits_root: Path
) -> None:
    """A terminal or native UI has no page for the probe to activate: its spec's adapter
    decides (never the sensor's word), as for axe. A web view without it stays unverified; a
    controls.json such an adapter does write is read like any other."""
    spec = json.loads((habits_root / HABITS_SPEC).read_text())
    spec["adapter"] = "textual"
    textual = tmp_path / "spec.json"
    textual.write_text(json.dumps(spec))
    not_run = tmp_path / "not-run.json"
    not_run.write_text(json.dumps(NOT_RUN))
    failed = tmp_path / "failed.json"
    failed.write_text(json.dumps({"version": 1, "error": "boom", "controls": []}))
    config = ProjectConfig.model_validate({"root": "."})

    def measure(**extra: Path) -> Any:
        packet = make_packet(
            probe=good_page(), console={"messages": [], "page_errors": []},
            contract={"expectations": {"counts": [{"role": "heading", "equals": 1}]}},
            controls=None, extra=extra,
        )  # fmt: skip
        return MetricJudge(config).measure(packet, ("functional_correctness",))[
            "functional_correctness"
        ]

    assert measure().score is None  # web, no controls.json: not measured
    assert measure(controls=not_run).score is None  # web, left out: not measured
    for extra in ({"spec": textual}, {"spec": textual, "controls": not_run}):
        applies = measure(**extra)
        assert applies.score == 1, applies.evidence
        assert applies.numbers["controls"] == {
            "measured": False, "applies": False, "adapter": "textual",
        }  # fmt: skip
    assert measure(spec=textual, controls=failed).score is None


SAID = "control(s) change nothing when activated (no DOM, focus, URL, dialog or request): "
INERT_HINT = "; mark one the spec means to do nothing as inert"


def test_the_dead_controls_are_named_three_at_most(
    make_packet: PacketFactory, tmp_path: Path
) -> None:
    three = [_control(f"row.{n}.delete", "dead") for n in "abc"]
    result = _functional(make_packet, tmp_path, _probe(*three))
    listed = ", ".join(f'[data-testid="row.{n}.delete"]' for n in "abc")
    assert f"3 {SAID}{listed}{INERT_HINT}" in result.evidence
    four = _probe(*three, _control("row.d.delete", "dead"))
    result = _functional(make_packet, tmp_path, four)
    assert f"4 {SAID}{listed} and 1 more{INERT_HINT}" in result.evidence
    assert "row.d.delete" not in result.evidence


def test_a_long_selector_is_cut_to_60_characters(
    make_packet: PacketFactory, tmp_path: Path
) -> None:
    long = _control("row." + "x" * 80, "dead")
    result = _functional(make_packet, tmp_path, _probe(long))
    listed = result.evidence.split(SAID, 1)[1].split(INERT_HINT, 1)[0]
    assert len(listed) == 60 and listed.startswith('[data-testid="row.xxx')
    assert long["selector"] not in result.evidence


def test_counts_at_their_edges_are_a_whole_result(
    make_packet: PacketFactory, tmp_path: Path
) -> None:
    """A page with no controls (found 0), a probe told to activate none (limit 0: [sense]
    max_controls = 0) and one that found exactly its limit are whole results."""
    none = _functional(make_packet, tmp_path, {**_probe(), "found": 0})
    assert none.numbers["controls"] == {
        "measured": True, "found": 0, "activated": 0, "dead": 0, "declared_inert": 0,
        "capped": False, "ambient": [],
    }  # fmt: skip
    off = {**_probe(), "found": 3, "limit": 0, "capped": True}
    assert _functional(make_packet, tmp_path, off).numbers["controls"]["measured"] is True
    full = _forged(limit=2)  # found 2 of at most 2: not capped
    result = _functional(make_packet, tmp_path, full)
    assert result.score == 0 and result.numbers["controls"]["capped"] is False
    assert "controls activated" not in result.evidence


def test_a_control_without_its_chain_is_excused_by_its_own_selector(
    make_packet: PacketFactory, tmp_path: Path
) -> None:
    bare = {k: v for k, v in _control("row.b.delete", "dead").items() if k != "chain"}
    result = _functional(make_packet, tmp_path, _probe(bare), inert=["[data-testid=row.b.delete]"])
    assert result.score is None and result.numbers["controls"]["declared_inert"] == 1
    assert _functional(make_packet, tmp_path, _probe(bare), inert=["ul"]).score == 0
