"""Run the implementer with writes limited to what it may edit, where the OS offers it.

Hashing around each edit (argus.loop.guard) catches a change after the fact; the sandbox stops
it from happening. On Linux with Landlock (kernel 5.13+, enabled), the implementer runs under a
ruleset that denies every write-like access (write, truncate, create, remove, rename into)
except beneath the folders and to the files it may edit: everything but the protected set, the
feature folder with its run records, and the run store (``.argus/``). Reading and executing stay
allowed everywhere. The ruleset is computed from the filesystem root down, along the paths of
what is denied only: a folder holding nothing denied is allowed whole, one holding something
denied is entered, and its files that are not denied are allowed one by one. So an implementer
cannot create a new file in a folder that holds a protected one (the repository root when it
holds ``argus.toml``, say); it can still edit the existing files there.

Detected at run time: ``ARGUS_SANDBOX=off`` turns it off, and where the kernel has no Landlock
the run is "hash-checked only". Either way each iteration's ``implementer.json`` and the report
say which protection was active, and the hash checks hold in both cases.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from argus.loop.landlock_exec import abi_version

LANDLOCK = "sandboxed: landlock"
HASH_CHECKED = "hash-checked only"
ENV = "ARGUS_SANDBOX"  # "off" turns the sandbox off


@dataclass(frozen=True)
class Sandbox:
    """The protection implementer calls get in this run."""

    abi: int  # the kernel's Landlock ABI; 0 when not sandboxing
    why_not: str = ""  # when not sandboxing: why

    @property
    def active(self) -> bool:
        return self.abi > 0

    @property
    def protection(self) -> str:
        return LANDLOCK if self.active else HASH_CHECKED

    def wrapper(self, rules_file: Path) -> list[str]:
        """The argv prefix that applies the rules, then runs the command after it."""
        return [sys.executable, "-m", "argus.loop.landlock_exec", str(rules_file), "--"]


def detect() -> Sandbox:
    """Landlock when the kernel offers it and ARGUS_SANDBOX is not "off"."""
    if os.environ.get(ENV, "").strip().lower() == "off":
        return Sandbox(0, f"{ENV}=off")
    abi = abi_version()
    if abi == 0:
        return Sandbox(0, "this kernel offers no Landlock")
    return Sandbox(abi)


def write_rules(abi: int, denied: Iterable[Path]) -> dict[str, Any]:
    """The Landlock rules (for argus.loop.landlock_exec) allowing writes everywhere but to
    ``denied`` (files or folders, each whole)."""
    deny = {os.path.realpath(p) for p in denied}
    ancestors: set[str] = set()
    for path in deny:
        parent = os.path.dirname(path)
        while parent not in ancestors:
            ancestors.add(parent)
            if parent == os.path.dirname(parent):
                break
            parent = os.path.dirname(parent)
    dirs: list[str] = []
    files: list[str] = []

    def walk(directory: str) -> None:
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError:
            return  # unreadable: nothing in it is allowed
        for entry in entries:
            path = entry.path
            if path in deny or entry.is_symlink():
                continue  # a link is allowed or not where it points, not here
            if path in ancestors:
                if entry.is_dir(follow_symlinks=False):
                    walk(path)
            elif entry.is_dir(follow_symlinks=False):
                dirs.append(path)
            elif entry.is_file(follow_symlinks=False):
                files.append(path)

    walk(os.sep)
    return {"abi": abi, "dirs": dirs, "files": files}
