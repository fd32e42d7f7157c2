"""The `argus` command line.

Each subcommand lives in its own module under ``argus.cli`` and exposes
``register(subparsers)``, which adds its parser and sets ``func`` to a handler taking the
parsed namespace and returning an exit code: 0 pass, 1 a determinate failure, 2 bad input or
could not run. Any ArgusError escaping a handler is printed as one line and exits 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from argus import __version__
from argus.errors import ArgusError

# Subcommand modules, in the order `argus --help` lists them.
COMMANDS: tuple[str, ...] = (
    "init",
    "lint",
    "schema",
    "tokens",
    "contrast",
    "ids",
    "verdict",
    "state",
    "runs",
    "diff",
    "sense",
    "gates",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="argus",
        description="Build a UI against a design spec; sign it off only on outside evidence.",
    )
    parser.add_argument("--version", action="version", version=f"argus {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        module = importlib.import_module(f"argus.cli.{name}")
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        code: int = func(args)
    except ArgusError as err:
        print(f"argus: {err}", file=sys.stderr)
        return err.exit_code
    except KeyboardInterrupt:
        print("argus: interrupted", file=sys.stderr)
        return 130
    return code
