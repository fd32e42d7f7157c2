"""Where a diff image may be written: checked before comparing, so a bad path costs nothing."""

from __future__ import annotations

from pathlib import Path

from argus.errors import InputError


def check_new_file(out: Path, what: str) -> None:
    """Refuse a diff-image path that cannot be a new file before comparing (a typo in the
    directory must not create a tree of directories somewhere)."""
    if out.is_dir():
        raise InputError(f"{what} {out}: is a directory; pass a file name such as diff.png")
    if not out.parent.is_dir():
        raise InputError(f"{what} {out}: directory {out.parent} does not exist; create it first")
