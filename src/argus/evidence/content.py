"""Page content is data: cut it short and fence it before any of it reaches a model.

Whatever the page shows (titles, labels, list items, console lines, axe snippets) was written by
the app or its fixtures, not by the person who wrote the spec. A judge evaluates it; it never
follows it. Two rules keep it that way:

- every string from the page is held to 256 characters (the sensor's own rule,
  argus.sense.truncate, applied again here to whatever enters a packet);
- in anything sent to a model, page content sits inside one fenced section whose boundary
  carries a digest of the content itself, so the content cannot close the fence early; the
  fence tag inside the content is defused whatever its case or separators;
- all the page text of one prompt is held to ``MAX_PAGE_CHARS`` (``cap_page``), cut at a line,
  and the prompt says outside the fence how much was left out.
"""

from __future__ import annotations

import hashlib
import re

from argus.sense.truncate import MAX_TEXT, TRUNCATION_MARKER, truncate_probe, truncate_text

__all__ = [
    "FENCE_TAG",
    "MAX_PAGE_CHARS",
    "MAX_TEXT",
    "TRUNCATION_MARKER",
    "cap_page",
    "clip",
    "clip_page_data",
    "defuse",
    "fence",
]

FENCE_TAG = "untrusted-page-content"
# The page text of one prompt, all of it: a 232 KB ARIA tree must not ride beside 13 KB of
# instructions. About 6,000 tokens.
MAX_PAGE_CHARS = 24_000
clip = truncate_text
clip_page_data = truncate_probe
# The fence tag in any case, with any separators (or none) between its words.
_TAG_LIKE = re.compile(r"untrusted[\W_]*page[\W_]*content", re.IGNORECASE)
_DEFUSED = "(fence-tag)"


def defuse(text: str) -> str:
    """``text`` with every spelling of the fence tag made harmless."""
    return _TAG_LIKE.sub(_DEFUSED, text)


def cap_page(text: str, limit: int = MAX_PAGE_CHARS) -> tuple[str, str | None]:
    """``text`` held to ``limit`` characters, cut at a line end; and, when something was cut,
    one sentence saying how much (for the prompt, outside the fence)."""
    if len(text) <= limit:
        return text, None
    head = text[:limit]
    if "\n" in head:
        head = head[: head.rindex("\n")]
    note = (
        f"Argus cut the page data to {len(head):,} of its {len(text):,} characters "
        f"({len(text) - len(head):,} left out, from the end of the accessibility tree and "
        "console); judge only what is shown and say when something you need was cut."
    )
    return head + "\n[…cut by Argus]", note


def fence(label: str, body: str) -> str:
    """``body`` inside a labelled data section that the body itself cannot close."""
    # The tag inside the body is defused so that only our own lines read as a boundary.
    safe = defuse(body)
    digest = hashlib.sha256(safe.encode("utf-8")).hexdigest()[:16]
    return f'<{FENCE_TAG} id="{digest}" label="{label}">\n{safe}\n</{FENCE_TAG} id="{digest}">'
