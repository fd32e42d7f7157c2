"""The 256-character rule: text from a page is data, and a long string cannot smuggle a prompt.

Every string in a probe (keys included) longer than ``MAX_TEXT`` is cut so that, marker
included, it is exactly ``MAX_TEXT`` characters and ends with ``TRUNCATION_MARKER``. The rule is
idempotent. The ARIA snapshot is a multi-line document, so it is cut line by line: each line
is one node of the tree and obeys the same limit.
"""

from __future__ import annotations

from typing import Any

MAX_TEXT = 256
TRUNCATION_MARKER = "…[truncated]"
PER_LINE_KEYS = frozenset({"aria_snapshot"})


def truncate_text(text: str, limit: int = MAX_TEXT) -> str:
    if len(text) <= limit:
        return text
    return text[: limit - len(TRUNCATION_MARKER)] + TRUNCATION_MARKER


def truncate_lines(text: str, limit: int = MAX_TEXT) -> str:
    return "\n".join(truncate_text(line, limit) for line in text.split("\n"))


def truncate_probe(value: Any, limit: int = MAX_TEXT) -> Any:
    """A copy of ``value`` (any JSON data) with every string held to ``limit`` characters."""
    if isinstance(value, str):
        return truncate_text(value, limit)
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, item in value.items():
            short_key = truncate_text(str(key), limit)
            if key in PER_LINE_KEYS and isinstance(item, str):
                out[short_key] = truncate_lines(item, limit)
            else:
                out[short_key] = truncate_probe(item, limit)
        return out
    if isinstance(value, list | tuple):
        return [truncate_probe(item, limit) for item in value]
    return value
