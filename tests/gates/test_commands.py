from __future__ import annotations

import sys
from pathlib import Path

import pytest

from argus.errors import InputError
from argus.gates.base import GateStatus
from argus.gates.commands import run_command_gate

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
    from argus.gates.base import get_gate

    outcome = get_gate("lint")(habits_inputs())
    assert outcome.status is GateStatus.SKIP
    assert "[gates.commands.lint]" in outcome.summary
