"""`argus hook stop`: the Claude Code Stop hook that keeps a session going while a contract run
is open; `argus hook session-start`: the SessionStart hook that tells a new session about its
open runs; `argus hook pre-tool-use`: the PreToolUse hook that denies an agent's shell and file
tools a person's decisions and protected files. Each reads the hook's JSON on standard input and
prints its answer, or nothing. `argus hook install` puts the three in .claude/settings.json."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "hook",
        help="agent hooks: `argus hook stop` for Claude Code's Stop event",
        description="Hooks for coding agents. `argus hook stop` reads the Stop event's JSON on "
        'standard input and prints {"decision": "block", "reason": ...} while a contract run '
        "in the session's directory is running or verifying with a required stage not passed.",
    )
    actions = parser.add_subparsers(dest="hook_action", metavar="HOOK", required=True)
    stop = actions.add_parser("stop", help="refuse to end a session with an open contract run")
    stop.set_defaults(func=run_stop)
    start = actions.add_parser(
        "session-start",
        help="tell a new session about its open contract and loop runs (never resumes)",
    )
    start.set_defaults(func=run_session_start)
    guard = actions.add_parser(
        "pre-tool-use",
        help="deny an agent's shell and file tools a person's decisions and protected files",
    )
    guard.set_defaults(func=run_pre_tool_use)
    install = actions.add_parser(
        "install",
        help="add Argus's Stop, SessionStart and PreToolUse hooks to .claude/settings.json",
    )
    install.add_argument("--root", type=Path, help="repository root (default: found from cwd)")
    install.set_defaults(func=run_install)


def _stdin() -> bytes:
    """Standard input as bytes (decoding is the hook's, so bad UTF-8 blocks, never crashes)."""
    try:
        buffer = getattr(sys.stdin, "buffer", None)
        if buffer is not None:
            return bytes(buffer.read())
        return str(sys.stdin.read()).encode("utf-8", "surrogateescape")
    except Exception:  # unreadable input is the hook's problem to report: it blocks
        return b"\xff"


def _own_directory() -> Path | None:
    """The hook's working directory; None when it no longer exists (the hook says so)."""
    try:
        return Path.cwd()
    except OSError:
        return None


def run_session_start(args: argparse.Namespace) -> int:
    from argus.contract.hook import session_start
    from argus.loop.records.openruns import open_loop_runs

    out = session_start(
        _stdin(), os.environ.get("CLAUDE_PROJECT_DIR"), _own_directory(), open_loop_runs
    )
    if out:
        print(out)
    return 0


def run_pre_tool_use(args: argparse.Namespace) -> int:
    from argus.agents import run_pre_tool_use as decide

    out = decide(_stdin())
    if out:
        print(out)
    return 0


def run_install(args: argparse.Namespace) -> int:
    from argus.agents import install_hooks
    from argus.cli._args import repo_root

    path, added = install_hooks(repo_root(args))
    for line in added:
        print(f"added {line}")
    print(f"{path}: Argus's hooks are installed" + ("" if added else " (nothing to add)"))
    from argus.person import has_key

    if not has_key():
        print("note: no person passphrase is set yet; set yours with `argus person init`")
    return 0


def run_stop(args: argparse.Namespace) -> int:
    from argus.contract.hook import run_stop_hook

    # The event names its directory (cwd); Claude Code also exports the project's directory;
    # the hook looks in both, in its own, and above each.
    out = run_stop_hook(_stdin(), os.environ.get("CLAUDE_PROJECT_DIR"), _own_directory())
    if out:
        print(out)
    return 0
