from __future__ import annotations

import hashlib
import json
from collections.abc import Callable

import pytest

from argus.contracts import validate
from argus.errors import InputError
from argus.gates import base
from argus.gates.base import GateInputs, GateOutcome, GateStatus
from argus.gates.runner import configured_gates, run_gates
from argus.store import RunStore
from tests.gates.probes import el, page

CONTRACT_IDS = [
    "habits.screen",
    "habits.title",
    "habits.summary",
    "habits.add",
    "habits.list",
    "habits.empty",
]
FLOOR = ["token_contrast", "a11y_ids", "axe", "console"]
MakeInputs = Callable[..., GateInputs]


def clean_probe() -> dict:
    return page(*(el("div", testid=t) for t in CONTRACT_IDS))


def clean(make: MakeInputs, **overrides) -> GateInputs:
    docs = {
        "probe": clean_probe(),
        "console": {"messages": [], "page_errors": []},
        "axe": {"violations": [], "incomplete": [], "passes": 30},
    }
    return make(**{**docs, **overrides})


def test_green_floor_writes_the_seed_shape_plus_details(habits_inputs: MakeInputs) -> None:
    run = run_gates(clean(habits_inputs), FLOOR, record=False)
    assert run.all_green and run.red_gates == ()
    result = run.result
    validate("gate-result", result, source="gate-result.json")
    ids = result["gates"]["a11y_ids"]
    assert (ids["expected"], ids["present"], ids["missing"]) == (6, 6, [])
    assert result["gates"]["console"] == "pass"
    assert (result["feature"], result["target"], result["state"]) == ("habits", "list", "populated")
    details = result["details"]["axe"]
    assert details["status"] == "pass" and "summary" in details and "duration_ms" in details


def test_a_red_gate_makes_the_floor_red(habits_inputs: MakeInputs) -> None:
    inputs = clean(habits_inputs, console={"messages": [], "page_errors": [{"text": "boom"}]})
    run = run_gates(inputs, FLOOR, record=False)
    assert not run.all_green
    assert run.red_gates == ("console",)
    assert run.result["all_green"] is False


def test_missing_ids_are_listed_in_the_seed_block(habits_inputs: MakeInputs) -> None:
    probe = page(el("div", testid="habits.screen"))
    run = run_gates(clean(habits_inputs, probe=probe), ["a11y_ids"], record=False)
    block = run.result["gates"]["a11y_ids"]
    assert block["present"] == 1 and "habits.title" in block["missing"]
    assert run.red_gates == ("a11y_ids",)


def test_an_exception_inside_a_gate_is_status_error_with_one_line(
    habits_inputs: MakeInputs, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(inputs: GateInputs) -> GateOutcome:
        raise RuntimeError("disk on fire\nsecond line")

    monkeypatch.setitem(base._REGISTRY, "console", broken)
    run = run_gates(clean(habits_inputs), FLOOR, record=False)
    assert run.result["gates"]["console"] == "error"
    assert run.result["details"]["console"]["summary"] == "RuntimeError: disk on fire"
    assert not run.all_green


def test_missing_sensed_file_is_an_error_never_a_pass(habits_inputs: MakeInputs) -> None:
    inputs = habits_inputs(probe=clean_probe())  # no console.json, no axe.json
    run = run_gates(inputs, ["console", "axe"], record=False)
    assert run.result["gates"] == {"console": "error", "axe": "error"}
    assert "console.json not found" in run.result["details"]["console"]["summary"]


def test_a_self_reported_pass_cannot_hide_a_failure(
    habits_inputs: MakeInputs, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A gate that names itself differently or reports odd statuses is still judged by status.
    def lying(inputs: GateInputs) -> GateOutcome:
        return GateOutcome("something-else", GateStatus.FAIL, "all good, trust me")

    monkeypatch.setitem(base._REGISTRY, "axe", lying)
    run = run_gates(clean(habits_inputs), FLOOR, record=False)
    assert run.result["gates"]["axe"] == "fail"
    assert not run.all_green


def test_skipped_gates_do_not_redden_the_floor(habits_inputs: MakeInputs) -> None:
    run = run_gates(clean(habits_inputs), [*FLOOR, "build", "lint"], record=False)
    assert run.result["gates"]["build"] == "skip"
    assert run.all_green


def test_unknown_gate_name_is_an_input_error(habits_inputs: MakeInputs) -> None:
    with pytest.raises(InputError, match="unknown gate 'colour'"):
        run_gates(clean(habits_inputs), ["colour"], record=False)


def test_configured_gates_come_from_the_config(habits_inputs: MakeInputs) -> None:
    inputs = clean(habits_inputs)
    assert configured_gates(inputs) == tuple(inputs.config.gates.enabled)
    assert "build" not in configured_gates(inputs)  # the example enables no command gates


def test_the_result_is_recorded_in_the_run_store(habits_inputs: MakeInputs) -> None:
    inputs = clean(habits_inputs)
    run = run_gates(inputs, FLOOR, run_id=None, iteration=2)
    with RunStore.open(inputs.root) as store:
        (event,) = store.events(kind="gate_result")
    assert (event.feature, event.target, event.state, event.appearance, event.iteration) == (
        "habits",
        "list",
        "populated",
        "light",
        2,
    )
    assert json.loads(json.dumps(event.payload)) == json.loads(json.dumps(run.result))


def test_write_puts_gate_result_json_on_disk(habits_inputs: MakeInputs, tmp_path) -> None:
    run = run_gates(clean(habits_inputs), FLOOR, record=False)
    path = run.write(tmp_path / "out" / "gate-result.json")
    assert json.loads(path.read_text())["all_green"] is True


def test_the_result_names_the_render_and_probe_it_checked(habits_inputs: MakeInputs) -> None:
    inputs = clean(habits_inputs)
    without_render = run_gates(inputs, FLOOR, record=False).result["inputs"]
    assert without_render["render_sha256"] is None
    assert (
        without_render["probe_sha256"]
        == hashlib.sha256(inputs.sensed.probe.read_bytes()).hexdigest()
    )
    inputs.sensed.render.write_bytes(b"\x89PNG\r\n\x1a\nnot really")
    named = run_gates(inputs, FLOOR, record=False).result["inputs"]
    assert named["render_sha256"] == hashlib.sha256(inputs.sensed.render.read_bytes()).hexdigest()
