"""Processes a test looks for by what they run: a pid written by a confined program is of its
own PID namespace under bubblewrap, so the host's /proc is searched by command line instead."""

from __future__ import annotations

import os
from pathlib import Path


def running(marker: str) -> list[int]:
    """Live processes (zombies aside) whose command line holds ``marker``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
            state = Path(f"/proc/{entry}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if marker.encode() in cmdline and state != b"Z":
            found.append(int(entry))
    return found
