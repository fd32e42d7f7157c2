"""`argus mcp`: serve Argus's tools to an agent over the Model Context Protocol (stdio)."""

from __future__ import annotations

import argparse
from typing import Any

from argus.cli._args import add_root_argument, repo_root
from argus.errors import ConfigError


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "mcp",
        help="serve Argus's tools to an agent over MCP (stdio)",
        description="Run a Model Context Protocol server on standard input and output whose "
        "tools (lint, sense, gates, judge, report, approve, assert_view, diff, referee, loop, "
        "contract_*) run the matching argus "
        "command in this repository. Register it with: claude mcp add argus -- argus mcp",
    )
    add_root_argument(parser)
    parser.add_argument(
        "--role",
        choices=("executor", "grader"),
        default="executor",
        help="grader: a grader's own session, which may only read runs and the Stop policy",
    )
    parser.set_defaults(func=run_mcp)


def run_mcp(args: argparse.Namespace) -> int:
    root = repo_root(args)
    try:
        import mcp  # noqa: F401

        from argus.agents import serve
    except ImportError as exc:
        raise ConfigError("argus mcp needs the MCP SDK: pip install 'argus-ui[mcp]'") from exc
    serve(root, args.role)
    return 0
