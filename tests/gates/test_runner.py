from __future__ import annotations

import dataclasses
import hashlib
import json
import threading
from collections.abc import Callable
from types import SimpleNamespace

import pytest

from argus.errors import InputError
from argus.gates import _registry as registry
from argus.gates import runner
from argus.gates._registry import GatePlugin
from argus.gates.base import Finding, GateInputs, GateOutcome, GateStatus
from argus.gates.runner import configured_gates, run_gates
from argus.schemas import validate
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

    monkeypatch.setitem(registry._registry(), "console", GatePlugin("console", broken))
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

    monkeypatch.setitem(registry._registry(), "axe", GatePlugin("axe", lying))
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


def _forced(name: str, status: GateStatus, data: dict | None = None, summary: str = "s"):
    def gate(inputs: GateInputs) -> GateOutcome:
        return GateOutcome(name, status, summary, (), data or {})

    return gate


def test_a_gate_named_twice_runs_once_in_the_order_given(
    habits_inputs: MakeInputs, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran: list[str] = []

    def counting(inputs: GateInputs) -> GateOutcome:
        ran.append("console")
        return GateOutcome("console", GateStatus.PASS, "")

    monkeypatch.setitem(registry._registry(), "console", GatePlugin("console", counting))
    run = run_gates(clean(habits_inputs), ["console", "axe", "console"], record=False)
    assert ran == ["console"]
    assert [o.name for o in run.outcomes] == ["console", "axe"]
    assert list(run.result["gates"]) == ["console", "axe"]
    assert run.outcome("axe").status is GateStatus.PASS
    with pytest.raises(KeyError) as missing:
        run.outcome("snapshot")
    assert missing.value.args == ("snapshot",)


def test_only_the_snapshot_gate_runs_on_the_worker_thread(
    habits_inputs: MakeInputs, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: dict[str, str] = {}
    for name in ("snapshot", "console"):

        def gate(inputs: GateInputs, name: str = name) -> GateOutcome:
            assert isinstance(inputs, GateInputs)  # on either thread, the view's inputs
            threads[name] = threading.current_thread().name
            return GateOutcome(name, GateStatus.PASS, "")

        monkeypatch.setitem(registry._registry(), name, GatePlugin(name, gate))
    run = run_gates(clean(habits_inputs), ["snapshot", "console"], record=False)
    assert threads["snapshot"].startswith("argus-gate")
    assert threads["console"] == threading.main_thread().name
    assert [o.name for o in run.outcomes] == ["snapshot", "console"]


def test_the_duration_of_each_gate_in_milliseconds(
    habits_inputs: MakeInputs, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = iter([10.0, 10.25, 20.0, 20.00012345])
    monkeypatch.setattr(runner, "time", SimpleNamespace(perf_counter=lambda: next(clock)))
    run = run_gates(clean(habits_inputs), ["console", "axe"], record=False)
    assert run.durations == {"console": 0.25, "axe": pytest.approx(0.00012345)}
    assert run.result["details"]["console"]["duration_ms"] == 250.0
    assert run.result["details"]["axe"]["duration_ms"] == 0.1


@pytest.mark.parametrize(
    ("raised", "summary"),
    [
        (InputError("  bad file\nmore"), "bad file"),
        (RuntimeError(""), "RuntimeError:"),
        (InputError(""), "no reason given"),
        (InputError("\n\n"), "no reason given"),
        (InputError("x" * 300), "x" * 300),
        (InputError("x" * 301), "x" * 299 + "…"),
    ],
)
def test_the_error_summary_is_one_line_of_at_most_300_characters(
    habits_inputs: MakeInputs, monkeypatch: pytest.MonkeyPatch, raised: Exception, summary: str
) -> None:
    def broken(inputs: GateInputs) -> GateOutcome:
        raise raised

    monkeypatch.setitem(registry._registry(), "console", GatePlugin("console", broken))
    run = run_gates(clean(habits_inputs), ["console"], record=False)
    outcome = run.outcome("console")
    assert outcome.status is GateStatus.ERROR
    assert outcome.summary == summary
    assert run.result["gates"]["console"] == "error"


def test_a_gate_reporting_under_another_name_keeps_everything_under_its_own(
    habits_inputs: MakeInputs, monkeypatch: pytest.MonkeyPatch
) -> None:
    finding = Finding("#a", "color", "red")

    def misnamed(inputs: GateInputs) -> GateOutcome:
        return GateOutcome("other", GateStatus.FAIL, "told", (finding,), {"n": 3})

    monkeypatch.setitem(registry._registry(), "axe", GatePlugin("axe", misnamed))
    run = run_gates(clean(habits_inputs), ["axe"], record=False)
    outcome = run.outcome("axe")
    assert (outcome.status, outcome.summary, outcome.findings, dict(outcome.data)) == (
        GateStatus.FAIL,
        "told",
        (finding,),
        {"n": 3},
    )
    assert run.result["details"]["axe"]["data"] == {"n": 3}


def test_the_iteration_is_written_only_when_given(habits_inputs: MakeInputs) -> None:
    inputs = clean(habits_inputs)
    assert "iteration" not in run_gates(inputs, ["console"], record=False).result
    assert run_gates(inputs, ["console"], record=False, iteration=3).result["iteration"] == 3
    created = run_gates(inputs, ["console"], record=False).result["created_at"]
    assert created.endswith("Z") and created[:4].isdigit()


@pytest.mark.parametrize(
    ("name", "status", "data", "entry"),
    [
        ("a11y_ids", GateStatus.ERROR, {"expected": 2, "present": 1, "missing": ["x"]}, "error"),
        ("a11y_ids", GateStatus.SKIP, {"expected": 2, "present": 1, "missing": ["x"]}, "skip"),
        ("a11y_ids", GateStatus.PASS, {"expected": 2, "present": 2}, "pass"),
        ("a11y_ids", GateStatus.FAIL, {"present": 1, "missing": ["x"]}, "fail"),
        ("a11y_ids", GateStatus.FAIL, {"expected": 2, "missing": ["x"]}, "fail"),
        ("console", GateStatus.PASS, {"expected": 2, "present": 2, "missing": []}, "pass"),
        (
            "a11y_ids",
            GateStatus.FAIL,
            {"expected": 2, "present": 1, "missing": ("x",), "other": 1},
            {"expected": 2, "present": 1, "missing": ["x"], "status": "fail"},
        ),
    ],
)
def test_the_a11y_ids_block_only_for_a_judged_a11y_ids_gate_with_its_counts(
    habits_inputs: MakeInputs,
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    status: GateStatus,
    data: dict,
    entry: object,
) -> None:
    monkeypatch.setitem(registry._registry(), name, GatePlugin(name, _forced(name, status, data)))
    run = run_gates(clean(habits_inputs), [name], record=False)
    assert run.result["gates"][name] == entry


def test_not_recording_leaves_the_run_store_alone(habits_inputs: MakeInputs) -> None:
    inputs = clean(habits_inputs)
    run_gates(inputs, ["console"], record=False)
    with RunStore.open(inputs.root) as store:
        assert store.events(kind="gate_result") == []


def test_the_recorded_event_carries_the_run_id(habits_inputs: MakeInputs) -> None:
    inputs = clean(habits_inputs)
    with RunStore.open(inputs.root) as store:
        run_id = store.start_run("habits", "headless")
    run_gates(inputs, ["console"], run_id=run_id)
    with RunStore.open(inputs.root) as store:
        (event,) = store.events(kind="gate_result")
    assert event.run_id == run_id
    assert event.iteration is None


def test_without_names_the_targets_own_gates_run(habits_inputs: MakeInputs) -> None:
    inputs = clean(habits_inputs)
    inputs = dataclasses.replace(
        inputs, target=dataclasses.replace(inputs.target, gates=("console", "axe"))
    )
    assert configured_gates(inputs) == ("console", "axe")
    run = run_gates(inputs, record=False)
    assert list(run.result["gates"]) == ["console", "axe"]


def test_a_plugin_table_no_gate_owns_is_refused_before_any_gate_runs(
    habits_inputs: MakeInputs, monkeypatch: pytest.MonkeyPatch
) -> None:
    from argus.errors import ConfigError

    ran: list[str] = []

    def counting(inputs: GateInputs) -> GateOutcome:
        ran.append("console")
        return GateOutcome("console", GateStatus.PASS, "ok")

    monkeypatch.setitem(registry._registry(), "console", GatePlugin("console", counting))
    inputs = clean(habits_inputs)
    gates = inputs.config.gates.model_copy(update={"plugins": {"consol": {"ignore": []}}})
    inputs = dataclasses.replace(inputs, config=inputs.config.model_copy(update={"gates": gates}))
    with pytest.raises(ConfigError, match=r"gates\.consol: no installed gate is called 'consol'"):
        run_gates(inputs, ["console"], record=False)
    assert ran == []
