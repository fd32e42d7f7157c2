"""Ordered schema migrations for the run store.

Each migration is applied once, in order, inside its own write transaction, and records its
number in ``schema_version``; reopening a store therefore applies nothing twice. Never edit a
shipped migration: append a new one.
"""

from __future__ import annotations

import sqlite3

EVENT_KINDS: tuple[str, ...] = (
    "run_started",
    "gate_result",
    "verdict",
    "decision",
    "sign_off",
    "run_finished",
    "sensor_failure",
    "implementer",
    "note",
)

_KIND_LIST = ", ".join(f"'{kind}'" for kind in EVENT_KINDS)

# Migration 1: runs, the append-only events table, and the triggers that keep it append-only.
# The triggers live in the database itself so that no caller (ours or a hand-run sqlite3
# shell) can rewrite history by accident.
_MIGRATION_1 = f"""
CREATE TABLE runs (
    run_id      TEXT PRIMARY KEY,
    feature     TEXT NOT NULL,
    mode        TEXT NOT NULL,
    started_at  TEXT NOT NULL,
    finished_at TEXT,
    status      TEXT
);
CREATE INDEX runs_feature ON runs (feature, started_at);

CREATE TABLE events (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id      TEXT REFERENCES runs (run_id),
    kind        TEXT NOT NULL CHECK (kind IN ({_KIND_LIST})),
    feature     TEXT NOT NULL,
    target      TEXT,
    state       TEXT,
    appearance  TEXT,
    iteration   INTEGER,
    created_at  TEXT NOT NULL,
    payload     TEXT NOT NULL CHECK (json_valid(payload))
);
CREATE INDEX events_run ON events (run_id);
CREATE INDEX events_feature ON events (feature, kind);

CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN
    SELECT RAISE(ABORT, 'events are append-only');
END;
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN
    SELECT RAISE(ABORT, 'events are append-only');
END;
"""

MIGRATIONS: tuple[str, ...] = (_MIGRATION_1,)
LATEST_VERSION = len(MIGRATIONS)


def current_version(conn: sqlite3.Connection) -> int:
    conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
    return int(row[0]) if row and row[0] is not None else 0


def migrate(conn: sqlite3.Connection) -> int:
    """Bring the database to LATEST_VERSION; return the version it had before.

    The connection must be in autocommit mode (isolation_level=None). BEGIN IMMEDIATE takes
    the write lock before reading the version, so two processes opening a fresh store at once
    cannot both apply migration 1.
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        before = current_version(conn)
        for number, script in enumerate(MIGRATIONS, start=1):
            if number <= before:
                continue
            for statement in _statements(script):
                conn.execute(statement)
            conn.execute("INSERT INTO schema_version (version) VALUES (?)", (number,))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return before


def _statements(script: str) -> list[str]:
    """Split a migration into statements, keeping trigger bodies (which contain ';') whole."""
    statements: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        statements.append(buffer.strip())
    return statements
