"""Which console entries count: one policy for the console gate, the metric judge and the referee.

A console capture (console.json: ``messages`` with ``level``, ``text`` and ``location``
"url:line:column", and ``page_errors``) gets the same count wherever it is read. Not counted:

- Chromium's own "Failed to load resource" for the ``/favicon.ico`` it asks every origin for
  when the page names no icon (the page cannot avoid it; an icon the page links to elsewhere,
  or anything else logged against that URL, still counts);
- console messages matching one of the project's ``[gates.console] ignore`` patterns (regular
  expressions searched in the message text and in its location), for noise the project has
  decided is not its own, e.g. a third-party widget.

Uncaught page errors always count: a crash is never noise. The counts never carry message
text, since a page can write anything to its console.
"""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from argus.errors import InputError

# console.json locations are "url:line:column".
_LOCATION_SUFFIX = re.compile(r":\d+:\d+$")


@dataclass(frozen=True)
class ConsoleCounts:
    page_errors: int
    console_errors: int  # errors that count, after the policy
    console_warnings: int
    ignored_favicon: int
    ignored_by_pattern: int  # messages of any level an ignore pattern matched

    def to_json(self) -> dict[str, int]:
        return {
            "page_errors": self.page_errors,
            "console_errors": self.console_errors,
            "console_warnings": self.console_warnings,
            "ignored_favicon": self.ignored_favicon,
            "ignored_by_pattern": self.ignored_by_pattern,
        }


@dataclass(frozen=True)
class ConsolePolicy:
    """Ignore patterns (compiled) on top of the built-in favicon rule."""

    ignore: tuple[re.Pattern[str], ...] = ()

    @classmethod
    def from_patterns(
        cls, patterns: Sequence[str], source: str = "[gates.console] ignore"
    ) -> ConsolePolicy:
        return cls(tuple(compile_pattern(p, source) for p in patterns))

    def ignored(self, message: Mapping[str, Any]) -> bool:
        text = str(message.get("text", ""))
        location = str(message.get("location", ""))
        return any(p.search(text) or p.search(location) for p in self.ignore)

    def count(self, console: Mapping[str, Any], source: str = "console.json") -> ConsoleCounts:
        """Count what the policy keeps; a malformed capture is an InputError naming ``source``."""
        messages = console.get("messages", [])
        page_errors = console.get("page_errors", [])
        if not isinstance(messages, list) or not all(isinstance(m, dict) for m in messages):
            raise InputError(f"{source}: 'messages' must be a list of objects; re-sense the view")
        if not isinstance(page_errors, list):
            raise InputError(f"{source}: 'page_errors' must be a list; re-sense the view")
        levels: dict[str, int] = {}
        favicon = by_pattern = 0
        for message in messages:
            level = str(message.get("level", "log"))
            if level == "error" and is_missing_favicon(message):
                favicon += 1
            elif self.ignored(message):
                by_pattern += 1
            else:
                levels[level] = levels.get(level, 0) + 1
        return ConsoleCounts(
            page_errors=len(page_errors),
            console_errors=levels.get("error", 0),
            console_warnings=levels.get("warning", 0),
            ignored_favicon=favicon,
            ignored_by_pattern=by_pattern,
        )


def compile_pattern(pattern: str, source: str) -> re.Pattern[str]:
    if not pattern:
        raise InputError(f"{source}: an empty pattern would ignore every message; remove it")
    try:
        return re.compile(pattern)
    except re.error as exc:
        raise InputError(
            f"{source}: {pattern!r} is not a regular expression ({exc}); fix the pattern"
        ) from exc


def is_missing_favicon(message: Mapping[str, Any]) -> bool:
    """Chromium's resource error for the ``/favicon.ico`` it asks every origin for by itself."""
    text = str(message.get("text", ""))
    if not text.startswith("Failed to load resource"):
        return False
    url = _LOCATION_SUFFIX.sub("", str(message.get("location", "")))
    return urllib.parse.urlsplit(url).path == "/favicon.ico"
