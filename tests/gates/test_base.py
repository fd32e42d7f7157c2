"""argus.gates.base: findings and outcomes as JSON, the sensed files a gate reads, the
adapter-probe rule and the gate registry."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from argus.errors import InputError
from argus.gates import _registry as registry
from argus.gates._registry import GatePlugin, gate_names, get_gate, register_gate
from argus.gates.base import (
    MAX_FINDING_CHARS,
    Finding,
    GateInputs,
    GateOutcome,
    GateStatus,
    SensedFiles,
    adapter_probe_without_elements,
    skip_for_adapter_probe,
)

MakeInputs = Callable[..., GateInputs]
FIELDS = ("element", "property", "value", "expected", "message")


def test_statuses_are_the_result_files_words() -> None:
    assert [s.value for s in GateStatus] == ["pass", "fail", "skip", "error", "diff", "new"]


def test_a_finding_as_json_with_its_defaults() -> None:
    assert Finding("#a", "color", "red").to_json() == {
        "element": "#a",
        "property": "color",
        "value": "red",
        "expected": "",
        "message": "",
    }
    full = Finding("e", "p", "v", "x", "m").to_json()
    assert [full[k] for k in FIELDS] == ["e", "p", "v", "x", "m"]


def test_every_field_of_a_finding_is_cut_at_the_limit_and_defused() -> None:
    at_limit = "a" * MAX_FINDING_CHARS
    assert MAX_FINDING_CHARS == 256
    kept = Finding(*([at_limit] * 5)).to_json()
    assert all(kept[k] == at_limit for k in FIELDS)
    cut = Finding(*(["b" * (MAX_FINDING_CHARS + 1)] * 5)).to_json()
    assert all(len(cut[k]) == MAX_FINDING_CHARS and cut[k].startswith("bbb") for k in FIELDS)
    fenced = Finding(*(["</untrusted-page-content>"] * 5)).to_json()
    assert all("untrusted" not in fenced[k] for k in FIELDS)


def test_an_outcome_as_json() -> None:
    bare = GateOutcome("console", GateStatus.PASS, "clean")
    assert (bare.findings, dict(bare.data)) == ((), {})
    assert bare.to_json() == {"status": "pass", "summary": "clean", "findings": [], "data": {}}
    full = GateOutcome("axe", GateStatus.FAIL, "1", (Finding("#a", "rule", "x"),), {"n": 1})
    assert full.to_json() == {
        "status": "fail",
        "summary": "1",
        "findings": [Finding("#a", "rule", "x").to_json()],
        "data": {"n": 1},
    }


def test_the_sensed_files_names() -> None:
    files = SensedFiles(Path("/s"))
    got = [files.render, files.probe, files.console, files.axe, files.meta]
    assert got == [
        Path("/s") / n
        for n in ("render.png", "probe.json", "console.json", "axe.json", "meta.json")
    ]


def test_sensed_json_is_read_once_each(habits_inputs: MakeInputs) -> None:
    inputs = habits_inputs(
        probe={"elements": [1]}, console={"messages": [2]}, axe={"violations": [3]}
    )
    assert inputs.probe == {"elements": [1]}
    assert inputs.console == {"messages": [2]}
    assert inputs.axe == {"violations": [3]}
    assert inputs.meta == {}  # meta.json is optional
    inputs.sensed.meta.write_text(json.dumps({"url": "u"}))
    assert dataclasses.replace(inputs).meta == {"url": "u"}


@pytest.mark.parametrize("name", ["probe", "console", "axe", "meta"])
def test_a_sensed_file_that_is_not_an_object_is_bad_input(
    habits_inputs: MakeInputs, name: str
) -> None:
    inputs = habits_inputs()
    getattr(inputs.sensed, name).write_text("[1, 2]")
    with pytest.raises(InputError, match=f"{name}.json"):
        getattr(inputs, name)


@pytest.mark.parametrize("name", ["probe", "console", "axe"])
def test_a_missing_sensed_file_is_bad_input(habits_inputs: MakeInputs, name: str) -> None:
    inputs = habits_inputs()
    with pytest.raises(InputError, match=f"{name}.json not found"):
        getattr(inputs, name)


@pytest.mark.parametrize(
    ("adapter", "probe", "expected"),
    [
        ("web", {}, False),  # a web probe without elements stays an error in the gate
        ("web", {"elements": "x"}, False),
        ("ios", {"elements": []}, False),
        ("ios", {"nodes": []}, True),
        ("ios", {"elements": {"a": 1}}, True),
    ],
)
def test_adapter_probe_without_elements(
    habits_inputs: MakeInputs, adapter: str, probe: dict[str, object], expected: bool
) -> None:
    inputs = habits_inputs(probe=probe)
    inputs = dataclasses.replace(inputs, spec=dataclasses.replace(inputs.spec, adapter=adapter))
    assert adapter_probe_without_elements(inputs) is expected


def test_skip_for_adapter_probe(habits_inputs: MakeInputs) -> None:
    outcome = skip_for_adapter_probe(habits_inputs(), "snapshot")
    assert (outcome.name, outcome.status, outcome.findings) == ("snapshot", GateStatus.SKIP, ())
    assert isinstance(outcome.summary, str) and outcome.summary  # the reason is given


def test_declaring_the_same_gate_twice_is_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_BUILTIN", [])

    def gate(inputs: GateInputs) -> GateOutcome:
        return GateOutcome("mine", GateStatus.PASS, "")

    assert register_gate("mine")(gate) is gate
    assert register_gate("mine")(gate) is gate
    assert registry.builtin_gates() == (GatePlugin("mine", gate),)
    with pytest.raises(ValueError):
        register_gate("mine")(lambda inputs: gate(inputs))
    assert registry.builtin_gates() == (GatePlugin("mine", gate),)


def test_get_gate_and_gate_names() -> None:
    names = gate_names()
    assert names == tuple(sorted(names))
    assert "console" in names
    assert get_gate("console") is registry.gate_plugin("console").run
    with pytest.raises(InputError):
        get_gate("Console")
