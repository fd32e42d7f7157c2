"""Sensing on a remote browser (`[browser] connect`): a Playwright browser server started by
the test, as a browser farm would run it. The render must be byte-identical to a local one
with the same build and fonts, and no access token may reach meta.json."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from argus.sense.browser import discover_browser, launch_args, public_endpoint
from tests.conftest import RunArgus
from tests.support.habits import copy_habits, free_port

VIEW = ("--feature", "habits", "--target", "list", "--state", "populated", "--appearance", "light")


def test_public_endpoint_drops_credentials_and_tokens() -> None:
    url = "wss://user:secret@farm.example:8443/chromium/playwright?token=abc#x"
    assert public_endpoint(url) == "wss://farm.example:8443/chromium/playwright"


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ('connect = "file:///tmp/x"', "ws://"),
        ('connect = "http://127.0.0.1:9222"', "connect_protocol"),
    ],
)
def test_bad_endpoints_are_one_config_line(
    tmp_path: Path, run_argus: RunArgus, lines: str, message: str
) -> None:
    root = copy_habits(tmp_path)
    config = root / "argus.toml"
    text = config.read_text()
    config.write_text(text.replace("[browser]", f"[browser]\n{lines}", 1))
    if "[browser]" not in text:
        config.write_text(text + f"\n[browser]\n{lines}\n")
    done = run_argus("sense", *VIEW, cwd=root)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and message in done.stderr


@pytest.fixture
def browser_server(tmp_path: Path) -> Iterator[str]:
    """`playwright launch-server` with Argus's own launch flags; yields its ws endpoint."""
    port = free_port()
    config = tmp_path / "server.json"
    options = {
        "executablePath": discover_browser(),
        "args": launch_args(),
        "headless": True,
        "port": port,
        "host": "127.0.0.1",
        "wsPath": "argus-test",
    }
    config.write_text(json.dumps(options))
    server = subprocess.Popen(
        [sys.executable, "-m", "playwright", "launch-server", "--browser", "chromium",
         "--config", str(config)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
    )  # fmt: skip
    try:
        assert server.stdout is not None
        line = server.stdout.readline().strip()
        assert line.startswith("ws://"), line
        yield line
    finally:
        # `python -m playwright` runs the server in a node child (and that a Chromium): end
        # the whole process group, or they outlive the test.
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=30)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(server.pid, signal.SIGKILL)


@pytest.mark.browser
def test_remote_render_is_byte_identical_to_a_local_one(
    tmp_path: Path, run_argus: RunArgus, browser_server: str
) -> None:
    root = copy_habits(tmp_path)
    local = run_argus("sense", *VIEW, "--out", str(tmp_path / "local"), cwd=root)
    assert local.returncode == 0, local.stderr
    env = {**os.environ, "ARGUS_BROWSER_CONNECT": f"{browser_server}?token=s3cret"}
    remote = run_argus("sense", *VIEW, "--out", str(tmp_path / "remote"), cwd=root, env=env)
    assert remote.returncode == 0, remote.stderr
    assert (tmp_path / "remote/render.png").read_bytes() == (
        tmp_path / "local/render.png"
    ).read_bytes()
    meta_text = (tmp_path / "remote/meta.json").read_text()
    assert "s3cret" not in meta_text
    browser = json.loads(meta_text)["browser"]
    assert browser["endpoint"] == browser_server and "executable" not in browser
    local_meta = json.loads((tmp_path / "local/meta.json").read_text())
    assert browser["version"] == local_meta["browser"]["version"]


@pytest.mark.browser
def test_an_unreachable_endpoint_is_one_line_exit_2(tmp_path: Path, run_argus: RunArgus) -> None:
    root = copy_habits(tmp_path)
    env = {**os.environ, "ARGUS_BROWSER_CONNECT": f"ws://127.0.0.1:{free_port()}/none"}
    done = run_argus("sense", *VIEW, "--out", str(tmp_path / "x"), cwd=root, env=env)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot connect to" in lines[0]
