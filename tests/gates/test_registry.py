from __future__ import annotations

import pytest

import argus.gates
from argus.config import ALL_GATES, OPT_IN_GATES
from argus.errors import InputError
from argus.gates import GatePlugin, gate_names, get_gate, register_gate
from argus.gates.base import GateInputs, GateOutcome, GateStatus


def test_every_configurable_gate_is_registered() -> None:
    assert set(gate_names()) == set(ALL_GATES) | set(OPT_IN_GATES)
    assert not set(OPT_IN_GATES) & set(ALL_GATES)  # opt-in gates are off by default


def test_public_names_exist() -> None:
    for name in argus.gates.__all__:
        assert hasattr(argus.gates, name), name


def test_unknown_gate_is_an_input_error_listing_the_known_ones() -> None:
    with pytest.raises(InputError, match="known gates: a11y_ids, axe"):
        get_gate("nope")


def test_a_name_cannot_be_registered_twice() -> None:
    def other(inputs: GateInputs) -> GateOutcome:
        return GateOutcome("console", GateStatus.PASS, "")

    with pytest.raises(ValueError, match="already declared"):
        register_gate("console")(other)


def test_a_gate_declared_with_wcag_criteria_is_listed_with_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from argus.gates import _registry as registry

    def gate(inputs: GateInputs) -> GateOutcome:
        return GateOutcome("x", GateStatus.PASS, "")

    monkeypatch.setitem(registry._registry(), "plain_extra", GatePlugin("plain_extra", gate))
    extra = GatePlugin("wcag_extra", gate, wcag="1.4.10 Reflow")
    monkeypatch.setitem(registry._registry(), "wcag_extra", extra)
    listed = registry.wcag_gates()
    assert listed["wcag_extra"] == "1.4.10 Reflow" and "plain_extra" not in listed
    assert listed["focus_visible"] == "2.4.7 Focus Visible"
    assert {"axe", "rendered_contrast", "token_contrast"} <= set(listed)
    assert not {"console", "a11y_ids", "snapshot", "lighthouse"} & set(listed)
    assert list(listed) == sorted(listed)
