"""Which files and folders a test's code flushed to disk: ``os.fsync`` recorded by path."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def record_fsyncs(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The paths fsynced from now on (in order; Linux: read from /proc/self/fd), each still
    flushed for real."""
    flushed: list[Path] = []
    real = os.fsync

    def fsync(fd: int) -> None:
        flushed.append(Path(os.readlink(f"/proc/self/fd/{fd}")))
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    return flushed
