"""Each surface that starts a configured program says "not found" in one line, naming it, the
way it reports its other failures: the web server stops the run (exit 2); a gate command's gate
is `error` (tests/gates/test_commands.py); the judge command's verdict is inconclusive
(tests/judge/test_command.py); the implementer, a grader and a mechanical stage record a failed
result."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from argus.config import ProjectConfig, WebServerConfig
from argus.contract import _grader as grader
from argus.contract import run as contract_run
from argus.errors import SensorError
from argus.loop._implementer import run_implementer
from argus.sense.server import web_server
from tests.support.habits import free_port

MISSING = "argus-no-such-program-x7"
SAYS = f"'{MISSING}' not found on PATH"


def test_web_server(tmp_path: Path) -> None:
    port = free_port()
    server = WebServerConfig(command=f"{MISSING} --port {port}", url=f"http://127.0.0.1:{port}/")
    config = ProjectConfig(root=tmp_path, web_server=server)
    with pytest.raises(SensorError, match=SAYS), web_server(config):
        pass


def test_implementer(tmp_path: Path) -> None:
    result = run_implementer(
        f"{MISSING} --feature {{feature}}",
        {"feature": "s"},
        cwd=tmp_path,
        timeout=30,
        log_path=tmp_path / "l",
    )
    assert not result.started and SAYS in result.error


def test_grader_command(tmp_path: Path) -> None:
    verdict = grader._ask_command(MISSING, [MISSING], "prompt", tmp_path, 30, "n")
    assert verdict.verdict is None and SAYS in verdict.error


def test_mechanical_stage(tmp_path: Path) -> None:
    ran = contract_run._run_command(f"{MISSING} test", tmp_path, 30, tmp_path / "log")
    assert ran["exit_code"] == -1 and SAYS in str(ran["note"])
    later = contract_run._run_command(f"cd . && {MISSING}", tmp_path, 30, tmp_path / "log")
    assert later["exit_code"] == 127 and f"'{MISSING}' not found" in str(later["note"])
    failed = contract_run._run_command(
        f"{sys.executable} -c 'exit(127)'", tmp_path, 30, tmp_path / "l"
    )
    assert failed["exit_code"] == 127 and failed["note"] == ""
