"""How an MCP tool runs Argus: arguments checked as data, the ``argus`` command run in a child
process, its result as the tool's answer, and a person's decision confirmed through the client.

Arguments are data, never options: a name is a name, a path or sentence may not start with
``-`` or hold a NUL. A person's decision runs only when the client asked its person (MCP
elicitation) and they confirmed; the passphrase they typed reaches the command on its standard
input, and no command inherits ``ARGUS_PERSON_KEY`` from the server.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from mcp.server.mcpserver import AcceptedElicitation, ElicitationResult
from mcp_types import CallToolResult, TextContent
from pydantic import BaseModel

from argus.person import SECRET_ENV

MAX_OUTPUT_CHARS = 60_000
DEFAULT_TIMEOUT_S = 1800.0
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")
MAX_TEXT = 4000


class BadArgument(ValueError):
    """A tool argument that is not what the tool takes."""


def name_arg(value: str, what: str) -> str:
    """A name (feature, target, state, run or stage id): letters, digits, '.', '_', '-'."""
    if not isinstance(value, str) or not NAME.fullmatch(value):
        raise BadArgument(f"{what}: {value!r} is not a name (letters, digits, '.', '_', '-')")
    return value


def text_arg(value: str, what: str, *, limit: int = MAX_TEXT) -> str:
    """A path or a sentence: not empty, not an option, no NUL, bounded."""
    if (
        not isinstance(value, str)
        or not value.strip()
        or value.lstrip().startswith("-")
        or "\0" in value
        or len(value) > limit
    ):
        raise BadArgument(
            f"{what}: {value[:60]!r} is not accepted (empty, starts with '-', holds a NUL or is "
            f"over {limit} characters)"
        )
    return value


def run_argus(
    root: Path,
    args: list[str],
    timeout: float = DEFAULT_TIMEOUT_S,
    stdin: str | None = None,
    *,
    json_lines: bool = False,
) -> dict[str, Any]:
    """Run ``argus ARGS`` in ``root`` (``stdin`` on its standard input); the result as a tool
    returns it, with ``json`` the parsed document (``json_lines``: the list of one object a
    line). The command never inherits the person passphrase from the server."""
    env = {k: v for k, v in os.environ.items() if k != SECRET_ENV}
    argv = [sys.executable, "-m", "argus", *args]
    try:
        done = run_child(argv, root, env, timeout, stdin if stdin is not None else "")
    except subprocess.TimeoutExpired:
        return {"exit_code": 2, "stdout": "", "stderr": f"argus {args[0]}: timed out"}
    result: dict[str, Any] = {
        "exit_code": done.returncode,
        "stdout": done.stdout[-MAX_OUTPUT_CHARS:],
        "stderr": done.stderr[-MAX_OUTPUT_CHARS:],
    }
    text = done.stdout.strip()
    if json_lines:
        with contextlib.suppress(json.JSONDecodeError, ValueError, RecursionError):
            result["json"] = [json.loads(line) for line in text.splitlines() if line.strip()]
    elif text.startswith(("{", "[")):
        with contextlib.suppress(json.JSONDecodeError, ValueError, RecursionError):
            result["json"] = json.loads(text)
    return result


def run_child(
    argv: list[str], cwd: Path, env: dict[str, str], timeout: float, stdin: str
) -> subprocess.CompletedProcess[str]:
    """The one process a tool call starts: ``argv`` in ``cwd`` with exactly ``env``, ``stdin``
    on its standard input, its output captured as text (the tests fork it from a warm parent,
    tests/support/warm_runner.py)."""
    return subprocess.run(
        argv,
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        input=stdin,
    )


def tool_result(result: dict[str, Any]) -> CallToolResult:
    """The tool's answer: the result as structured content and JSON text, ``isError`` unless
    the command exited 0."""
    return CallToolResult(
        content=[TextContent(type="text", text=json.dumps(result))],
        structured_content=result,
        is_error=result.get("exit_code") != 0,
    )


def refused(message: str) -> CallToolResult:
    return tool_result({"exit_code": 2, "stdout": "", "stderr": f"argus: {message}"})


def call(root: Path, build: Any) -> CallToolResult:
    """Build the argv (a BadArgument is refused before anything runs), run it, answer."""
    try:
        args = build()
    except BadArgument as exc:
        return refused(str(exc))
    return tool_result(run_argus(root, args))


class Confirmation(BaseModel):
    confirm: bool
    passphrase: str = ""


def as_the_person(
    root: Path, args: list[str], person: ElicitationResult[Confirmation]
) -> CallToolResult:
    """Run a person's decision once the person confirmed it through the client; the
    passphrase they typed goes to the command's standard input (the command checks it)."""
    if not isinstance(person, AcceptedElicitation) or not person.data.confirm:
        what = " ".join(word for word in args[:2] if not word.startswith("-"))
        return refused(
            f"{what} is a person's decision and the person did not confirm; run "
            f"`argus {' '.join(args)}` in a terminal"
        )
    return tool_result(run_argus(root, args, stdin=person.data.passphrase + "\n"))


PERSON_ASKS = (
    "Confirm only if you looked at the evidence yourself, and type your Argus person "
    "passphrase (set with `argus person init`)."
)
