"""The PreToolUse hook (argus.agents._guard) and `argus hook install`: an agent's shell and file
tools may not take a person's decisions or edit protected files; ordinary calls go through."""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from argus.agents._guard import MATCHER, run_pre_tool_use
from argus.cli import main


def _event(root: Path, tool: str, **arguments: Any) -> bytes:
    return json.dumps(
        {"hook_event_name": "PreToolUse", "cwd": str(root), "tool_name": tool,
         "tool_input": arguments}
    ).encode()  # fmt: skip


def _denied(raw: bytes) -> str | None:
    out = run_pre_tool_use(raw)
    if not out:
        return None
    decision = json.loads(out)["hookSpecificOutput"]
    assert decision["hookEventName"] == "PreToolUse"
    assert decision["permissionDecision"] == "deny"
    return str(decision["permissionDecisionReason"])


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "app"
    (root / "argus" / "specs" / "checkout" / "references").mkdir(parents=True)
    (root / "argus" / "specs" / "checkout" / "spec.json").write_text("{}")
    (root / "argus.toml").write_text("[implementer]\n")
    (root / "src").mkdir()
    (root / "pyproject.toml").write_text("[project]\nname = 'app'\n")
    return root


@pytest.mark.parametrize(
    "command",
    [
        "argus contract abort ship-it --reason done",
        "script -qec 'argus contract abort ship-it --reason x' /dev/null",
        "python -m argus contract pause ship-it --reason lunch",
        "argus --root . contract resume ship-it",
        "argus contract pin contract.yaml",
        "argus approve --feature checkout --target page",
        "argus person init",
        "argus gates --feature checkout --sense --update-snapshots changed",
        "python -m pytest tests/ui --update-snapshots",
        'python -c \'from argus.cli import main; main(["contract", "abort", "x"])\'',
        "env -u ARGUS_CONFINED argus contract status",
        'python -c \'from argus.contract import run; run.abort(Path("."), "x", "y")\'',
        "python -c 'from argus.contract.registry import forget; forget(p, \"x\")'",
        "echo '{}' > argus/specs/checkout/spec.json",
        "sed -i s/4.5/1/ argus.toml",
        "rm -rf .argus/contracts",
        "cp new.png argus/specs/checkout/references/page.png",
        "python -c \"open('argus.toml', 'w').write('')\"",
        "mv x tests/__snapshots__/a.png",
        "tee .claude/settings.json < mine.json",
        "rm ~/.local/state/argus/contract-pins/*",
        'rm "$XDG_STATE_HOME"/argus/contract-runs/*.json',
        'rm "$XDG_STATE_HOME"/argus/loop-runs/*.json',
    ],
)
def test_the_shell_may_not_take_a_person_s_decision_or_write_protected_files(
    project: Path, command: str
) -> None:
    reason = _denied(_event(project, "Bash", command=command))
    assert reason is not None and reason.startswith("Argus refuses this")


@pytest.mark.parametrize(
    "command",
    [
        "argus contract grade ship-it lint",
        "argus contract status --json",
        "argus loop --feature person-list",
        "cat argus/specs/checkout/spec.json",
        "argus lint",
        "python -m pytest tests -q",
        "echo done > done.txt",
        "git status",
    ],
)
def test_ordinary_shell_commands_go_through(project: Path, command: str) -> None:
    assert _denied(_event(project, "Bash", command=command)) is None


@pytest.mark.parametrize(
    ("tool", "key", "path"),
    [
        ("Edit", "file_path", "argus/specs/checkout/spec.json"),
        ("Write", "file_path", "argus/specs/checkout/references/page.png"),
        ("MultiEdit", "file_path", "{root}/argus.toml"),
        ("Write", "file_path", ".argus/contracts/ship-it/state.json"),
        ("Edit", "file_path", "tests/__snapshots__/test_x/a.png"),
        ("Write", "file_path", ".claude/settings.json"),
        ("NotebookEdit", "notebook_path", "argus/specs/checkout/notes.ipynb"),
        ("Edit", "file_path", "{root}/src/../argus.toml"),
    ],
)
def test_file_tools_may_not_edit_protected_files(
    project: Path, tool: str, key: str, path: str
) -> None:
    raw = _event(project, tool, **{key: path.replace("{root}", str(project))})
    reason = _denied(raw)
    assert reason is not None and "only a person changes it" in reason


def test_file_tools_edit_ordinary_files_and_pinned_contracts_are_protected(
    project: Path,
) -> None:
    from argus.contract.model import load_contract
    from argus.contract.pins import pin
    from tests.contract.conftest import write_contract

    for tool, key in (("Edit", "file_path"), ("Write", "file_path"),
                      ("MultiEdit", "file_path"), ("NotebookEdit", "notebook_path")):  # fmt: skip
        assert _denied(_event(project, tool, **{key: "src/app.py"})) is None
    assert _denied(_event(project, "Edit", file_path="pyproject.toml")) is None
    (project / "pyproject.toml").write_text("[tool.argus]\nbase_url = 'x'\n")
    assert "tool.argus" in str(_denied(_event(project, "Edit", file_path="pyproject.toml")))
    contract = write_contract(project)
    pin(project, load_contract(contract))
    assert "pinned" in str(_denied(_event(project, "Write", file_path=str(contract))))
    assert _denied(_event(project, "Read", file_path="argus.toml")) is None  # reading is fine


@pytest.mark.parametrize(
    "raw",
    [b"", b"  ", b"not json", b"[]", b'{"tool_name": "Bash", "tool_input": "rm -rf x"}',
     b'{"tool_name": "Bash", "tool_input": {}}', b'{"tool_name": "Edit", "tool_input": {}}',
     b"\xff\xfe"],
)  # fmt: skip
def test_a_call_the_hook_cannot_read_is_denied(raw: bytes) -> None:
    assert _denied(raw) is not None


def test_the_hook_runs_from_the_command_line(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    raw = _event(project, "Bash", command="argus contract abort x --reason y")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    assert main(["hook", "pre-tool-use"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_hook_install_twice_adds_once_and_keeps_other_settings(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    mine = {"model": "opus", "hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "my-guard"}]}]}}  # fmt: skip
    settings.write_text(json.dumps(mine))
    assert main(["hook", "install", "--root", str(project)]) == 0
    first = json.loads(settings.read_text())
    assert first["model"] == "opus"
    groups = first["hooks"]["PreToolUse"]
    assert groups[0] == mine["hooks"]["PreToolUse"][0]
    assert groups[1] == {
        "matcher": MATCHER,
        "hooks": [{"type": "command", "command": "argus hook pre-tool-use"}],
    }
    assert first["hooks"]["Stop"] == [
        {"hooks": [{"type": "command", "command": "argus hook stop"}]}
    ]
    assert first["hooks"]["SessionStart"][0]["hooks"][0]["command"] == "argus hook session-start"
    assert "added PreToolUse" in capsys.readouterr().out
    assert main(["hook", "install", "--root", str(project)]) == 0
    assert json.loads(settings.read_text()) == first
    assert "nothing to add" in capsys.readouterr().out


def test_hook_install_creates_the_settings_file(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["hook", "install", "--root", str(project)]) == 0
    data = json.loads((project / ".claude" / "settings.json").read_text())
    assert set(data["hooks"]) == {"Stop", "SessionStart", "PreToolUse"}
    assert "argus person init" not in capsys.readouterr().out  # the tests' person has a key
    (Path(os.environ["ARGUS_STATE_HOME"]) / "person-key.json").unlink()
    assert main(["hook", "install", "--root", str(project)]) == 0
    assert "set yours with `argus person init`" in capsys.readouterr().out


@pytest.mark.parametrize(
    "text",
    ["{not json", "[1, 2]", '{"hooks": []}', '{"hooks": {"Stop": {"x": 1}}}',
     '{"hooks": {"PreToolUse": [{"hooks": "argus"}]}}'],
)  # fmt: skip
def test_hook_install_refuses_settings_it_cannot_read_and_leaves_them(
    project: Path, text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(text)
    assert main(["hook", "install", "--root", str(project)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(settings) in err
    assert settings.read_text() == text
