"""The element selectors a spec names (allow_truncation, inert controls, hierarchy and colour
roles): ``#id``, ``[data-testid=x]`` (quotes optional) or a bare word, an element id,
data-testid or tag name. Argus matches them against the elements its sensor recorded (ids, test
ids, tags), never against a live DOM, so no other CSS is accepted there.

Snapshot masks take any CSS selector: the sensor resolves them in the page (argus.diff.masks).
A probe without that record falls back to these forms (``supported_selector``)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from argus.errors import InputError

ID = re.compile(r"^#([A-Za-z0-9_\-:.]+)$")
TESTID = re.compile(r"""^\[data-testid\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\]\s"']+))\s*\]$""")
WORD = re.compile(r"^[A-Za-z][A-Za-z0-9_\-]*$")


def supported_selector(selector: str) -> bool:
    """Whether ``selector`` is of a form above."""
    text = selector.strip()
    return bool(ID.match(text) or TESTID.match(text) or WORD.match(text))


def names_element(selector: str, element: Mapping[str, Any]) -> bool:
    """Whether ``selector`` names ``element`` (its ``id``, ``testid`` and ``tag``): a bare word
    by any of the three. InputError for a selector of another form."""
    text = selector.strip()
    if found := ID.match(text):
        return bool(element.get("id") == found.group(1))
    if found := TESTID.match(text):
        wanted = next(g for g in found.groups() if g is not None)
        return bool(element.get("testid") == wanted)
    if WORD.match(text):
        return text in (element.get("id"), element.get("testid")) or (
            str(element.get("tag", "")).lower() == text.lower()
        )
    raise InputError(
        f"selector {selector!r}: unsupported; use #id, [data-testid=x], an element id or a tag name"
    )
