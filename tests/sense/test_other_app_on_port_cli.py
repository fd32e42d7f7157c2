"""Another program answering on the app's port is never sensed, gated or judged as the app.

As a user meets it: `argus init` writes ``reuse_existing = true``, and something else (another
project's dev server, a stale process) already answers at ``[web_server] url``. Every command
that would sense through the configured server refuses in one line that says what happened
and what to do (argus.sense._app_proof), before any render exists to gate or judge.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import RunArgus
from tests.support.habits import copy_habits

COMMANDS = {
    "sense": ("sense", "--feature", "habits", "--all"),
    "gates": ("gates", "--feature", "habits", "--all", "--sense"),
    "gates-default": ("gates", "--feature", "habits", "--all"),
    "loop": ("loop", "--feature", "habits", "--mode", "report-only"),
    "design": ("design", "extract", "--feature", "habits", "--target", "list"),
}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_another_program_on_the_port_is_refused_in_one_line(
    tmp_path: Path, serve: Callable[[Path], str], run_argus: RunArgus, command: str
) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "index.html").write_text("<h1>Some other dashboard</h1>")
    port = int(serve(other).rsplit(":", 1)[1])
    root = copy_habits(tmp_path, port=port)
    done = run_argus(*COMMANDS[command], cwd=root)
    assert done.returncode == 2, done.stdout + done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert done.stderr.count("already answers") == 1  # said once, not once per view
    assert last.startswith("argus: ") and "already answers but Argus did not start it" in last
    assert "another program may hold the port" in last and "[web_server] marker" in last
    runs = root / "argus/specs/habits/.argus-runs"
    assert not list(runs.rglob("render.png")), "the other program's page was rendered"
    assert not list(runs.rglob("verdict.json")), "the other program's page was judged"
