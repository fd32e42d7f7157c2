"""Loop state: streak, attempts, freeze, budget, unchanged confirms, gate-fails, decisions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from argus.errors import InputError, StateError
from argus.loop.records.state import (
    LoopSettings,
    LoopState,
    init_state,
    load_state,
    save_state,
    state_path,
)
from argus.spec.model import View
from argus.verdict import NormalizedVerdict, normalize_verdict
from tests.verdict.helpers import RUBRIC, verdict

VIEW = View("habits", "list", "populated", "light")
SETTINGS = LoopSettings.from_rubric(RUBRIC)  # 2 passes, 3 attempts, 12 iterations


def fresh(settings: LoopSettings = SETTINGS) -> LoopState:
    return LoopState(VIEW.feature, VIEW.target, VIEW.state, VIEW.appearance, settings)


def judged(
    state: LoopState, scores: dict[str, float | None] | None = None, **extra: Any
) -> NormalizedVerdict:
    raw = verdict(scores, iteration=state.iteration + 1, **extra)
    return normalize_verdict(raw, RUBRIC)


def run(state: LoopState, steps: list[Any]) -> LoopState:
    """Apply steps: a dict of scores (judge), "unchanged", or a list of red gate names."""
    for step in steps:
        if step == "unchanged":
            state = state.unchanged()
        elif isinstance(step, list):
            state = state.gate_fail(step)
        else:
            state = state.record(judged(state, step))
    return state


FAIL_SPACING = {"layout_spacing": 0.5}
FAIL_TYPE = {"typography": 0}

SEQUENCES = [
    ("nothing yet", [], 0, 0, "implement", ()),
    ("one pass", [{}], 1, 1, "confirm", ()),
    ("two passes sign off", [{}, {}], 2, 2, "signoff", ()),
    ("pass then unchanged signs off", [{}, "unchanged"], 2, 2, "signoff", ()),
    ("fail resets the streak", [{}, FAIL_SPACING], 2, 0, "fix_dimensions", ("layout_spacing",)),
    ("fail then pass", [FAIL_SPACING, {}], 2, 1, "confirm", ()),
    ("red gates reset the streak", [{}, ["axe"]], 2, 0, "fix_gates", ()),
    (
        "two dims failing",
        [{**FAIL_SPACING, **FAIL_TYPE}],
        1,
        0,
        "fix_dimensions",
        ("layout_spacing", "typography"),
    ),
]


@pytest.mark.parametrize(
    ("label", "steps", "iteration", "streak", "action", "fix"),
    SEQUENCES,
    ids=[s[0] for s in SEQUENCES],
)
def test_sequences(
    label: str, steps: list[Any], iteration: int, streak: int, action: str, fix: tuple[str, ...]
) -> None:
    state = run(fresh(), steps)
    decision = state.decision()
    assert (state.iteration, state.consecutive_passes) == (iteration, streak)
    assert decision.next_action == action
    assert decision.fix_dimensions == fix
    assert decision.should_signoff is (action == "signoff")


def test_three_failed_attempts_freeze_the_dimension() -> None:
    state = run(fresh(), [FAIL_SPACING, FAIL_SPACING])
    assert state.attempts == {"layout_spacing": 2}
    assert state.frozen == ()
    assert state.decision().fix_dimensions == ("layout_spacing",)

    state = run(state, [FAIL_SPACING])
    decision = state.decision()
    assert state.frozen == ("layout_spacing",)
    assert decision.newly_frozen == ("layout_spacing",)
    assert decision.fix_dimensions == ()  # the implementer is no longer asked for it
    assert decision.concerns == ("frozen: layout_spacing",)
    assert state.consecutive_passes == 1  # only frozen dimensions fail: converging, with concerns
    assert decision.next_action == "confirm"

    state = run(state, [FAIL_SPACING])
    decision = state.decision()
    assert decision.should_signoff and decision.newly_frozen == ()
    assert decision.concerns == ("frozen: layout_spacing",)
    assert state.attempts == {"layout_spacing": 4}


def test_frozen_dimension_does_not_excuse_another_failure() -> None:
    state = run(fresh(), [FAIL_SPACING] * 3 + [{**FAIL_SPACING, **FAIL_TYPE}])
    assert state.consecutive_passes == 0
    assert state.decision().fix_dimensions == ("typography",)


def test_frozen_dimension_that_later_passes_is_no_concern() -> None:
    state = run(fresh(), [FAIL_SPACING] * 3 + [{}])
    decision = state.decision()
    assert state.frozen == ("layout_spacing",)
    assert decision.concerns == ()
    assert decision.should_signoff


def test_budget_is_exhausted_and_then_refuses_steps() -> None:
    state = run(fresh(LoopSettings(2, 3, 3)), [FAIL_TYPE, ["build"], FAIL_TYPE])
    decision = state.decision()
    assert decision.budget_exhausted and decision.next_action == "stop_budget"
    assert not decision.should_signoff
    with pytest.raises(StateError, match="used its budget of 3"):
        state.gate_fail(["build"])


def test_sign_off_on_the_last_budgeted_iteration_is_not_budget_exhaustion() -> None:
    state = run(fresh(LoopSettings(2, 3, 2)), [{}, {}])
    assert state.decision().should_signoff
    assert not state.decision().budget_exhausted


def test_signed_off_state_refuses_more_steps() -> None:
    state = run(fresh(), [{}, {}])
    with pytest.raises(StateError, match="already has 2 consecutive passes"):
        state.record(judged(state))


@pytest.mark.parametrize(
    ("label", "steps", "last"),
    [
        ("nothing recorded", [], "nothing recorded yet"),
        ("after a fail", [FAIL_SPACING], "fail"),
        ("after a gate-fail", [{}, ["console"]], "gate-fail"),
        ("after an inconclusive", [{"__inconclusive__": 1}], "fail"),
    ],
)
def test_unchanged_only_confirms_a_pass(label: str, steps: list[Any], last: str) -> None:
    state = fresh()
    for step in steps:
        if isinstance(step, dict) and "__inconclusive__" in step:
            state = state.record(judged(state, status="inconclusive", error="timed out"))
        else:
            state = run(state, [step])
    with pytest.raises(StateError, match=f"last step was {last}"):
        state.unchanged()


def test_unchanged_chain_counts_when_more_passes_are_required() -> None:
    state = run(fresh(LoopSettings(3, 3, 12)), [{}, "unchanged", "unchanged"])
    assert state.decision().should_signoff


def test_gate_fail_remembers_red_gates() -> None:
    state = run(fresh(), [["axe", "console", "axe"]])
    decision = state.decision()
    assert state.red_gates == ("axe", "console")
    assert decision.red_gates == ("axe", "console")
    assert decision.fix_dimensions == ()
    with pytest.raises(StateError, match="needs the names"):
        state.gate_fail([])
    assert run(state, [{}]).red_gates == ()


def test_inconclusive_never_passes_and_counts_no_attempts() -> None:
    state = run(fresh(), [{}])
    state = state.record(judged(state, FAIL_TYPE, status="inconclusive", error="bad JSON twice"))
    decision = state.decision()
    assert state.consecutive_passes == 0
    assert state.attempts == {}
    assert decision.next_action == "retry_judge"
    assert decision.fix_dimensions == ()


def test_unverified_converges_and_is_reported_as_a_concern() -> None:
    state = run(fresh(), [{"accessibility": None}, "unchanged"])
    decision = state.decision()
    assert decision.should_signoff
    assert decision.unverified == ("accessibility",)
    assert decision.concerns == ("unverified: accessibility",)


def test_after_red_gates_the_last_verdicts_unverified_dimensions_are_not_reported() -> None:
    # The render the verdict judged is gone: what it left unverified says nothing of this one.
    judged_once = run(fresh(), [{"accessibility": None}])
    assert judged_once.decision().unverified == ("accessibility",)  # a pass on this render
    state = judged_once.gate_fail(["axe"])
    decision = state.decision()
    assert decision.next_action == "fix_gates"
    assert decision.unverified == ()
    assert decision.concerns == ()


def test_verdict_for_another_iteration_is_refused() -> None:
    state = run(fresh(), [{}])
    stale = normalize_verdict(verdict(iteration=1), RUBRIC)
    with pytest.raises(StateError, match="record each verdict once"):
        state.record(stale)  # replaying the same verdict must not count a second pass


def test_verdict_for_another_view_is_refused() -> None:
    other = normalize_verdict(verdict(view=("list", "empty", "light")), RUBRIC)
    with pytest.raises(StateError, match="verdict is for habits/list/empty/light"):
        fresh().record(other)


def test_reference_source_is_adopted_then_enforced() -> None:
    state = fresh()
    state = state.record(judged(state, reference_source="candidate"))
    assert state.reference_source == "candidate"
    with pytest.raises(StateError, match="human reference"):
        state.record(judged(state, reference_source="human"))


# -- files ----------------------------------------------------------------------------------


def test_state_path_is_per_view_under_argus_runs(tmp_path: Path) -> None:
    expected = tmp_path / "argus/specs/habits/.argus-runs/list-populated-light/state.json"
    assert state_path(tmp_path, VIEW) == expected


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    state = run(fresh(), [FAIL_SPACING, ["axe"], {"accessibility": None}])
    saved = save_state(path, state)
    loaded = load_state(path)
    assert loaded == saved
    assert loaded.decision() == state.decision()


def test_init_creates_resumes_and_resets(tmp_path: Path) -> None:
    path = state_path(tmp_path, VIEW)
    created = init_state(path, VIEW, SETTINGS, reference_source="human")
    assert path.is_file() and created.iteration == 0
    save_state(path, run(created, [{}]))
    resumed = init_state(path, VIEW, SETTINGS)
    assert resumed.iteration == 1 and resumed.reference_source == "human"
    reset = init_state(path, VIEW, SETTINGS, reset=True)
    assert reset.iteration == 0
    with pytest.raises(StateError, match="holds the state of habits/list/populated/light"):
        init_state(path, View("habits", "list", "empty", "dark"), SETTINGS)


def test_missing_state_is_a_state_error(tmp_path: Path) -> None:
    with pytest.raises(StateError, match="run 'argus state init' first"):
        load_state(tmp_path / "state.json")


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        ('{"feature": "habits", "tar', "not valid JSON"),
        ("[]", "state.json"),
        ('{"feature": "habits"}', "state.json"),
        (None, "corrupt loop state"),
    ],
)
def test_corrupt_state_is_an_input_error_naming_the_file(
    tmp_path: Path, content: str | None, needle: str
) -> None:
    path = tmp_path / "state.json"
    if content is None:  # passes the seed-shaped schema, but our settings are gone
        save_state(path, fresh())
        content = path.read_text().replace('"settings"', '"settingz"')
    path.write_text(content)
    with pytest.raises(InputError) as info:
        load_state(path)
    assert str(path) in str(info.value) and needle in str(info.value)
    assert "\n" not in str(info.value)


def _saved(tmp_path: Path, state: LoopState | None = None) -> tuple[Path, dict[str, Any]]:
    path = tmp_path / "state.json"
    save_state(path, state or fresh())
    return path, json.loads(path.read_text("utf-8"))


@pytest.mark.parametrize(
    "corrupt",
    [
        pytest.param(lambda d: d.update(version=2), id="newer version"),
        pytest.param(lambda d: d.update(version=0), id="older version"),
        pytest.param(lambda d: d.pop("version"), id="no version"),
        pytest.param(lambda d: d.update(red_gates="axe"), id="red_gates not a list"),
        pytest.param(lambda d: d.update(red_gates=[1]), id="red_gates not names"),
        pytest.param(lambda d: d.update(newly_frozen="typography"), id="newly_frozen not a list"),
        pytest.param(lambda d: d["settings"].update(max_iterations=0), id="zero budget"),
        pytest.param(
            lambda d: d["settings"].update(consecutive_passes_required=0), id="zero passes"
        ),
        pytest.param(
            lambda d: d["settings"].update(max_attempts_per_dimension=0), id="zero attempts"
        ),
        pytest.param(lambda d: d["settings"].update(max_iterations=2.5), id="fractional budget"),
        pytest.param(lambda d: d["settings"].update(max_iterations="12"), id="budget as text"),
        pytest.param(lambda d: d["settings"].pop("max_iterations"), id="budget missing"),
        pytest.param(lambda d: d.update(settings=[2, 3, 12]), id="settings not an object"),
        pytest.param(lambda d: d.update(state=""), id="empty state"),
        pytest.param(lambda d: d.update(appearance=""), id="empty appearance"),
        pytest.param(lambda d: d.update(appearance=None), id="no appearance"),
        pytest.param(
            lambda d: d.update(last_verdict={"iteration": 1, "outcome": "great"}),
            id="unknown outcome",
        ),
        pytest.param(
            lambda d: d.update(last_verdict={"iteration": "1", "outcome": "pass"}),
            id="iteration as text",
        ),
        pytest.param(lambda d: d.update(last_verdict=[1, "pass"]), id="last_verdict not an object"),
        pytest.param(
            lambda d: d.update(
                last_verdict={"iteration": 1, "outcome": "fail", "failed_dimensions": "typography"}
            ),
            id="failed_dimensions not a list",
        ),
        pytest.param(
            lambda d: d.update(
                last_verdict={"iteration": 1, "outcome": "pass", "corrections": "all_pass"}
            ),
            id="corrections not a list",
        ),
    ],
)
def test_a_state_file_with_a_wrong_field_is_refused(tmp_path: Path, corrupt: Any) -> None:
    path, data = _saved(tmp_path)
    corrupt(data)
    path.write_text(json.dumps(data), "utf-8")
    with pytest.raises(InputError) as info:
        load_state(path)
    assert str(path) in str(info.value) and "\n" not in str(info.value)


def test_a_state_file_round_trips_every_field(tmp_path: Path) -> None:
    state = run(fresh(LoopSettings(3, 2, 9)), [FAIL_TYPE, ["axe", "build"], FAIL_TYPE, {}])
    path, _ = _saved(tmp_path, state)
    loaded = load_state(path)
    assert loaded.settings == LoopSettings(3, 2, 9)
    assert (loaded.iteration, loaded.consecutive_passes) == (4, 2)  # frozen at 2 attempts
    assert loaded.frozen == ("typography",) and loaded.attempts == {"typography": 2}
    assert loaded.last_outcome == "pass" and loaded.red_gates == ()
    assert loaded.last_verdict is not None and loaded.last_verdict.iteration == 4
    assert loaded.last_verdict.failed_dimensions == ()
    assert loaded.to_json() == load_state(path).to_json()
    gated = run(fresh(), [["axe", "axe", "build"]])
    path, _ = _saved(tmp_path, gated)
    assert load_state(path).red_gates == ("axe", "build")


def test_the_budget_boundary() -> None:
    # One iteration short of the budget the view is still open; at the budget it is not.
    short = run(fresh(LoopSettings(2, 3, 3)), [FAIL_TYPE, FAIL_SPACING])
    assert (short.iteration, short.budget_exhausted) == (2, False)
    assert short.decision().next_action == "fix_dimensions"
    spent = short.gate_fail(["build"])
    assert spent.budget_exhausted and spent.decision().next_action == "stop_budget"
    assert spent.decision().max_iterations == 3
    with pytest.raises(StateError):
        spent.record(judged(spent))
    with pytest.raises(StateError):
        spent.unchanged()
    # A budget of one iteration is allowed; none is refused.
    assert LoopSettings.from_rubric(RUBRIC, max_iterations=1).max_iterations == 1
    with pytest.raises(InputError):
        LoopSettings.from_rubric(RUBRIC, max_iterations=0)
    assert LoopSettings.from_rubric(RUBRIC).max_iterations == RUBRIC.max_iterations_default


def test_the_streak_boundary_and_the_freeze_boundary() -> None:
    one_short = run(fresh(LoopSettings(3, 2, 12)), [{}, {}])
    assert not one_short.should_signoff and one_short.decision().next_action == "confirm"
    assert run(one_short, [{}]).decision().next_action == "signoff"
    once = run(fresh(LoopSettings(2, 2, 12)), [FAIL_TYPE])
    assert once.frozen == () and once.decision().fix_dimensions == ("typography",)
    twice = run(once, [FAIL_TYPE])
    assert twice.frozen == ("typography",) and twice.newly_frozen == ("typography",)
    assert twice.consecutive_passes == 1 and twice.decision().fix_dimensions == ()
    assert twice.decision().concerns == ("frozen: typography",)
    again = run(twice, [FAIL_TYPE])
    assert again.newly_frozen == () and again.attempts == {"typography": 3}


def test_settings_come_from_the_rubric() -> None:
    assert LoopSettings.from_rubric(RUBRIC) == LoopSettings(
        RUBRIC.consecutive_passes_required,
        RUBRIC.max_attempts_per_dimension,
        RUBRIC.max_iterations_default,
    )
    assert LoopSettings.from_rubric(RUBRIC, 5) == LoopSettings(
        RUBRIC.consecutive_passes_required, RUBRIC.max_attempts_per_dimension, 5
    )


def test_the_decision_in_full() -> None:
    state = run(fresh(LoopSettings(3, 2, 12)), [FAIL_TYPE, {**FAIL_TYPE, **FAIL_SPACING}])
    assert state.decision().to_json() == {
        "next_action": "fix_dimensions",
        "should_signoff": False,
        "budget_exhausted": False,
        "fix_dimensions": ["layout_spacing"],
        "red_gates": [],
        "frozen": ["typography"],
        "newly_frozen": ["typography"],
        "unverified": [],
        "concerns": ["frozen: typography"],
        "consecutive_passes": 0,
        "required_passes": 3,
        "iteration": 2,
        "max_iterations": 12,
    }


def test_each_step_clears_what_the_last_one_reported() -> None:
    # A converged verdict that freezes a dimension, then an unchanged confirm: the confirm
    # freezes nothing new and names no red gates.
    frozen = run(fresh(LoopSettings(3, 1, 12)), [FAIL_TYPE])
    assert frozen.newly_frozen == ("typography",) and frozen.last_outcome == "pass"
    confirmed = frozen.unchanged()
    assert confirmed.last_outcome == "unchanged" and confirmed.newly_frozen == ()
    assert confirmed.red_gates == () and confirmed.to_json()["red_gates"] == []
    assert confirmed.consecutive_passes == 2 and confirmed.iteration == 2
    gated = frozen.gate_fail(["axe"])
    assert gated.newly_frozen == () and gated.red_gates == ("axe",)


def test_after_a_red_gate_no_dimension_is_asked_for() -> None:
    state = run(fresh(), [{**FAIL_TYPE, "accessibility": None}])
    assert state.decision().fix_dimensions == ("typography",)
    assert state.decision().unverified == ()  # a failing verdict reports no unverified
    gated = run(state, [["axe"]])
    decision = gated.decision()
    assert decision.next_action == "fix_gates"
    assert decision.fix_dimensions == ()


def test_a_lying_verdict_is_recorded_with_its_corrections(tmp_path: Path) -> None:
    state = run(fresh(), [])
    state = state.record(judged(state, FAIL_TYPE, all_pass=True))
    assert state.last_verdict is not None
    (correction,) = state.last_verdict.corrections
    assert correction.startswith("all_pass")
    path, _ = _saved(tmp_path, state)
    loaded = load_state(path).last_verdict
    assert loaded is not None and loaded.corrections == (correction,)
    assert loaded.failed_dimensions == ("typography",) and loaded.outcome == "fail"


def test_an_inconclusive_verdict_clears_newly_frozen(tmp_path: Path) -> None:
    frozen = run(fresh(LoopSettings(3, 1, 12)), [FAIL_TYPE])
    assert frozen.newly_frozen == ("typography",)
    after = frozen.record(judged(frozen, status="inconclusive", error="bad JSON twice"))
    assert after.newly_frozen == () and after.to_json()["newly_frozen"] == []
    path, _ = _saved(tmp_path, after)
    loaded = load_state(path)
    assert loaded.last_verdict is not None and loaded.last_verdict.outcome == "inconclusive"
    assert loaded.decision().next_action == "retry_judge"


def test_an_unchanged_confirm_asks_for_another_confirm() -> None:
    state = run(fresh(LoopSettings(3, 3, 12)), [{}, "unchanged"])
    assert state.last_outcome == "unchanged"
    assert state.decision().next_action == "confirm"


def test_saved_state_is_stamped_in_utc(tmp_path: Path) -> None:
    _, data = _saved(tmp_path)
    assert data["updated_at"].endswith("+00:00")


def test_the_smallest_settings_load(tmp_path: Path) -> None:
    path, _ = _saved(tmp_path, fresh(LoopSettings(1, 1, 1)))
    loaded = load_state(path)
    assert loaded.settings == LoopSettings(1, 1, 1)
    assert loaded.last_verdict is None and loaded.updated_at is not None


def test_optional_lists_default_to_empty(tmp_path: Path) -> None:
    path, data = _saved(tmp_path, run(fresh(), [FAIL_TYPE]))
    del data["newly_frozen"]
    del data["red_gates"]
    del data["last_verdict"]["unverified_dimensions"]
    del data["last_verdict"]["corrections"]
    path.write_text(json.dumps(data), "utf-8")
    loaded = load_state(path)
    assert loaded.newly_frozen == () and loaded.red_gates == ()
    assert loaded.last_verdict is not None
    assert loaded.last_verdict.failed_dimensions == ("typography",)
    assert loaded.last_verdict.unverified_dimensions == () and loaded.last_verdict.corrections == ()
    del data["last_verdict"]["failed_dimensions"]
    path.write_text(json.dumps(data), "utf-8")
    last = load_state(path).last_verdict
    assert last is not None and last.failed_dimensions == ()
