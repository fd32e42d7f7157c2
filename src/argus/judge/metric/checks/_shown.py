"""shown: an element the state must show (by id or data-testid), optionally with a text.

This is how a spec says what an empty or error state shows: the element is in the probe,
visible with a box bigger than the 1 px "visually hidden" pattern, and its text (with its
descendants', white space collapsed) contains the stated text.
"""

from __future__ import annotations

from typing import Any

from argus.evidence.content import clip
from argus.judge._aria import collapse
from argus.judge.metric.checks._values import Tree

Check = tuple[str, bool]


def shown_check(tree: Tree, entry: dict[str, Any], numbers: dict[str, Any]) -> Check:
    ident, text = str(entry["id"]), entry.get("text")
    found = tree.by_id(ident)
    shown = [e for e in found if e.visible and e.box.width > 1 and e.box.height > 1]
    wanted = f" with {clip(str(text), 80)!r}" if text else ""
    result = {"found": len(found), "shown": len(shown)}
    numbers.setdefault("shown", {})[ident] = result
    if not found:
        return (f"{ident!r}{wanted} is expected, but no element has that id", False)
    if not shown:
        return (f"{ident!r}{wanted} is expected, but it is not shown", False)
    if text and not any(collapse(str(text)) in tree.text(e) for e in shown):
        result["text_found"] = False
        return (f"{ident!r} is shown, but not with {clip(str(text), 80)!r}", False)
    return (f"{ident!r} is shown{wanted}", True)
