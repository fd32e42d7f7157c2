"""``argus lint``'s warnings: WCAG gates an explicit gate list leaves out (derived from the gate
registry), and views that cannot sign off under the metric judge alone (functional_correctness
abstains), with what to add. Warnings exit 0 unless --strict."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from argus.cli import main
from argus.gates import _registry as registry
from argus.gates._registry import GatePlugin, wcag_gates
from argus.gates.base import GateOutcome, GateStatus
from argus.spec.lint import lint_spec
from tests.support.habits import HABITS_SPEC, copy_habits

ALL_BUT_FOCUS = '["token_contrast", "a11y_ids", "axe", "console", "rendered_contrast"]'


def _project(tmp_path: Path, toml: str = "", **target: Any) -> Path:
    """A copy of the example with ``toml`` appended to its argus.toml and the list target's
    fields replaced (None removes one)."""
    root = copy_habits(tmp_path)
    config = root / "argus.toml"
    text = config.read_text()
    if toml:
        head, _, rest = text.partition("[gates]\n")
        rest = "\n".join(line for line in rest.splitlines() if not line.startswith("enabled"))
        text = f"{head}[gates]\n{toml}\n{rest}\n"
    config.write_text(text)
    path = root / HABITS_SPEC
    data = json.loads(path.read_text())
    for key, value in target.items():
        if value is None:
            data["targets"][0].pop(key, None)
        else:
            data["targets"][0][key] = value
    path.write_text(json.dumps(data))
    return path


def _messages(path: Path) -> list[str]:
    report = lint_spec(path, wcag=wcag_gates())
    assert report.valid, report.errors
    return [str(w) for w in report.warnings]


def test_the_example_as_shipped_warns_of_nothing(tmp_path: Path) -> None:
    assert _messages(_project(tmp_path)) == []


def test_an_explicit_gate_list_without_focus_visible_is_told(tmp_path: Path) -> None:
    path = _project(tmp_path, f"enabled = {ALL_BUT_FOCUS}")
    (warning,) = _messages(path)
    assert warning.startswith("argus.toml [gates] enabled: the project's gate list lacks")
    assert "focus_visible (2.4.7 Focus Visible)" in warning
    assert "token_compliance" not in warning and "axe" not in warning.split("lacks")[1]


def test_the_default_gate_list_has_every_wcag_gate(tmp_path: Path) -> None:
    assert _messages(_project(tmp_path, "# the default list")) == []


def test_a_target_gate_list_is_held_to_the_same(tmp_path: Path) -> None:
    (warning,) = _messages(_project(tmp_path, gates=["a11y_ids", "console"]))
    assert warning.startswith("$.targets[0].gates: target 'list''s gate list lacks")
    for name in ("axe", "focus_visible", "rendered_contrast", "token_contrast"):
        assert name in warning


@pytest.fixture
def plugin_gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    def gate(inputs: Any) -> GateOutcome:
        return GateOutcome("reflow", GateStatus.PASS, "fine")

    plugin = GatePlugin("reflow", gate, wcag="1.4.10 Reflow")
    monkeypatch.setitem(registry._registry(), "reflow", plugin)
    yield "reflow"


def test_the_wcag_gates_come_from_the_registry(tmp_path: Path, plugin_gate: str) -> None:
    """A gate registered with WCAG criteria (a plug-in's too) is asked for; no second list."""
    assert {"focus_visible", "rendered_contrast", "axe", "token_contrast", plugin_gate} == set(
        wcag_gates()
    )
    (warning,) = _messages(_project(tmp_path, f'enabled = {ALL_BUT_FOCUS[:-1]}, "focus_visible"]'))
    assert "reflow (1.4.10 Reflow)" in warning and "focus_visible" not in warning


def test_prose_without_the_declaration_cannot_sign_off(tmp_path: Path) -> None:
    warnings = _messages(_project(tmp_path, expectations_cover_prose=None))
    assert len(warnings) == 2, warnings  # list/populated and list/empty
    assert warnings[0].startswith("$.targets[0].expectations_cover_prose: list/populated cannot")
    assert "spec.md acceptance criteria" in warnings[0]
    assert '"expectations_cover_prose": true' in warnings[0]


def test_a_state_without_expectations_cannot_sign_off(tmp_path: Path) -> None:
    path = _project(tmp_path)
    data = json.loads(path.read_text())
    del data["targets"][0]["expectations"]["empty"]
    path.write_text(json.dumps(data))
    (warning,) = _messages(path)
    assert warning.startswith("$.targets[0].expectations: list/empty cannot sign off")
    assert "expectations.empty" in warning


def test_a_model_judge_takes_the_prose(tmp_path: Path) -> None:
    toml = 'enabled = ["axe", "focus_visible", "rendered_contrast", "token_contrast"]\n'
    path = _project(tmp_path, toml, expectations_cover_prose=None)
    config = path.parents[3] / "argus.toml"
    config.write_text(config.read_text().replace(
        '[judge]\nbackend = "metric"', '[judge]\nbackend = "composite"\nmodel = "openai/x"'
    ))  # fmt: skip
    assert _messages(path) == []
    config.write_text(config.read_text().replace('model = "openai/x"', ""))
    assert len(_messages(path)) == 2  # composite with no model is the metric judge alone


def test_the_cli_prints_warnings_and_exits_0_unless_strict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _project(tmp_path, f"enabled = {ALL_BUT_FOCUS}")
    assert main(["lint", str(path)]) == 0
    out = capsys.readouterr().out
    assert ": valid" in out and "  warning argus.toml [gates] enabled:" in out
    assert main(["lint", "--strict", str(path)]) == 1
    capsys.readouterr()
    assert main(["lint", "--json", str(path)]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["valid"] is True and document["warnings"] == 1
    assert "focus_visible" in document["specs"][0]["warnings"][0]["message"]
    clean = _project(tmp_path / "clean")
    assert main(["lint", "--strict", str(clean)]) == 0
