"""What a confined program may write: an allow-list, the same for every backend.

Every program Argus starts that the builder could have written or edited (the implementer, the
app's web server, gate commands, contract mechanical stages, graders and judge commands) runs
under a ``Policy``: it may write beneath ``writable`` and in its own private temporary folder,
and nowhere else. Inside a writable folder, ``read_only`` paths stay read-only: the project
config, the run store, all of ``argus/`` (the spec folders with their tokens, references,
``__snapshots__`` and run records; the adapters' sense scripts, Argus's sensor for non-web
views), git's config and hooks (code git runs for Argus later), and Argus's own installation
and environment where they lie inside the workspace. Everything outside (the home folder and
its caches, the browser profile, the state home, system folders, the host's ``/tmp``) is never
writable. The network is the host's for every program: the implementer reaches its model, the
browser reaches the app's server, a flows gate reaches the app and a grader its model on the
host's loopback; a new network namespace would have a loopback of its own (docs/security.md).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import argus
from argus.spec.paths import SPECS_DIR

RUN_STORE_DIR = ".argus"
CONFIG_FILES = ("argus.toml", "pyproject.toml")
GIT_CODE = (Path(".git") / "config", Path(".git") / "hooks")


@dataclass(frozen=True)
class Policy:
    """Where one program may write. ``who`` names it in records and errors."""

    who: str
    writable: tuple[Path, ...] = ()  # folders (or files) it may write beneath
    read_only: tuple[Path, ...] = ()  # inside ``writable``, kept read-only

    def to_json(self) -> dict[str, object]:
        return {
            "who": self.who,
            "writable": [str(p) for p in self.writable],
            "read_only": [str(p) for p in self.read_only],
        }


def _inside(path: Path, root: Path) -> bool:
    return Path(os.path.realpath(path)).is_relative_to(os.path.realpath(root))


def argus_installation() -> tuple[Path, ...]:
    """Argus's package folder and the environment it runs from (its site-packages, where a
    ``.pth`` file runs in every interpreter started from it)."""
    return (Path(argus.__file__).resolve().parent, Path(sys.prefix).resolve())


def protected_in(root: Path) -> tuple[Path, ...]:
    """What stays read-only inside a workspace ``root`` for every confined program: the ones
    that exist, and the run store folder (created now, so that it cannot be planted)."""
    (root / RUN_STORE_DIR).mkdir(exist_ok=True)
    # All of argus/: the spec folders and the adapters' sense scripts (Argus's sensor for
    # non-web views, which the builder must not rewrite).
    named = [root / RUN_STORE_DIR, root / SPECS_DIR.parent, *(root / n for n in CONFIG_FILES)]
    named += [root / p for p in GIT_CODE]
    named += [p for p in argus_installation() if _inside(p, root)]
    return tuple(p for p in named if p.exists() or p.is_symlink())


def workspace(
    who: str, root: Path, also_read_only: Iterable[Path] = (), also_writable: Iterable[Path] = ()
) -> Policy:
    """May write in the workspace ``root`` except its protected paths (and ``also_read_only``,
    e.g. the loop's protected set of the feature), and beneath ``also_writable`` (an output
    folder Argus named, even inside a protected one)."""
    extra = tuple(p for p in also_read_only if p.exists() and _inside(p, root))
    protected = tuple(dict.fromkeys((*protected_in(root), *extra)))
    return Policy(who, (root, *also_writable), protected)


def read_only(who: str) -> Policy:
    """May write nowhere but its private temporary folder (graders, judge commands)."""
    return Policy(who)
