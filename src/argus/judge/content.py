"""Page content is data: cut it short and fence it before any of it reaches a model.

Whatever the page shows (titles, labels, list items, console lines, axe snippets) was written by
the app or its fixtures, not by the person who wrote the spec. A judge evaluates it; it never
follows it. Two rules keep it that way:

- every string from the page is held to 256 characters (the sensor's own rule,
  argus.sense.truncate, applied again here to whatever enters a packet);
- in anything sent to a model, page content sits inside one fenced section whose boundary
  carries a digest of the content itself, so the content cannot close the fence early.
"""

from __future__ import annotations

import hashlib

from argus.sense.truncate import MAX_TEXT, TRUNCATION_MARKER, truncate_probe, truncate_text

__all__ = ["FENCE_TAG", "MAX_TEXT", "TRUNCATION_MARKER", "clip", "clip_page_data", "fence"]

FENCE_TAG = "untrusted-page-content"
clip = truncate_text
clip_page_data = truncate_probe


def fence(label: str, body: str) -> str:
    """``body`` inside a labelled data section that the body itself cannot close."""
    # The tag inside the body is defused so that only our own lines read as a boundary.
    safe = body.replace(FENCE_TAG, FENCE_TAG.replace("-", "_"))
    digest = hashlib.sha256(safe.encode("utf-8")).hexdigest()[:16]
    return f'<{FENCE_TAG} id="{digest}" label="{label}">\n{safe}\n</{FENCE_TAG} id="{digest}">'
