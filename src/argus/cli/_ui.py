"""`argus ui`: the local review page (see docs/ui.md)."""

from __future__ import annotations

import argparse
from typing import Any

from argus.cli._args import add_root_argument, repo_root
from argus.cli._types import port

DEFAULT_PORT = 8765


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "ui",
        help="serve the local review page: compare renders, accept baselines, approve",
        description="Serve a review page for this repository on 127.0.0.1: runs and views with "
        "their status, render/reference/baseline compared side by side, overlaid or split, the "
        "diff with changed regions boxed, the verdict, gates and timeline, and the decisions "
        "argus approve makes (accept a baseline, HE-1, HE-2). Decisions need the launch token "
        "printed here. Exit 0 when stopped, 2 when it cannot start.",
    )
    parser.add_argument(
        "--port",
        type=port,
        default=DEFAULT_PORT,
        help=f"port on 127.0.0.1 (default {DEFAULT_PORT}; 0 picks a free one)",
    )
    parser.add_argument("--open", action="store_true", help="open the page in a browser")
    add_root_argument(parser)
    parser.set_defaults(func=ui_command)


def ui_command(args: argparse.Namespace) -> int:
    from argus.ui.server import serve

    return serve(repo_root(args), args.port, open_browser=args.open)
