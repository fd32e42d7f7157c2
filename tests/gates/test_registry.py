from __future__ import annotations

import re
from pathlib import Path

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


def test_a_declared_gate_keeps_its_settings_model_and_wcag_criteria(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from argus.config import TellTalesConfig
    from argus.gates import _registry as registry

    monkeypatch.setattr(registry, "_BUILTIN", [])

    def gate(inputs: GateInputs) -> GateOutcome:
        return GateOutcome("mine", GateStatus.PASS, "")

    register_gate("mine", wcag="2.4.7 Focus Visible", settings=TellTalesConfig)(gate)
    (plugin,) = registry.builtin_gates()
    assert (plugin.settings, plugin.wcag) == (TellTalesConfig, "2.4.7 Focus Visible")


def test_a_built_ins_settings_are_its_own_section_of_the_config(tmp_path: Path) -> None:
    from argus.config import ProjectConfig, TellTalesConfig
    from argus.gates import _registry as registry

    config = ProjectConfig(root=tmp_path)
    gates = config.gates.model_copy(update={"tell_tales": TellTalesConfig(ignore=["vendor/*"])})
    config = config.model_copy(update={"gates": gates})
    found = registry.gate_plugin("tell_tales").settings_from(config)
    assert found is config.gates.tell_tales


@pytest.mark.parametrize("source", [None, "conf/argus.toml"])
def test_a_plug_in_table_refused_names_the_config_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: str | None
) -> None:
    from pydantic import BaseModel, ConfigDict

    from argus.config import ProjectConfig
    from argus.errors import ConfigError
    from argus.gates import _registry as registry

    class Level(BaseModel):
        model_config = ConfigDict(extra="forbid")
        level: int = 0

    def gate(inputs: GateInputs) -> GateOutcome:
        return GateOutcome("loud", GateStatus.PASS, "")

    monkeypatch.setitem(registry._registry(), "loud", GatePlugin("loud", gate, Level))
    where = tmp_path / (source or "argus.toml")
    path = None if source is None else where
    bad = ProjectConfig(root=tmp_path, source=path)
    bad.gates.plugins["loud"] = {"level": "high"}
    with pytest.raises(ConfigError, match=rf"^{re.escape(str(where))}: gates\.loud\.level"):
        registry.check_plugin_settings(bad)
    unknown = ProjectConfig(root=tmp_path, source=path)
    unknown.gates.plugins["lodu"] = {}
    known = ", ".join(sorted(registry._registry()))
    with pytest.raises(ConfigError) as refused:
        registry.check_plugin_settings(unknown)
    assert str(refused.value).startswith(
        f"{where}: gates.lodu: no installed gate is called 'lodu' (known: {known}); "
    )
