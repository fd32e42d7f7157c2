"""The `argus` command line.

Each subcommand lives in its own module under ``argus.cli`` and exposes
``register(subparsers)``, which adds its parser and sets ``func`` to a handler taking the
parsed namespace and returning an exit code: 0 pass, 1 a determinate failure, 2 bad input or
could not run. Any ArgusError escaping a handler is printed as one line and exits 2.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from argus import __version__
from argus._blas import numpy_not_needed, one_thread_while_numpy_loads
from argus._interrupt import interrupts, raise_if_interrupted
from argus._lazy import lazy_attributes
from argus.errors import ArgusError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy takes it as True)
if TYPE_CHECKING:
    from typing import Any, NoReturn

    from argus.cli._demo import apply_defects

__all__ = ["COMMANDS", "apply_defects", "main"]

# The demo's seeded defects, for bench/loop_bench.py; loaded on first use (PEP 562), so
# importing argus.cli loads no verb.
_SOURCES = {"apply_defects": "argus.cli._demo"}
__getattr__ = lazy_attributes(__name__, _SOURCES, globals())

PERSON_SECRET_ENV = "ARGUS_PERSON_KEY"  # argus.person.SECRET_ENV, without importing it here

# Subcommands, in the order `argus --help` lists them; each is the private module
# argus.cli._NAME (the other underscored modules are helpers the verbs share).
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
    "judge",
    "assert",
    "review",
    "referee",
    "layout",
    "design",
    "lighthouse",
    "contract",
    "hook",
    "mcp",
    "loop",
    "approve",
    "person",
    "demo",
    "report",
    "merge",
    "ui",
)


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's help formatter, given the terminal's width as ``shutil.get_terminal_size``
    finds it without importing ``shutil``: argparse makes a formatter for every argument it
    adds (to check the argument's metavar), and ``shutil``'s import (``bz2``, ``lzma``,
    ``fnmatch``) was about 3 % of an ``argus diff`` process that prints no help."""

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        if width is None:
            width = terminal_columns() - 2  # as argparse does with shutil's columns
        super().__init__(prog, indent_increment, max_help_position, width)


def terminal_columns(fallback: int = 80) -> int:
    """``shutil.get_terminal_size().columns``: ``COLUMNS`` when it is a positive integer,
    else the width of the terminal on ``sys.__stdout__``, else ``fallback``."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    stdout = sys.__stdout__
    try:
        columns = os.get_terminal_size(stdout.fileno()).columns if stdout is not None else 0
    except (AttributeError, ValueError, OSError):
        columns = 0
    return columns or fallback


class _Parser(argparse.ArgumentParser):
    """argparse's parser with its refusals as our one line: "argus: WHAT (see 'argus VERB
    --help')", exit 2, instead of the whole usage block before the error. Every subcommand's
    parser is one of these (argparse builds subparsers of the parent's class), and each
    formats its help with ``_HelpFormatter``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"argus: {one_line(message)} (see '{self.prog} --help')\n")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The full parser, or with ``only`` just that subcommand (keeps start-up fast: a command
    imports numpy, Playwright and friends only when it is the one being run)."""
    parser = _Parser(
        prog="argus",
        description="Build a UI against a design spec; sign it off only on outside evidence.",
    )
    parser.add_argument("--version", action="version", version=f"argus {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS if only is None else (only,):
        module = importlib.import_module(f"argus.cli._{name}")
        module.register(subparsers)
    return parser


def _invoked_command(argv: Sequence[str]) -> str | None:
    """The subcommand named by argv, when it is the first argument and a known one."""
    if argv and argv[0] in COMMANDS:
        return argv[0]
    return None


def one_line(message: str) -> str:
    """``message`` as one printable line: a file name or key can hold a newline, a carriage
    return or a terminal escape, and an error message must stay one line that cannot redraw
    the terminal; such characters are shown escaped."""
    return "".join(
        ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in message
    )


def main(argv: Sequence[str] | None = None) -> int:
    try:
        with interrupts():
            code = _run(argv)
            raise_if_interrupted()  # a Ctrl-C that landed where Python drops its error
            return code
    except KeyboardInterrupt:
        # Anywhere: while commands import, while one runs, while it cleans up. Each resource
        # closes on the way out (a sensor ends its browser's tasks first, argus.sense.sensor),
        # so this one line is all a Ctrl-C prints.
        print("argus: interrupted", file=sys.stderr)
        if argv is None:
            _quiet_exit()
        return 130
    finally:
        numpy_not_needed()


def _quiet_exit() -> None:
    """The process is ending on a Ctrl-C: what a foreign library abandoned half-way (a
    browser driver still starting, an asyncio transport) must not print its own teardown
    complaints after our one line. Only as the program: a caller of ``main`` keeps its hooks."""
    import logging

    logging.getLogger("asyncio").disabled = True
    sys.unraisablehook = lambda _: None


def _run(argv: Sequence[str] | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv == ["--version"]:
        # Agents and hooks probe this often: answer before any subcommand module is imported.
        print(f"argus {__version__}")
        return 0
    one_thread_while_numpy_loads()
    parser = build_parser(only=_invoked_command(argv))
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help(sys.stderr)
        return 2
    # The person passphrase stays with this process: no program Argus starts (a stage command,
    # the implementer, a web server) inherits it from the environment (argus.person).
    secret = os.environ.pop(PERSON_SECRET_ENV, None)
    if secret is not None:
        from argus import person

        person.held_secret = secret
    try:
        code: int = func(args)
    except ArgusError as err:
        print(f"argus: {one_line(str(err))}", file=sys.stderr)
        return err.exit_code
    except OSError as err:
        # Last safety net: the seams map these to ArgusErrors naming the file; one that slips
        # through is still one line and "could not run", never a traceback.
        where = f"{err.filename}: " if err.filename else ""
        print(f"argus: {one_line(f'{where}{err.strerror or err}')}", file=sys.stderr)
        return 2
    except MemoryError:
        print("argus: out of memory; the input is too large", file=sys.stderr)
        return 2
    except RecursionError:
        print("argus: the input is nested too deeply to process", file=sys.stderr)
        return 2
    finally:
        if secret is not None:
            os.environ[PERSON_SECRET_ENV] = secret
            person.held_secret = None
    return code
