"""The MCP server (``argus mcp``): one tool per Argus command, each run in a child process.
See docs/mcp.md.
"""

import typing as _typing

from argus._lazy import lazy_attributes as _lazy_attributes

if _typing.TYPE_CHECKING:
    from argus.agents.mcp_call import run_argus
    from argus.agents.mcp_server import build_server, serve

# The package's face: each name is imported from its module on first use (PEP 562), so
# importing one module of the package loads none of the others.
_SOURCES = {
    "build_server": "argus.agents.mcp_server",
    "run_argus": "argus.agents.mcp_call",
    "serve": "argus.agents.mcp_server",
}

__getattr__ = _lazy_attributes(__name__, _SOURCES, globals())

__all__ = [
    "build_server",
    "run_argus",
    "serve",
]
