from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from argus.store import runstore


class FlakyConnection:
    """Answers "database is locked" a few times, as a second process creating the store can."""

    def __init__(self, failures: int, message: str = "database is locked") -> None:
        self.failures = failures
        self.message = message
        self.calls = 0

    def execute(self, sql: str) -> Any:
        self.calls += 1
        if self.calls <= self.failures:
            raise sqlite3.OperationalError(self.message)
        return None


def test_wal_switch_retries_a_locked_database(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runstore.time, "sleep", lambda _s: None)
    conn = FlakyConnection(failures=3)
    runstore._enable_wal(conn)  # type: ignore[arg-type]
    assert conn.calls == 4


def test_wal_switch_gives_up_after_its_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runstore.time, "sleep", lambda _s: None)
    conn = FlakyConnection(failures=10_000)
    with pytest.raises(sqlite3.OperationalError):
        runstore._enable_wal(conn)  # type: ignore[arg-type]
    assert conn.calls == runstore.WAL_RETRIES


def test_wal_switch_does_not_retry_other_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runstore.time, "sleep", lambda _s: None)
    conn = FlakyConnection(failures=1, message="disk I/O error")
    with pytest.raises(sqlite3.OperationalError, match="disk I/O"):
        runstore._enable_wal(conn)  # type: ignore[arg-type]
    assert conn.calls == 1
