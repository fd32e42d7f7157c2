"""What the user configures must be there: a browser, a server directory, one server.

Each is tried as a user meets it, through `argus sense` in this process: a wrong
``ARGUS_BROWSER``, ``[browser] executable``, ``[web_server] cwd`` or a ``base_url`` that names
another server than ``[web_server] url`` is one line and exit 2, never a quiet fall back to
something else (argus.sense.browser, argus.sense.server, argus.config)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from argus.config import load_config
from tests.conftest import RunArgus
from tests.gates.test_cli_gates import VIEW
from tests.support.habits import copy_habits

SENSE = ("sense", *VIEW)


def _one_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("argus: ")
    return lines[0]


def _edited(root: Path, old: str, new: str) -> None:
    config = root / "argus.toml"
    text = config.read_text()
    assert old in text
    config.write_text(text.replace(old, new, 1))


@pytest.mark.parametrize("value", ["/nonexistent", "no-such-chromium"])
def test_argus_browser_that_is_not_there_is_exit_2(
    tmp_path: Path, run_argus: RunArgus, value: str
) -> None:
    root = copy_habits(tmp_path)
    done = run_argus(*SENSE, cwd=root, env={**os.environ, "ARGUS_BROWSER": value})
    assert done.returncode == 2, done.stderr
    line = _one_line(done.stderr)
    assert f"ARGUS_BROWSER = {value!r}" in line
    assert ("does not exist" if "/" in value else "is not on PATH") in line
    assert not list(root.glob("argus/specs/habits/.argus-runs/*/render.png"))


def test_browser_executable_that_is_not_there_is_exit_2(
    tmp_path: Path, run_argus: RunArgus
) -> None:
    root = copy_habits(tmp_path)
    with (root / "argus.toml").open("a") as config:
        config.write('\n[browser]\nexecutable = "/nope"\n')
    done = run_argus(*SENSE, cwd=root)
    assert done.returncode == 2, done.stderr
    line = _one_line(done.stderr)
    assert "argus.toml: [browser] executable = '/nope': does not exist" in line


def test_web_server_cwd_that_is_not_there_is_exit_2(tmp_path: Path, run_argus: RunArgus) -> None:
    root = copy_habits(tmp_path)
    _edited(root, "reuse_existing = true", 'reuse_existing = true\ncwd = "app"')
    done = run_argus(*SENSE, cwd=root)
    assert done.returncode == 2, done.stderr
    line = _one_line(done.stderr)
    assert "[web_server] cwd = 'app': no such directory" in line


def test_base_url_naming_another_server_than_web_server_url_is_exit_2(
    tmp_path: Path, run_argus: RunArgus
) -> None:
    root = copy_habits(tmp_path)
    text = (root / "argus.toml").read_text()
    port = text.split('base_url = "http://127.0.0.1:', 1)[1].split('"', 1)[0]
    _edited(root, f'base_url = "http://127.0.0.1:{port}"', 'base_url = "http://127.0.0.1:9"')
    done = run_argus(*SENSE, cwd=root)
    assert done.returncode == 2, done.stderr
    line = _one_line(done.stderr)
    assert "base_url 'http://127.0.0.1:9' and web_server.url" in line
    assert "name different servers" in line
    # The same server spelt another way (localhost, a path) is the same server.
    _edited(root, 'base_url = "http://127.0.0.1:9"', f'base_url = "http://localhost:{port}/app"')
    assert load_config(root).base_url == f"http://localhost:{port}/app"
