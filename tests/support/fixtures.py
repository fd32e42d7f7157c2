"""Pytest fixtures for tests that need a served app or a real browser.

Loaded for every test package by ``pytest_plugins`` in tests/conftest.py, so just name them:

    def test_something(serve, tmp_path):
        root = copy_habits(tmp_path, ["missing_id"])
        base_url = serve(root)                  # static server on a free port, stopped afterwards

    @pytest.mark.browser
    def test_render(warm_sensor, serve, tmp_path):
        root = copy_habits(tmp_path)
        spec = load_spec(root / HABITS_SPEC)
        view = spec.views("list")[0]
        result = warm_sensor.sense(spec, view, tmp_path / "out", base_url=serve(root))
        assert result.ok, result.error

``serve(dir)`` returns ``http://127.0.0.1:PORT`` serving ``dir`` with caching off.
``warm_sensor`` is one session-wide ``argus.sense.Sensor`` (one Chromium for the whole run);
pass ``base_url=`` to aim it at the app you served.
"""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def serve() -> Iterator[Callable[[Path], str]]:
    servers: list[http.server.ThreadingHTTPServer] = []

    def start(directory: Path) -> str:
        handler = functools.partial(_QuietHandler, directory=str(directory))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()
