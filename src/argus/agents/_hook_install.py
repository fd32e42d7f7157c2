"""`argus hook install`: Argus's Claude Code hooks in a project's ``.claude/settings.json``.

Three hooks: ``Stop`` (argus hook stop: a session does not end while a contract run is open),
``SessionStart`` (argus hook session-start: a new session hears about its open runs) and
``PreToolUse`` on the shell and file tools (argus hook pre-tool-use: they may not take a
person's decisions or edit what the verdict depends on; argus.agents._guard). Installing is
idempotent (a hook already there is not added twice) and keeps every other setting; the file
is replaced whole or not at all. A settings file that is not a JSON object, or whose ``hooks``
is not the shape Claude Code reads, is bad input and is left as it was.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from argus.agents._guard import MATCHER
from argus.errors import InputError
from argus.io import atomic_write_json, loads_json

SETTINGS = Path(".claude") / "settings.json"
HOOKS: tuple[tuple[str, str | None, str], ...] = (
    ("Stop", None, "argus hook stop"),
    ("SessionStart", None, "argus hook session-start"),
    ("PreToolUse", MATCHER, "argus hook pre-tool-use"),
)


def _read(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        data = loads_json(path.read_bytes().decode("utf-8"))
    except (OSError, ValueError, RecursionError) as exc:
        raise InputError(
            f"{path}: not valid JSON ({type(exc).__name__}); fix or remove it, then run "
            "argus hook install again"
        ) from exc
    if not isinstance(data, dict):
        raise InputError(f"{path}: not a JSON object; fix it, then run argus hook install again")
    return data


def _groups(hooks: dict[str, Any], event: str, path: Path) -> list[Any]:
    groups = hooks.setdefault(event, [])
    if not isinstance(groups, list) or not all(
        isinstance(g, dict) and isinstance(g.get("hooks", []), list) for g in groups
    ):
        raise InputError(
            f"{path}: hooks.{event} is not a list of {{matcher, hooks}} groups; fix it, then "
            "run argus hook install again"
        )
    return groups


def install_hooks(root: Path) -> tuple[Path, list[str]]:
    """Add Argus's hooks to ``root``'s .claude/settings.json; the file and what was added."""
    path = root / SETTINGS
    settings = _read(path)
    hooks = settings.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise InputError(f"{path}: hooks is not an object; fix it, then run argus hook install")
    added: list[str] = []
    for event, matcher, command in HOOKS:
        groups = _groups(hooks, event, path)
        present = any(
            isinstance(h, dict) and h.get("command") == command
            for g in groups
            if g.get("matcher") == matcher or (matcher is None and "matcher" not in g)
            for h in g.get("hooks", [])
        )
        if present:
            continue
        group: dict[str, Any] = {"hooks": [{"type": "command", "command": command}]}
        if matcher is not None:
            group = {"matcher": matcher, **group}
        groups.append(group)
        added.append(f"{event}: {command}")
    if added:
        atomic_write_json(path, settings)
    return path, added
