"""Gates and judge backends from other packages: found by entry points, configured by their
own settings models, refused in one line when broken."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

import pytest

from argus import entrypoints
from argus.config import ProjectConfig, parse_config
from argus.errors import ConfigError
from argus.gates import GateInputs, GateStatus, gate_names, run_gates
from argus.judge import get_judge, judge_names
from tests.plugins.fakedist import install_fake

MakeInputs = Callable[..., GateInputs]

GATE_SOURCE = """
from pydantic import BaseModel, ConfigDict
from argus.gates import GateOutcome, GatePlugin, GateStatus

class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid")
    word: str = "default"

def run(inputs):
    settings = SHOUT.settings_from(inputs.config)
    return GateOutcome("shout", GateStatus.PASS, f"said {settings.word}")

SHOUT = GatePlugin("shout", run, settings=Settings)
NOT_A_GATE = "shout"
CLASH = GatePlugin("console", run)
"""

JUDGE_SOURCE = """
from pydantic import BaseModel, ConfigDict
from argus.judge import JudgePlugin

class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid")
    level: int = 1

class Echo:
    name = "echo"
    model = None
    def __init__(self, config):
        self.level = ECHO.settings_from(config).level
    def judge(self, packet):
        return {}

ECHO = JudgePlugin("echo", Echo, settings=Settings)
"""


def _config(tmp_path: Path, data: dict[str, object]) -> ProjectConfig:
    return parse_config(data, source=tmp_path / "argus.toml", root=tmp_path)


def _with_config(inputs: GateInputs, config: ProjectConfig) -> GateInputs:
    return dataclasses.replace(inputs, config=config)


def test_a_plugin_gate_runs_with_its_own_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, habits_inputs: MakeInputs
) -> None:
    install_fake(
        tmp_path,
        monkeypatch,
        "shoutgate",
        GATE_SOURCE,
        {"argus.gates": {"shout": "shoutgate:SHOUT"}},
    )
    assert "shout" in gate_names() and "console" in gate_names()  # built-ins come the same way
    config = _config(tmp_path, {"gates": {"enabled": ["shout"], "shout": {"word": "hello"}}})
    run = run_gates(_with_config(habits_inputs(), config), record=False)
    outcome = run.outcome("shout")
    assert (outcome.status, outcome.summary) == (GateStatus.PASS, "said hello")
    defaults = _config(tmp_path, {"gates": {"enabled": ["shout"]}})
    assert (
        run_gates(_with_config(habits_inputs(), defaults), record=False).outcome("shout").summary
        == "said default"
    )


def test_a_plugin_gates_bad_settings_are_one_line_naming_the_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, habits_inputs: MakeInputs
) -> None:
    install_fake(
        tmp_path,
        monkeypatch,
        "shoutgate",
        GATE_SOURCE,
        {"argus.gates": {"shout": "shoutgate:SHOUT"}},
    )
    config = _config(tmp_path, {"gates": {"enabled": ["shout"], "shout": {"wrod": "typo"}}})
    with pytest.raises(ConfigError, match=r"argus\.toml: gates\.shout\.wrod: unknown key"):
        run_gates(_with_config(habits_inputs(), config), record=False)


def test_a_table_for_no_installed_gate_is_refused(
    tmp_path: Path, habits_inputs: MakeInputs
) -> None:
    config = _config(tmp_path, {"gates": {"enabled": ["console"], "consol": {"ignore": []}}})
    with pytest.raises(ConfigError, match=r"gates\.consol: no installed gate is called 'consol'"):
        run_gates(_with_config(habits_inputs(), config), record=False)


def test_an_unknown_plain_key_is_still_a_typo(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"gates\.enabeld: unknown key"):
        _config(tmp_path, {"gates": {"enabeld": ["axe"]}})


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (
            "shoutgate:NOT_A_GATE",
            r"plug-in shout = shoutgate:NOT_A_GATE \(package fake-plugin\) "
            r"is a str, not an argus GatePlugin",
        ),
        ("shoutgate:MISSING", r"could not be loaded \(AttributeError"),
        ("no_such_module:SHOUT", r"could not be loaded \(ModuleNotFoundError"),
        (
            "shoutgate:CLASH",
            r"two installed packages declare the gate 'console' \(argus-ui and "
            r"fake-plugin\)",
        ),
    ],
)
def test_a_broken_or_clashing_plugin_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str, message: str
) -> None:
    install_fake(tmp_path, monkeypatch, "shoutgate", GATE_SOURCE, {"argus.gates": {"shout": value}})
    with pytest.raises(ConfigError, match=message):
        gate_names()


def test_without_argus_own_entry_points_it_says_reinstall(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(entrypoints, "entry_points", lambda group: [])
    with pytest.raises(ConfigError, match=r"built-in argus\.gates entry points are missing"):
        gate_names()


def test_a_plugin_judge_is_built_with_its_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install_fake(
        tmp_path,
        monkeypatch,
        "echojudge",
        JUDGE_SOURCE,
        {"argus.judges": {"echo": "echojudge:ECHO"}},
    )
    assert {"echo", "metric", "litellm"} <= set(judge_names())
    judge = get_judge(
        "echo", _config(tmp_path, {"judge": {"backend": "echo", "echo": {"level": 3}}})
    )
    assert judge.name == "echo" and judge.level == 3
    with pytest.raises(ConfigError, match=r"judge\.echo\.level: Input should be a valid integer"):
        get_judge("echo", _config(tmp_path, {"judge": {"echo": {"level": "high"}}}))
    with pytest.raises(ConfigError, match=r"judge\.ecco: no installed judge backend is called"):
        get_judge("metric", _config(tmp_path, {"judge": {"ecco": {"level": 1}}}))
