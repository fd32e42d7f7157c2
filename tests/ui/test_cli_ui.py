"""`argus ui` on bad input or when it cannot start: one line on stderr, exit 2."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

from argus.store.ui_marker import RunningMarker
from tests.loop.fakeapp import make_repo


def _one_line(result: Any, needle: str) -> None:
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], lines
    assert "launch token" not in result.stdout  # nothing served, no token printed


def test_a_port_out_of_range(tmp_path: Path, run_argus: Any) -> None:
    root = make_repo(tmp_path, [])
    _one_line(run_argus("ui", "--port", "70000", cwd=root), "--port: '70000' must be a port")


def test_a_port_in_use(tmp_path: Path, run_argus: Any) -> None:
    root = make_repo(tmp_path, [])
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        _one_line(run_argus("ui", "--port", str(port), cwd=root), "cannot listen there")


def test_a_second_page_on_the_same_repository(tmp_path: Path, run_argus: Any) -> None:
    root = make_repo(tmp_path, [])
    with RunningMarker(root, "http://127.0.0.1:9999/"):
        result = run_argus("ui", "--port", "0", cwd=root)
    _one_line(result, "already serving this repository at http://127.0.0.1:9999")


def test_stopping_the_page_ends_cleanly_and_the_report_stops_linking(tmp_path: Path) -> None:
    from argus.store.ui_marker import running_url
    from tests.ui.support import serve_ui

    root = make_repo(tmp_path, [])
    with serve_ui(root) as ui:
        assert running_url(root) == ui.url.rstrip("/")
        served = ui.process
    # SIGTERM: uvicorn shuts down, the marker is released
    assert served.returncode == 0, served.stderr.read() if served.stderr else ""
    assert running_url(root) is None
    assert not (root / ".argus" / "ui.json").exists()
