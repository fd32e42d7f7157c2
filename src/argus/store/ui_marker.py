"""``.argus/ui.json``: says that ``argus ui`` is serving this repository, and where.

The server holds an flock on the file for as long as it runs, and the kernel drops it when the
process ends, even killed, so a reader (the HTML report, linking each view to its page) knows
the page is up only while it is. The file never holds the launch token.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import time
from pathlib import Path
from typing import Self

from argus.closing import Closing
from argus.errors import StateError

MARKER = Path(".argus") / "ui.json"
ACQUIRE_TRIES = 20


def marker_path(root: Path) -> Path:
    return root / MARKER


class RunningMarker(Closing):
    """Held by the server: an exclusive flock on ``.argus/ui.json`` holding its URL."""

    def __init__(self, root: Path, url: str) -> None:
        self.path = marker_path(root)
        self.url = url
        self._fd: int | None = None

    def __enter__(self) -> Self:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        for attempt in range(ACQUIRE_TRIES):
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                # A reader holds a shared lock for an instant; a server holds it for good.
                if attempt == ACQUIRE_TRIES - 1:
                    os.close(fd)
                    raise StateError(
                        f"{self.path}: argus ui is already serving this repository at "
                        f"{running_url_text(self.path) or 'another address'}; use that one"
                    ) from None
                time.sleep(0.05)
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps({"url": self.url, "pid": os.getpid()}).encode("utf-8"), 0)
        self._fd = fd
        return self

    def close(self) -> None:
        if self._fd is not None:
            os.ftruncate(self._fd, 0)
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None
            with contextlib.suppress(OSError):
                self.path.unlink()


def running_url_text(path: Path) -> str | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    url = data.get("url") if isinstance(data, dict) else None
    if isinstance(url, str) and url.startswith(("http://127.", "http://localhost", "http://[::1]")):
        return url.rstrip("/")
    return None


def running_url(root: Path) -> str | None:
    """The URL of the review page serving ``root``, or None when none is running."""
    path = marker_path(root)
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return running_url_text(path)  # held: the server is up
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None  # a leftover of a server that is gone
    finally:
        os.close(fd)
