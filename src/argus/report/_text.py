"""How the pages write times, scores, ids and status words: plain text, no markup."""

from __future__ import annotations

import re
from datetime import UTC, datetime

DASH = "—"

# How the timeline names what an iteration was, and what the loop decided next.
KINDS = {
    "judged": "judged",
    "confirmed": "confirmed, not re-judged",
    "gates_red": "gates red, judge skipped",
    "sensor_failure": "sensor failed",
    "integrity": "protected files changed",
}
ACTIONS = {
    "implement": "implement",
    "fix_gates": "fix the red gates",
    "fix_dimensions": "fix the failing dimensions",
    "confirm": "re-render to confirm",
    "retry_judge": "judge again",
    "signoff": "sign off",
    "stop_budget": "stop: budget used",
}

_ID_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")

# Status words to badge tones: green, red, amber, blue; anything else is plain grey.
_TONES = {
    "ok": {"DONE", "pass", "green", "approved", "yes", "finished", "met"},
    "bad": {
        "BLOCKED",
        "FAILED",
        "fail",
        "error",
        "diff",
        "red",
        "inconclusive",
        "wrong",
        "ABANDONED",
        "unmet",
    },
    "warn": {
        "DONE_WITH_CONCERNS",
        "unverified",
        "frozen",
        "pending",
        "candidate",
        "paused",
        "partial",
    },
    "info": {"NEEDS_CONTEXT", "confirmed", "running", "IN_PROGRESS", "new"},
}


def when(text: str) -> str:
    """An ISO 8601 time as ``2025-01-02 03:04:05 UTC``; anything else unchanged."""
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return text
    if moment.tzinfo is None:
        return moment.strftime("%Y-%m-%d %H:%M:%S")
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def anchor_id(prefix: str, name: str) -> str:
    """An id (and fragment) made only of safe characters, so no escaping is ever needed."""
    return f"{prefix}-{_ID_UNSAFE.sub('_', name)}"


def tone(word: str) -> str:
    for name, words in _TONES.items():
        if word in words:
            return name
    return "plain"


def score_text(score: float | None) -> str:
    if score is None:
        return DASH
    return str(int(score)) if score.is_integer() else f"{score:g}"
