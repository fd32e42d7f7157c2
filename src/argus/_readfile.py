"""Reading a user-supplied file whole, with nothing but ``os`` and ``stat``.

``argus.io`` re-exports ``read_bytes``; it lives here so that a command that only reads a file
(``argus diff`` on two PNGs) does not load what ``argus.io``'s writers need (tempfile,
shutil, ctypes, the folder lock).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from argus.errors import InputError

MAX_INPUT_BYTES = 5 * 1024 * 1024


def read_bytes(path: Path, *, what: str = "file", limit: int = MAX_INPUT_BYTES) -> bytes:
    """Read a user-supplied file, refusing missing, unreadable, oversized and special ones.

    The file is opened first and checked through its descriptor, so the cap holds for what is
    read, not for what a stat() said earlier; FIFOs, devices and directories are refused
    (a FIFO or /dev/zero would block or never end), and at most ``limit + 1`` bytes are read.
    """
    limit_text = f"the {limit // (1024 * 1024)} MiB limit"
    if "\0" in str(path):
        raise InputError(f"{str(path)!r}: the {what} path contains a NUL character")
    try:
        # O_NONBLOCK: opening a FIFO without a writer must not hang before it can be refused.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError as exc:
        raise InputError(f"{path}: {what} not found") from exc
    except OSError as exc:
        raise InputError(f"{path}: cannot read {what} ({exc.strerror})") from exc
    try:
        with os.fdopen(fd, "rb") as fh:
            info = os.fstat(fh.fileno())
            if not stat.S_ISREG(info.st_mode):
                kind = "a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file"
                raise InputError(f"{path}: {what} is {kind}; pass a regular file")
            if info.st_size > limit:
                raise InputError(f"{path}: {what} is {info.st_size} bytes, over {limit_text}")
            os.set_blocking(fh.fileno(), True)
            data = fh.read(limit + 1)
    except OSError as exc:
        raise InputError(f"{path}: cannot read {what} ({exc.strerror})") from exc
    if len(data) > limit:  # the file grew after fstat
        raise InputError(f"{path}: {what} is over {limit_text}")
    return data
