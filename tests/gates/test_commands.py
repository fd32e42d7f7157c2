from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest

from argus.confine import HASH_CHECKED, Policy
from argus.errors import InputError
from argus.gates import _commands as commands
from argus.gates._commands import run_command_gate
from argus.gates.base import GateStatus
from argus.proc import GroupRun

PY = sys.executable


def run(tmp_path: Path, command: str, timeout: float = 30):
    return run_command_gate(
        "build", command, timeout=timeout, cwd=tmp_path, log_path=tmp_path / "run" / "build.log"
    )


def test_exit_zero_passes_and_output_goes_to_the_log(tmp_path: Path) -> None:
    outcome = run(tmp_path, f"{PY} -c \"print('built' + ' fine')\"")
    assert outcome.status is GateStatus.PASS
    assert outcome.data["exit_code"] == 0
    assert "built fine" in (tmp_path / "run" / "build.log").read_text()
    assert "built fine" not in str(outcome.to_json())


def test_nonzero_exit_fails_whatever_the_output_claims(tmp_path: Path) -> None:
    outcome = run(tmp_path, f"{PY} -c \"print('status: pass'); raise SystemExit(3)\"")
    assert outcome.status is GateStatus.FAIL
    assert outcome.data["exit_code"] == 3
    assert outcome.findings[0].value == "3"


def test_runs_in_the_repository_root(tmp_path: Path) -> None:
    (tmp_path / "marker.txt").write_text("x")
    assert run(tmp_path, "test -f marker.txt").status is GateStatus.PASS
    assert run(tmp_path, "test -f absent.txt").status is GateStatus.FAIL


def test_timeout_fails_with_a_note_and_kills_the_command(tmp_path: Path) -> None:
    outcome = run(tmp_path, f'{PY} -c "import time; time.sleep(30)"', timeout=0.5)
    assert outcome.status is GateStatus.FAIL
    assert outcome.data["timed_out"] is True
    assert "timed out" in outcome.summary
    assert outcome.data["seconds"] < 10


def test_a_missing_root_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot start the build command"):
        run_command_gate(
            "build", "true", timeout=5, cwd=tmp_path / "gone", log_path=tmp_path / "b.log"
        )


def test_gate_without_a_command_skips(habits_inputs) -> None:
    from argus.gates._registry import get_gate

    outcome = get_gate("lint")(habits_inputs())
    assert (outcome.name, outcome.status) == ("lint", GateStatus.SKIP)
    assert "[gates.commands.lint]" in outcome.summary


def _fake_run(monkeypatch: pytest.MonkeyPatch, result: GroupRun) -> dict[str, object]:
    """run_confined replaced by one that returns ``result`` and keeps the call's arguments (the
    policy and confinement apart: ``_policy`` and ``_confinement``)."""
    calls: dict[str, object] = {}

    def fake(command: str, policy: Policy, **kwargs: object) -> GroupRun:
        confinement = kwargs.pop("confinement")
        calls.update(kwargs, command=command)
        calls.update(_policy=calls.pop("_policy", policy), _confinement=confinement)
        return result

    monkeypatch.setattr(commands, "run_confined", fake)
    return calls


def _without_policy(calls: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in calls.items() if not k.startswith("_")}


def test_the_outcome_in_full_for_a_passing_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _fake_run(monkeypatch, GroupRun(0, False, 1.23456))
    log = tmp_path / "run" / "lint.log"
    outcome = run_command_gate("lint", "make lint", timeout=7, cwd=tmp_path, log_path=log)
    assert outcome.name == "lint"
    assert outcome.status is GateStatus.PASS
    assert outcome.findings == ()
    assert outcome.data == {
        "command": "make lint",
        "exit_code": 0,
        "timed_out": False,
        "seconds": 1.235,
        "log": str(log),
        "protection": HASH_CHECKED,  # tests run unconfined unless they say otherwise
    }
    # The command runs in the root, with the gate's timeout, and is killed at once on timeout,
    # confined to writing in the root but its protected set.
    policy = calls["_policy"]
    assert isinstance(policy, Policy) and policy.writable == (tmp_path,)
    assert tmp_path / ".argus" in policy.read_only
    assert _without_policy(calls) == {
        "command": "make lint",
        "cwd": tmp_path,
        "timeout": 7,
        "log_path": log,
        "grace": 0,
    }


def test_the_outcome_in_full_for_a_failing_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fake_run(monkeypatch, GroupRun(2, False, 0.5))
    log = tmp_path / "run" / "flows.log"
    outcome = run_command_gate("flows", "npm test", timeout=9, cwd=tmp_path, log_path=log)
    assert outcome.name == "flows"
    assert outcome.status is GateStatus.FAIL
    assert outcome.data["exit_code"] == 2
    assert outcome.data["seconds"] == 0.5
    [finding] = outcome.findings
    assert (finding.element, finding.property, finding.value, finding.expected) == (
        "flows",
        "exit_code",
        "2",
        "0",
    )
    assert str(log) in finding.message  # the finding points at the log


def test_the_outcome_in_full_for_a_timed_out_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fake_run(monkeypatch, GroupRun(None, True, 2.5))
    log = tmp_path / "run" / "type_check.log"
    outcome = run_command_gate("type_check", "mypy", timeout=2.5, cwd=tmp_path, log_path=log)
    assert outcome.name == "type_check"
    assert outcome.status is GateStatus.FAIL
    assert outcome.data["exit_code"] is None
    assert outcome.data["timed_out"] is True
    [finding] = outcome.findings
    assert (finding.element, finding.property, finding.value) == ("type_check", "timeout", "2.5s")
    assert finding.expected  # what it should have done is said
    assert str(log) in finding.message


def test_a_timed_out_command_gets_no_sigterm_grace(tmp_path: Path) -> None:
    # The command would note a SIGTERM in its log; killed at once (SIGKILL) it never sees one.
    script = (
        "import signal, sys, time\n"
        "signal.signal(signal.SIGTERM, lambda *a: print('got-term', flush=True))\n"
        "print('ready', flush=True)\n"
        "time.sleep(30)\n"
    )
    (tmp_path / "slow.py").write_text(script)
    outcome = run(tmp_path, f"{PY} slow.py", timeout=1)
    assert outcome.data["timed_out"] is True
    assert "got-term" not in (tmp_path / "run" / "build.log").read_text()


def test_a_configured_gate_runs_its_command_in_the_root_with_its_timeout(
    habits_inputs, monkeypatch: pytest.MonkeyPatch
) -> None:
    from argus.config import CommandGateConfig
    from argus.gates._registry import get_gate

    inputs = habits_inputs()
    gates = inputs.config.gates.model_copy(
        update={"commands": {"build": CommandGateConfig(command="make app", timeout=12.5)}}
    )
    inputs = dataclasses.replace(inputs, config=inputs.config.model_copy(update={"gates": gates}))
    calls = _fake_run(monkeypatch, GroupRun(4, False, 0.1))
    outcome = get_gate("build")(inputs)
    assert (outcome.name, outcome.status, outcome.data["exit_code"]) == (
        "build",
        GateStatus.FAIL,
        4,
    )
    assert _without_policy(calls) == {
        "command": "make app",
        "cwd": inputs.root,
        "timeout": 12.5,
        "log_path": inputs.run_dir / "build.log",
        "grace": 0,
    }
    assert get_gate("lint")(inputs).status is GateStatus.SKIP  # only build is configured


def test_a_missing_program_is_an_input_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(
        InputError, match=r"\[gates.commands.build\].*'no-such-linter-x7' not found"
    ):
        run(tmp_path, "no-such-linter-x7 --strict")


def test_a_missing_program_later_in_the_line_is_a_red_gate_naming_it(tmp_path: Path) -> None:
    outcome = run(tmp_path, "cd . && no-such-linter-x7 --strict")
    assert outcome.status is GateStatus.FAIL
    assert "'no-such-linter-x7' not found" in outcome.summary
    assert outcome.findings[0].property == "program_not_found"
    # A command that ran and failed with 127 itself is not called "not found".
    plain = run(tmp_path, f'{PY} -c "raise SystemExit(127)"')
    assert (plain.status, plain.summary) == (GateStatus.FAIL, "exit code 127")


def test_a_missing_program_reads_as_an_error_gate_naming_it(habits_inputs) -> None:
    from argus.config import CommandGateConfig
    from argus.gates.runner import run_gates

    inputs = habits_inputs()
    commands_ = {"lint": CommandGateConfig(command="no-such-linter-x7 .")}
    gates = inputs.config.gates.model_copy(update={"commands": commands_})
    inputs = dataclasses.replace(inputs, config=inputs.config.model_copy(update={"gates": gates}))
    run = run_gates(inputs, ["lint"], record=False)
    (outcome,) = run.outcomes
    assert outcome.status is GateStatus.ERROR and not run.all_green
    assert "'no-such-linter-x7' not found on PATH" in outcome.summary


def test_the_outcome_in_full_for_a_program_missing_later_in_the_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "run" / "lint.log"

    def shell_said_not_found(command: str, policy: Policy, **kwargs: object) -> GroupRun:
        log.parent.mkdir(parents=True)
        log.write_text("checking\nsh: 1: eslint-x7: not found\n")
        return GroupRun(127, False, 0.25)

    monkeypatch.setattr(commands, "run_confined", shell_said_not_found)
    outcome = run_command_gate("lint", "cd . && eslint-x7 .", timeout=5, cwd=tmp_path, log_path=log)
    summary = "program 'eslint-x7' not found (exit code 127); install it or fix the command"
    assert (outcome.name, outcome.status, outcome.summary) == ("lint", GateStatus.FAIL, summary)
    [finding] = outcome.findings
    assert (
        finding.element,
        finding.property,
        finding.value,
        finding.expected,
        finding.message,
    ) == ("lint", "program_not_found", "eslint-x7", "an installed program", summary)
    assert outcome.data == {
        "command": "cd . && eslint-x7 .",
        "exit_code": 127,
        "timed_out": False,
        "seconds": 0.25,
        "log": str(log),
        "protection": HASH_CHECKED,
    }


def test_a_not_found_line_in_the_log_of_another_exit_code_is_a_plain_failure(
    tmp_path: Path,
) -> None:
    # The shell reported a missing program, but the line went on and exited 3 itself: the exit
    # code is what failed, not a missing program.
    outcome = run(tmp_path, "cd . && no-such-x7; exit 3")
    assert (outcome.status, outcome.summary) == (GateStatus.FAIL, "exit code 3")
    assert [f.property for f in outcome.findings] == ["exit_code"]
    assert "no-such-x7: not found" in (tmp_path / "run" / "build.log").read_text()


def test_the_command_runs_under_the_confinement_its_outcome_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from argus.confine.detection import LANDLOCK, Confinement

    landlock = Confinement("landlock", 4)
    monkeypatch.setattr(commands, "detect", lambda: landlock)
    calls = _fake_run(monkeypatch, GroupRun(0, False, 0.1))
    outcome = run(tmp_path, "make")
    assert calls["_confinement"] is landlock  # detected once, not again by the launcher
    assert outcome.data["protection"] == LANDLOCK
