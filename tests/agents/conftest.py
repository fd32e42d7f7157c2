"""The contract tests' repository fixture, shared with the MCP tests."""

from tests.contract.conftest import repo  # noqa: F401 (a fixture)
