"""Ctrl-C in a command that drives a browser ends in one line, exit 130, no traceback.

A terminal's Ctrl-C sends SIGINT to the whole foreground process group: Argus, Playwright's
driver and (unless kept out of it) the browser. Only a process shows that, so each command runs
as one, in a group of its own, and gets SIGINT once its first view is rendered and more are in
flight (where a page being reset under a closing browser used to end in an asyncio traceback).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.habits import copy_habits
from tests.support.processes import running

pytestmark = pytest.mark.browser
WAIT_S = 240.0  # a bound on a hung run, not a measurement


def _interrupted_once_rendering(root: Path, *command: str) -> subprocess.CompletedProcess[str]:
    runs = root / "argus/specs/habits/.argus-runs"
    process = subprocess.Popen(
        [sys.executable, "-m", "argus", *command],
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + WAIT_S
    while not any(runs.rglob("render.png")):
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the first view never rendered"
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=WAIT_S)
    return subprocess.CompletedProcess(command, process.returncode, out, err)


@pytest.mark.parametrize(
    "command",
    [
        ("sense", "--feature", "habits", "--all", "--workers", "2"),
        ("loop", "--feature", "habits", "--mode", "report-only"),
    ],
    ids=["sense", "loop"],
)
def test_ctrl_c_is_one_line_and_exit_130(tmp_path: Path, command: tuple[str, ...]) -> None:
    root = copy_habits(tmp_path)
    port = (root / "argus.toml").read_text().split("--port ", 1)[1].split('"', 1)[0]
    done = _interrupted_once_rendering(root, *command)
    assert done.returncode == 130, done.stderr
    assert done.stderr.endswith("argus: interrupted\n"), done.stderr
    assert done.stderr.count("argus: interrupted") == 1
    for noise in ("Traceback", "Exception", "Error", "Task was destroyed", "never retrieved"):
        assert noise not in done.stderr, done.stderr
    assert not running(f"serve.py --port {port}"), "the web server outlived the run"
