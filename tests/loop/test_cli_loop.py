"""`argus loop` and `argus approve` on bad input: one line, exit 2, nothing written."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.loop.fakeapp import FEATURE, make_repo


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--feature", "nope"], "no such feature spec"),
        (["--feature", FEATURE, "--target", "nope"], "no target 'nope'"),
        (["--feature", FEATURE, "--max-iterations", "0"], "'0' must be 1 or more"),
        (["--feature", FEATURE, "--implementer", "agent {diff}"], "unknown placeholder {diff}"),
    ],
)
def test_loop_bad_input_is_one_line_exit_2(
    tmp_path: Path, run_argus: Any, args: list[str], message: str
) -> None:
    root = make_repo(tmp_path, [{"name": "x", "kind": "gate", "target": "console"}])
    result = run_argus("loop", *args, cwd=root)
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("argus: ")
    assert message in lines[0]
    assert not (root / "argus/specs" / FEATURE / ".argus-runs").exists()


def test_loop_invalid_spec_is_one_line_on_stderr_exit_2(tmp_path: Path, run_argus: Any) -> None:
    root = make_repo(tmp_path, [])
    spec_path = root / "argus/specs" / FEATURE / "spec.json"
    spec = json.loads(spec_path.read_text())
    spec["targets"][0]["canonical"] = {"state": "zzz"}
    spec_path.write_text(json.dumps(spec))
    result = run_argus("loop", "--feature", FEATURE, cwd=root)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("argus: ") and "invalid spec" in lines[0]


def test_a_web_server_that_cannot_start_is_said_once_exit_2(tmp_path: Path, run_argus: Any) -> None:
    import re

    from tests.support.habits import copy_habits, free_port

    root = copy_habits(tmp_path, port=free_port())
    config = root / "argus.toml"
    text = re.sub(r'command = "python3 serve.py[^"]*"', 'command = "exit 3"', config.read_text())
    config.write_text(text)
    result = run_argus("loop", "--feature", "habits", "--mode", "report-only", cwd=root)
    assert result.returncode == 2, result.stdout + result.stderr
    lines = [line for line in result.stderr.splitlines() if line.startswith("argus: ")]
    assert len(lines) == 1 and "web server" in lines[0] and "exited with code 3" in lines[0]
    assert "web server" not in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--target", "list"], "no pending sign-off and no candidate reference"),
        (["--target", "list", "--state", "a"], "--state and --appearance go together"),
        (["--target", "list", "--state", "x", "--appearance", "light"], "has no view x/light"),
        (["--target", "zzz"], "no target 'zzz'"),
    ],
)
def test_approve_bad_input(tmp_path: Path, run_argus: Any, args: list[str], message: str) -> None:
    root = make_repo(tmp_path, [])
    result = run_argus("approve", "--feature", FEATURE, *args, cwd=root)
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], lines


def test_approve_waits_for_no_running_loop(tmp_path: Path, run_argus: Any) -> None:
    from argus.loop.guard.lock import FeatureLock

    root = make_repo(tmp_path, [])
    with FeatureLock(root / "argus/specs" / FEATURE / ".argus-runs", FEATURE):
        result = run_argus("approve", "--feature", FEATURE, "--target", "list", cwd=root)
    assert result.returncode == 2
    assert "another argus loop is running" in result.stderr
