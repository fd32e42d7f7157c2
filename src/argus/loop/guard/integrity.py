"""The protected set: files the implementer must never change, hashed around every edit.

An implementer that edits the spec, the tokens, a fixture, a reference or a test can make any
check pass, so Argus hashes those files before and after each edit. A change fails the
iteration, and the originals are put back from a content-addressed copy taken before the
edit, so one bad attempt cannot poison the following ones.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from argus.io import atomic_write_bytes

# Directories never walked: tool caches, environments, and Argus's own run output.
_SKIP_DIRS = frozenset(
    {".git", ".hg", ".svn", ".venv", "venv", "node_modules", "__pycache__", ".argus", ".argus-runs"}
)
RUNS_DIR_NAME = ".argus-runs"


def _glob_regex(pattern: str) -> re.Pattern[str]:
    """A repo-relative glob (``**`` spans directories, ``*`` does not) as a regex."""
    out = ""
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out += "(?:.*/)?"
            i += 3
        elif pattern.startswith("**", i):
            out += ".*"
            i += 2
        elif pattern[i] == "*":
            out += "[^/]*"
            i += 1
        elif pattern[i] == "?":
            out += "[^/]"
            i += 1
        else:
            out += re.escape(pattern[i])
            i += 1
    return re.compile(out + r"\Z")


def _walk(top: Path) -> Iterable[Path]:
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames[:] = sorted(d for d in dirnames if d not in _SKIP_DIRS)
        for name in sorted(filenames):
            yield Path(dirpath) / name


def collect_protected(
    root: Path, spec_dir: Path, files: Iterable[Path], globs: Sequence[str]
) -> list[str]:
    """Repo-relative POSIX paths of the protected set, sorted.

    ``spec_dir`` is taken whole except its run directory; ``files`` are added when they
    exist (tokens, contrast pairs, fixtures named by the spec); ``globs`` are matched
    against repo-relative paths (tests, fixture folders).
    """
    root = root.resolve()
    found: set[str] = set()

    def add(path: Path) -> None:
        try:
            rel = path.resolve().relative_to(root)
        except ValueError:
            return  # outside the repository: not ours to guard
        if path.is_file():
            found.add(rel.as_posix())

    if spec_dir.is_dir():
        for path in _walk(spec_dir):
            add(path)
    for path in files:
        add(path)
    if globs:
        patterns = [_glob_regex(g) for g in globs]
        for path in _walk(root):
            rel = path.relative_to(root).as_posix()
            if any(p.match(rel) for p in patterns):
                found.add(rel)
    return sorted(found)


def hash_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def hash_set(root: Path, paths: Iterable[str]) -> dict[str, str]:
    """sha256 of each existing path (repo-relative) under ``root``."""
    hashes: dict[str, str] = {}
    for rel in paths:
        path = root / rel
        if path.is_file():
            hashes[rel] = hash_file(path)
    return hashes


@dataclass(frozen=True)
class IntegrityChanges:
    modified: tuple[str, ...]
    added: tuple[str, ...]
    removed: tuple[str, ...]

    @property
    def clean(self) -> bool:
        return not (self.modified or self.added or self.removed)

    def summary(self) -> str:
        parts = []
        for label, paths in (
            ("modified", self.modified),
            ("added", self.added),
            ("removed", self.removed),
        ):
            if paths:
                parts.append(f"{label}: {', '.join(paths)}")
        return "; ".join(parts) or "no protected file changed"

    def to_json(self) -> dict[str, Any]:
        return {
            "modified": list(self.modified),
            "added": list(self.added),
            "removed": list(self.removed),
        }


def compare(before: Mapping[str, str], after: Mapping[str, str]) -> IntegrityChanges:
    return IntegrityChanges(
        modified=tuple(sorted(p for p in before if p in after and before[p] != after[p])),
        added=tuple(sorted(p for p in after if p not in before)),
        removed=tuple(sorted(p for p in before if p not in after)),
    )


class ProtectedCopies:
    """A content-addressed copy of protected files, for putting originals back.

    The copies live where the implementer could reach them too, so a copy is trusted only
    while its content still has the digest it is named by: ``keep`` replaces a copy that no
    longer does, and ``restore`` never writes one back.
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def _intact(self, copy: Path, digest: str) -> bool:
        return copy.is_file() and hash_file(copy) == digest

    def keep(self, root: Path, hashes: Mapping[str, str]) -> None:
        for rel, digest in hashes.items():
            target = self.directory / digest
            if not self._intact(target, digest):
                atomic_write_bytes(target, (root / rel).read_bytes())

    def restore(
        self, root: Path, before: Mapping[str, str], changes: IntegrityChanges
    ) -> list[str]:
        """Undo ``changes``; return the paths that could not be restored."""
        failed: list[str] = []
        for rel in (*changes.modified, *changes.removed):
            source = self.directory / before[rel]
            data = source.read_bytes() if source.is_file() else None
            if data is not None and hashlib.sha256(data).hexdigest() == before[rel]:
                atomic_write_bytes(root / rel, data)
            else:
                failed.append(rel)
        for rel in changes.added:
            (root / rel).unlink(missing_ok=True)
        return failed
