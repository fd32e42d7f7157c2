"""The contract tests' repository fixture, shared with the MCP tests; the MCP tools' commands
forked from a warm parent (tests/support/fixtures.py, ``fork_tool_calls``) unless a test is
marked ``fresh_tool_calls``."""

import pytest

from tests.contract.conftest import repo  # noqa: F401 (a fixture)
from tests.support.fixtures import fork_tool_calls


@pytest.fixture(autouse=True)
def _tool_calls_forked_warm(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    if request.node.get_closest_marker("fresh_tool_calls") is None:
        fork_tool_calls(monkeypatch)
