"""The hash chain of Argus's append-only log: the run store's events (SQLite), the loop's and a
contract run's ledger records alike; also walked over a ``ledger.jsonl`` an earlier Argus left,
before it is imported.

Each link's hash is SHA-256 over its canonical content together with the previous link's hash
(``prev``; the first link's is the empty string), so changing, dropping, inserting or
reordering a link breaks the chain at that link or the one after it. ``first_broken`` walks a
log and names the first link that does not hold.

The chain shows what was edited outside Argus; it does not stop a same-user process that
rewrites a whole log and recomputes every hash (nothing is signed with a key the writer cannot
read; docs/security.md names the limit).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

GENESIS = ""  # the ``prev`` of a log's first link
RESERVED = ("prev", "hash")


def canonical(value: Any) -> str:
    """The one text a JSON value hashes as: sorted keys, no spaces, ASCII only."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def link_hash(prev: str, content: Mapping[str, Any]) -> str:
    """The hash of a link holding ``content`` after the link whose hash is ``prev``."""
    clash = [key for key in RESERVED if key in content]
    if clash:
        raise ValueError(f"a link's content may not use the key(s) {', '.join(clash)}")
    return hashlib.sha256(canonical({**content, "prev": prev}).encode()).hexdigest()


@dataclass(frozen=True)
class Link:
    """One link as a log stores it: where it sits, what it says it follows, its hash."""

    seq: int  # the line number or event id a person reading the log would look for
    prev: object
    hash: object
    content: Mapping[str, Any]


@dataclass(frozen=True)
class BrokenLink:
    seq: int
    why: str

    def __str__(self) -> str:
        return f"link {self.seq}: {self.why}"


def first_broken(links: Iterable[Link]) -> BrokenLink | None:
    """The first link that does not hold (its ``prev`` is not the hash before it, or its hash
    does not cover its content), or None when the whole chain holds."""
    previous = GENESIS
    for link in links:
        if link.prev != previous:
            return BrokenLink(link.seq, "does not follow the link before it (prev differs)")
        try:
            expected = link_hash(previous, link.content)
        except (TypeError, ValueError):
            return BrokenLink(link.seq, "its content is not plain JSON")
        if link.hash != expected:
            return BrokenLink(link.seq, "its hash does not match its content (edited)")
        previous = expected
    return None
