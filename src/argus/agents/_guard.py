"""The Claude Code ``PreToolUse`` hook: an agent's shell and file tools may not take a person's
decisions or edit what the verdict depends on.

``argus hook pre-tool-use`` reads the tool call Claude Code is about to make (JSON on standard
input: ``tool_name``, ``tool_input``, ``cwd``) and denies it
(``hookSpecificOutput.permissionDecision: "deny"`` with the reason, which the agent sees) when:

- a ``Bash`` command names a person's decision: ``argus contract pause|resume|abort|pin``,
  ``argus approve``, ``argus person``, ``--update-snapshots`` (accepting renders as
  baselines), or Argus's modules that take them
  (``argus.person``, ``argus.contract.pins``, ``argus.loop.human``);
- a ``Bash`` command names a protected path and something that writes (a redirection,
  ``rm``, ``mv``, ``cp``, ``sed -i``, ``tee``, ``chmod``, an interpreter given code ...);
- ``Edit``, ``Write``, ``MultiEdit`` or ``NotebookEdit`` targets a protected path.

Protected: the spec folders (``argus/specs/``: specs, tokens, references, snapshots, run
records), ``__snapshots__`` folders, ``argus.toml``, a ``pyproject.toml`` holding
``[tool.argus]``, ``.argus/`` (the run store, contract runs, presets), every contract file a
person pinned, Claude Code's own settings (where this hook is installed) and Argus's state
homes (pins, the person key, the registry of open runs).

This is a tripwire on the agent's tools, not a wall: a shell is a programming language, and a
command that builds the words at run time gets past any reading of it. What holds regardless
is the person key (argus.person) and, for a confined agent, the confinement. An event the hook
cannot read is denied, never waved through.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from argus.io import loads_json
from argus.state_home import state_homes

FILE_TOOLS = {"Edit": "file_path", "Write": "file_path", "MultiEdit": "file_path",
              "NotebookEdit": "notebook_path"}  # fmt: skip
GUARDED_TOOLS = ("Bash", *FILE_TOOLS)
MATCHER = "|".join(GUARDED_TOOLS)
MAX_EVENT_BYTES = 1024 * 1024
_OPTIONS = r"(?:\s+-\S+)*\s+"  # options between the words: --root X is two words
_HUMAN = r"(?:pause|resume|abort|pin)"
PERSON_COMMANDS = re.compile(
    rf"\bargus(?:{_OPTIONS}\S+)?{_OPTIONS}contract{_OPTIONS}(?:\S+\s+)?{_HUMAN}\b"
    rf"|\bargus{_OPTIONS}(?:approve|person)\b"
    rf"|\bargus\.cli\b.*['\"](?:approve|person|{_HUMAN})['\"]"
    r"|\bargus\.(?:person|contract\.pins|loop\.human)\b"
    rf"|\bargus\.contract\b.*\b(?:{_HUMAN}|forget)\s*\("
    r"|\b(?:require_person|set_key|person_secret)\b"
    r"|--update-snapshots\b"  # accepting renders as baselines (argus gates, the pytest plugin)
    r"|ARGUS_PERSON_KEY|ARGUS_CONFINED",
    re.DOTALL,
)
WRITES = re.compile(
    r">|\b(?:rm|rmdir|mv|cp|ln|tee|touch|truncate|dd|install|rsync|chmod|chown|chattr|"
    r"setfattr|unlink|shred|patch|sed\s+-i|perl\s+-[a-z]*i|git\s+(?:checkout|restore|apply|"
    r"reset|stash|clean|rm|mv)|python\d*(?:\.\d+)?|node|ruby|perl|php|sqlite3|awk|ex|vi|vim|"
    r"nano|emacs|ed)\b"
)
PROTECTED_NAMES = re.compile(
    r"argus/specs\b|__snapshots__|\bargus\.toml\b|(?:^|[\s/'\"=])\.argus\b|\.claude/settings"
    r"|\.local/state/argus|contract-pins|person-key|contract-runs|loop-runs|\.argus-runs"
)


def _deny(reason: str) -> dict[str, Any]:
    return {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }
    }


def _pinned_contracts(root: Path) -> set[Path]:
    """The files of contracts a person pinned for this repository (records read in name order,
    an unreadable one skipped)."""
    found: set[Path] = set()
    base = str(root.resolve())
    for home in state_homes():
        for record in sorted((home / "contract-pins").glob("*.json")):
            try:
                data = json.loads(record.read_bytes()[:65536])
            except (OSError, ValueError, RecursionError):
                continue
            if isinstance(data, dict) and data.get("root") == base:
                path = Path(str(data.get("path", "")))
                found.add((path if path.is_absolute() else root / path).resolve())
    return found


def protected_path(path: Path, root: Path) -> str | None:
    """What ``path`` (absolute) is, when it is protected; None when an agent may edit it."""
    target = path.resolve()
    for home in state_homes():
        if target.is_relative_to(home.resolve()):
            return "Argus's state home (pins, the person key, open runs)"
    if target in _pinned_contracts(root):
        return "a contract a person pinned"
    try:
        parts = target.relative_to(root.resolve()).parts
    except ValueError:
        parts = target.parts
    if parts[:2] == ("argus", "specs"):
        return "a spec folder (spec, tokens, references, snapshots, run records)"
    if "__snapshots__" in parts or ".argus-runs" in parts:
        return "snapshot baselines or run records"
    if ".argus" in parts:
        return "Argus's run store and contract runs (.argus/)"
    if target.name == "argus.toml":
        return "argus.toml"
    if ".claude" in parts and target.name.startswith("settings"):
        return "Claude Code's settings, where Argus's hooks are installed"
    if target.name == "pyproject.toml":
        try:
            if "[tool.argus" in target.read_text("utf-8", "replace"):
                return "pyproject.toml's [tool.argus]"
        except OSError:
            pass
    return None


def _bash(command: str) -> str | None:
    if PERSON_COMMANDS.search(command):
        return (
            "the command takes a person's decision (argus contract pause/resume/abort/pin, "
            "argus approve, argus person, --update-snapshots); a person runs it in their own "
            "terminal"
        )
    if PROTECTED_NAMES.search(command) and WRITES.search(command):
        return (
            "the command may write a protected path (spec folders, snapshots, argus.toml, "
            ".argus/, Claude Code's settings, Argus's state home); only a person changes them"
        )
    return None


def decide(event: dict[str, Any]) -> dict[str, Any] | None:
    """The deny decision for one tool call, or None to let it through."""
    tool = event.get("tool_name")
    arguments = event.get("tool_input")
    if tool not in GUARDED_TOOLS:
        return None
    if not isinstance(arguments, dict):
        return _deny(f"argus hook pre-tool-use: the {tool} call has no readable tool_input")
    if tool == "Bash":
        command = arguments.get("command")
        if not isinstance(command, str):
            return _deny("argus hook pre-tool-use: the Bash call has no command to check")
        why = _bash(command)
        return _deny(f"Argus refuses this: {why}") if why else None
    where = arguments.get(FILE_TOOLS[str(tool)])
    cwd = event.get("cwd")
    if not isinstance(where, str) or not where or "\0" in where:
        return _deny(f"argus hook pre-tool-use: the {tool} call names no file to check")
    base = Path(cwd) if isinstance(cwd, str) and Path(cwd).is_absolute() else Path.cwd()
    path = Path(where) if Path(where).is_absolute() else base / where
    from argus.spec.paths import find_repo_root

    try:
        root = find_repo_root(base)
    except Exception:
        root = base
    what = protected_path(path, root)
    if what:
        return _deny(f"Argus refuses this: {path} is {what}; only a person changes it")
    return None


def run_pre_tool_use(raw: bytes) -> str:
    """What the hook prints: a deny decision as JSON, or nothing. Fails closed: an event it
    cannot read, or any error of its own, denies the call."""
    try:
        if len(raw) > MAX_EVENT_BYTES:
            raise ValueError(f"the event is over {MAX_EVENT_BYTES} bytes")
        event = loads_json(raw.decode("utf-8"))
        if not isinstance(event, dict):
            raise ValueError("the event is not a JSON object")
        decision = decide(event)
    except Exception as exc:
        decision = _deny(f"argus hook pre-tool-use could not read the tool call ({exc!r:.200})")
    return json.dumps(decision) if decision else ""
