"""The MCP server (``argus mcp``): one tool per Argus command, each run in a child process.
See docs/mcp.md. Also the agent hooks ``argus hook`` serves: the PreToolUse guard
(``run_pre_tool_use``) and installing Argus's hooks in ``.claude/settings.json``
(``install_hooks``).
"""

import typing as _typing

from argus._lazy import lazy_attributes as _lazy_attributes

if _typing.TYPE_CHECKING:
    from argus.agents._guard import run_pre_tool_use
    from argus.agents._hook_install import install_hooks
    from argus.agents._mcp_call import run_argus
    from argus.agents._mcp_server import build_server, serve

# The package's face: each name is imported from its module on first use (PEP 562), so
# importing one module of the package loads none of the others.
_SOURCES = {
    "build_server": "argus.agents._mcp_server",
    "install_hooks": "argus.agents._hook_install",
    "run_argus": "argus.agents._mcp_call",
    "run_pre_tool_use": "argus.agents._guard",
    "serve": "argus.agents._mcp_server",
}

__getattr__ = _lazy_attributes(__name__, _SOURCES, globals())

__all__ = [
    "build_server",
    "install_hooks",
    "run_argus",
    "run_pre_tool_use",
    "serve",
]
