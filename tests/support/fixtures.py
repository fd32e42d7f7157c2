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

``serve(dir)`` returns ``http://127.0.0.1:PORT`` serving ``dir`` with caching off
(``static_server(dir)`` is the same as a context manager, for module-scoped fixtures).
``warm_sensor`` is one session-wide ``argus.sense.Sensor`` (one Chromium for the whole run);
pass ``base_url=`` to aim it at the app you served. It senses as the loop does, the dead-control
probe included (controls.json, read by the judge's functional_correctness). ``gates_sensor`` is
the same without that probe, as ``argus gates`` senses: for tests that read neither controls.json
nor a judge's functional_correctness (which then says "unverified"; the probe loads the view once
more per control, most of a sense's time).
"""

from __future__ import annotations

import functools
import http.server
import sys
import threading
import traceback
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from argus.config import ProjectConfig
from argus.sense.controls_choice import GATES, LOOP
from tests.support.habits import REPO_ROOT

if TYPE_CHECKING:
    from argus.sense import Sensor


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


class QuietServer(http.server.ThreadingHTTPServer):
    """A test's HTTP server whose request errors never reach ``sys.stderr``: a browser that
    drops a connection (a page that timed out, a copy the probe left) is no error, and an
    in-process CLI call captures ``sys.stderr`` for its own one line while this server's
    threads run beside it. Anything else goes to the real standard error."""

    def serve_forever(self, poll_interval: float = 0.05) -> None:
        # ``shutdown`` waits for the loop's next poll: 0.5 s by default, idled at the end of
        # every test that serves an app, about 0.25 s each.
        super().serve_forever(poll_interval)

    def handle_error(self, request: Any, client_address: Any) -> None:
        caught = sys.exc_info()[1]
        if isinstance(caught, ConnectionError):
            return
        traceback.print_exc(file=sys.__stderr__)


@contextmanager
def static_server(
    directory: Path, handler_class: type[http.server.SimpleHTTPRequestHandler] = _QuietHandler
) -> Iterator[str]:
    """Serve ``directory`` on a free port for the block; yields the base URL."""
    handler = functools.partial(handler_class, directory=str(directory))
    server = QuietServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def serve() -> Iterator[Callable[[Path], str]]:
    with ExitStack() as stack:
        yield lambda directory: stack.enter_context(static_server(directory))


@pytest.fixture(scope="session")
def warm_sensor() -> Iterator[Sensor]:
    """One Chromium for the whole test session; aim it with ``base_url=`` per call."""
    from argus.sense import Sensor

    with Sensor(ProjectConfig(root=REPO_ROOT), workers=2, controls=LOOP) as sensor:
        yield sensor


@pytest.fixture(scope="session")
def gates_sensor() -> Iterator[Sensor]:
    """``warm_sensor`` without the dead-control probe (as ``argus gates`` senses)."""
    from argus.sense import Sensor

    with Sensor(ProjectConfig(root=REPO_ROOT), workers=2, controls=GATES) as sensor:
        yield sensor


def pytest_sessionfinish(session: pytest.Session) -> None:
    """The warm parents that forked ``python -m`` runs (tests/support/warm_runner.py) end with
    the session that started them."""
    from tests.support import warm_runner

    warm_runner.shutdown()


# What the MCP tools' commands import (their CLI modules and what those import as they run),
# imported once by the warm parent that forks them.
TOOL_COMMANDS = (
    *(
        f"argus.cli._{name}"
        for name in ("args", "lint", "contract", "referee", "diff", "approve", "review_pr", "loop")
    ),
    *("argus.contract.run", "argus.gates", "argus.loop.human.decisions", "argus.review.flow"),
)


def fork_tool_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    """The MCP tools' ``python -m argus`` children (argus.agents._mcp_call.run_child) forked
    from a warm parent (tests/support/warm_runner.py) with the same argv, working directory,
    environment, stdin and timeout, instead of started as new interpreters."""
    import subprocess

    from argus.agents import _mcp_call
    from tests.support.warm_runner import run_module

    def forked(
        argv: list[str], cwd: Path, env: dict[str, str], timeout: float, stdin: str
    ) -> subprocess.CompletedProcess[str]:
        return run_module(
            argv, cwd=cwd, env=env, timeout=timeout, input=stdin, preload=TOOL_COMMANDS
        )

    monkeypatch.setattr(_mcp_call, "run_child", forked)


@pytest.fixture
def warm_tool_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    """See ``fork_tool_calls``."""
    fork_tool_calls(monkeypatch)
