"""Small HTML builders. Every piece of text goes through ``esc``: the page shows data from the
render, the probe, the judge and the user's files, and none of it is ever markup.

The builders return strings; callers pass only escaped text or the output of another builder
as ``inner``. Attribute values are escaped here too.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime

_ID_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")

# Status words to badge tones: green, red, amber, blue; anything else is plain grey.
_TONES = {
    "ok": {"DONE", "pass", "green", "approved", "yes", "finished"},
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
    },
    "warn": {"DONE_WITH_CONCERNS", "unverified", "frozen", "pending", "candidate", "paused"},
    "info": {"NEEDS_CONTEXT", "confirmed", "running", "IN_PROGRESS", "new"},
}


def esc(value: object) -> str:
    return html.escape(str(value), quote=True)


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


def badge(word: str, label: str | None = None) -> str:
    text = label if label is not None else word.replace("_", " ")
    return f'<span class="badge tone-{tone(word)}">{esc(text)}</span>'


def tag(name: str, inner: str, **attrs: str | None) -> str:
    """``<name attrs>inner</name>``; ``class_`` becomes ``class``; None drops an attribute."""
    parts = [name]
    for key, value in attrs.items():
        if value is None:
            continue
        parts.append(f'{key.rstrip("_").replace("_", "-")}="{esc(value)}"')
    return f"<{' '.join(parts)}>{inner}</{name}>"


def table(
    caption: str,
    headers: Sequence[str],
    rows: Iterable[Sequence[str]],
    *,
    row_headers: bool = True,
    cell_classes: Sequence[str | None] = (),
) -> str:
    """A table with a caption and column headers; cells are already-built HTML.

    With ``row_headers`` the first cell of each row is a row header (``th scope=row``).
    """
    head = "".join(f'<th scope="col">{esc(h)}</th>' for h in headers)
    body: list[str] = []
    for row in rows:
        cells: list[str] = []
        for index, cell in enumerate(row):
            cls = cell_classes[index] if index < len(cell_classes) else None
            attr = f' class="{esc(cls)}"' if cls else ""
            if index == 0 and row_headers:
                cells.append(f'<th scope="row"{attr}>{cell}</th>')
            else:
                cells.append(f"<td{attr}>{cell}</td>")
        body.append(f"<tr>{''.join(cells)}</tr>")
    return (
        f'<div class="table-wrap"><table><caption>{esc(caption)}</caption>'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>"
    )


def bullet_list(items: Iterable[str], class_: str | None = None) -> str:
    """A list of already-built HTML items."""
    inner = "".join(f"<li>{item}</li>" for item in items)
    return tag("ul", inner, class_=class_)


def key_values(pairs: Iterable[tuple[str, str]]) -> str:
    """A definition list; keys are text, values already-built HTML."""
    inner = "".join(f"<div><dt>{esc(k)}</dt><dd>{v}</dd></div>" for k, v in pairs)
    return f'<dl class="kv">{inner}</dl>'
