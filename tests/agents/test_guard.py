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


def _reason(root: Path, tool: str, **arguments: Any) -> str | None:
    return _denied(_event(root, tool, **arguments))


def test_an_event_over_a_mebibyte_is_denied_unread(project: Path) -> None:
    from argus.agents._guard import MAX_EVENT_BYTES

    base = _event(project, "Bash", command="git status", pad="")
    fits = base.replace(b'"pad": ""', b'"pad": "' + b"x" * (MAX_EVENT_BYTES - len(base)) + b'"')
    assert len(fits) == MAX_EVENT_BYTES and _denied(fits) is None
    over = fits.replace(b'"pad": "', b'"pad": "x')
    assert _denied(over) == (
        "argus hook pre-tool-use could not read the tool call "
        "(ValueError('the event is over 1048576 bytes'))"
    )


@pytest.mark.parametrize("where", ["", "a\0b", 7, None])
def test_a_file_call_that_names_no_file_is_denied_saying_so(project: Path, where: Any) -> None:
    assert _reason(project, "Write", file_path=where) == (
        "argus hook pre-tool-use: the Write call names no file to check"
    )


def test_a_call_without_its_input_or_command_is_denied_saying_so(project: Path) -> None:
    raw = json.dumps({"cwd": str(project), "tool_name": "Edit", "tool_input": ["x"]}).encode()
    assert _denied(raw) == "argus hook pre-tool-use: the Edit call has no readable tool_input"
    assert _reason(project, "Bash", command=["rm", "argus.toml"]) == (
        "argus hook pre-tool-use: the Bash call has no command to check"
    )
    assert _denied(b'{"tool_name": "Read", "tool_input": 1}') is None  # not a guarded tool


def test_a_shell_denial_says_which_rule(project: Path) -> None:
    assert _reason(project, "Bash", command="argus person init") == (
        "Argus refuses this: the command takes a person's decision (argus contract "
        "pause/resume/abort/pin, argus approve, argus person, --update-snapshots); a person runs "
        "it in their own terminal"
    )
    assert _reason(project, "Bash", command="echo x > argus.toml") == (
        "Argus refuses this: the command may write a protected path (spec folders, snapshots, "
        "argus.toml, .argus/, Claude Code's settings, Argus's state home); only a person "
        "changes them"
    )


@pytest.mark.parametrize(
    ("path", "what"),
    [
        ("argus/specs/checkout/spec.json", "a spec folder (spec, tokens, references, snapshots, "
         "run records)"),
        ("tests/__snapshots__/a.png", "snapshot baselines or run records"),
        ("out/.argus-runs/run.json", "snapshot baselines or run records"),
        (".argus/argus.db", "Argus's run store and contract runs (.argus/)"),
        ("sub/argus.toml", "argus.toml"),
        (".claude/settings.local.json",
         "Claude Code's settings, where Argus's hooks are installed"),
    ],
)  # fmt: skip
def test_each_protected_path_is_named_for_what_it_is(project: Path, path: str, what: str) -> None:
    assert _reason(project, "Write", file_path=path) == (
        f"Argus refuses this: {project / path} is {what}; only a person changes it"
    )


@pytest.mark.parametrize(
    "path",
    ["src/argus/specs.py", "argus/spec.json", "docs/argus.toml.md", ".claude/commands/go.md",
     "settings.json", "argus-notes/specs/x.md"],
)  # fmt: skip
def test_names_only_like_a_protected_path_are_not_protected(project: Path, path: str) -> None:
    assert _reason(project, "Write", file_path=path) is None


def test_argus_s_state_home_is_protected(project: Path) -> None:
    key = Path(os.environ["ARGUS_STATE_HOME"]) / "person-key.json"
    assert _reason(project, "Edit", file_path=str(key)) == (
        f"Argus refuses this: {key} is Argus's state home (pins, the person key, open runs); "
        "only a person changes it"
    )


def test_a_pyproject_that_cannot_be_read_is_not_protected(project: Path) -> None:
    (project / "sub" / "pyproject.toml").mkdir(parents=True)  # a folder: reading it fails
    assert _reason(project, "Write", file_path="sub/pyproject.toml") is None


def test_a_relative_or_missing_cwd_is_the_hook_s_own_folder(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    for cwd in ("app", None):
        raw = json.dumps(
            {"cwd": cwd, "tool_name": "Edit", "tool_input": {"file_path": "argus.toml"}}
        ).encode()
        assert _denied(raw) == (
            f"Argus refuses this: {project / 'argus.toml'} is argus.toml; only a person changes it"
        )


def test_outside_any_project_the_folder_itself_is_the_root(tmp_path: Path) -> None:
    loose = tmp_path / "loose"
    loose.mkdir()
    assert _reason(loose, "Write", file_path="notes.txt") is None
    reason = _reason(loose, "Write", file_path="argus/specs/x/spec.json")
    assert reason is not None and f"{loose}/argus/specs/x/spec.json is a spec folder" in reason


def test_pinned_contracts_are_read_from_this_repository_s_pin_records(
    project: Path, tmp_path: Path
) -> None:
    pins = Path(os.environ["ARGUS_STATE_HOME"]) / "contract-pins"
    pins.mkdir(parents=True, exist_ok=True)
    (pins / "broken.json").write_text("{not json")
    (pins / "list.json").write_text("[1]")
    other = tmp_path / "other"
    (pins / "a.json").write_text(json.dumps({"root": str(project), "path": "plans/c.json"}))
    (pins / "b.json").write_text(json.dumps({"root": str(other), "path": "plans/d.json"}))
    pinned = _reason(project, "Write", file_path="plans/c.json")
    assert pinned == (
        f"Argus refuses this: {project / 'plans/c.json'} is a contract a person pinned; "
        "only a person changes it"
    )
    assert _reason(project, "Write", file_path="plans/d.json") is None  # another repository's


def test_a_file_outside_the_project_is_not_protected(project: Path, tmp_path: Path) -> None:
    assert _reason(project, "Write", file_path=str(tmp_path / "elsewhere.txt")) is None


def test_a_pyproject_that_is_not_utf_8_is_still_read(project: Path) -> None:
    (project / "pyproject.toml").write_bytes(b"# caf\xe9\n[tool.argus]\nbase_url = 'x'\n")
    assert _reason(project, "Edit", file_path="pyproject.toml") == (
        f"Argus refuses this: {project / 'pyproject.toml'} is pyproject.toml's [tool.argus]; "
        "only a person changes it"
    )


def test_from_a_subfolder_the_project_root_is_found_above(project: Path) -> None:
    reason = _reason(project / "src", "Write", file_path="../argus/specs/checkout/spec.json")
    assert reason is not None and "is a spec folder" in reason


def test_a_pin_record_is_read_up_to_64_kib_and_one_without_a_path_pins_no_file(
    project: Path,
) -> None:
    pins = Path(os.environ["ARGUS_STATE_HOME"]) / "contract-pins"
    pins.mkdir(parents=True, exist_ok=True)
    body = json.dumps({"root": str(project), "path": "plans/c.json"})
    (pins / "long.json").write_text(body[:-1] + " " * (65537 - len(body)) + "}")  # cut short
    assert _reason(project, "Write", file_path="plans/c.json") is None
    (pins / "bare.json").write_text(json.dumps({"root": str(project)}))
    for name in ("None", "XXXX"):
        assert _reason(project, "Write", file_path=name) is None


@pytest.mark.parametrize("broken", ["not json", "a folder"])
def test_a_broken_pin_record_read_first_does_not_hide_the_pins_after_it(
    project: Path, broken: str
) -> None:
    pins = Path(os.environ["ARGUS_STATE_HOME"]) / "contract-pins"
    pins.mkdir(parents=True, exist_ok=True)
    first = pins / "0-broken.json"  # the records are read in name order: this one first
    if broken == "a folder":
        first.mkdir()
    else:
        first.write_text("{not json")
    (pins / "1-good.json").write_text(json.dumps({"root": str(project), "path": "plans/c.json"}))
    assert _reason(project, "Write", file_path="plans/c.json") == (
        f"Argus refuses this: {project / 'plans/c.json'} is a contract a person pinned; "
        "only a person changes it"
    )
