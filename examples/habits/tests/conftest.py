"""Fixtures for the Habits example's own tests: the app served on a free port, and
pytest-playwright's browser launched the way Argus's sensor launches it."""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from argus.testing import context_options, launch_options

APP = Path(__file__).resolve().parents[1]


class _NoStore(http.server.SimpleHTTPRequestHandler):
    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="session")
def app_url() -> Iterator[str]:
    handler = functools.partial(_NoStore, directory=str(APP))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_type_launch_args, **launch_options(APP)}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    viewport = {"width": 1280, "height": 800}
    return {**browser_context_args, **context_options(APP), "viewport": viewport}
