"""A content-addressed cache of model answers, so an identical packet is never judged twice.

The key is a digest of everything that decides an answer: the prompt version (name and a hash
of its wording), the packet's file hashes and view, the model, and what was asked (which
dimensions, or which ranking order). Entries live in ``.argus/judge-cache/`` as JSON, written
atomically; a corrupt entry is ignored and overwritten. A report-only loop moves the cache into
its own run directory (``use_cache_dir``), since it may write nothing outside it.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from argus.io import atomic_write_json, loads_json

CACHE_DIR = Path(".argus") / "judge-cache"


@runtime_checkable
class CachingJudge(Protocol):
    """A judge that keeps an answer cache, and can be told where."""

    def use_cache_dir(self, directory: Path) -> None: ...


def cache_key(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()


class AnswerCache:
    def __init__(self, root: Path, enabled: bool = True) -> None:
        self.directory = root / CACHE_DIR
        self.enabled = enabled

    def _path(self, key: str) -> Path:
        return self.directory / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        if not self.enabled:
            return None
        try:
            value = loads_json(self._path(key).read_text("utf-8"))
        except (OSError, ValueError):
            return None
        return value if isinstance(value, dict) else None

    def put(self, key: str, value: dict[str, Any]) -> None:
        if self.enabled:
            atomic_write_json(self._path(key), value)
