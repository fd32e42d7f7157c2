"""Ordered schema migrations for the run store.

Each migration is applied once, in order, inside its own write transaction, and records its
number in ``schema_version``; reopening a store therefore applies nothing twice. Never edit a
shipped migration: append a new one.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from argus.store.chain import GENESIS, link_hash
from argus.store.model import CHAINED_COLUMNS, chain_content

# The kinds each migration's CHECK allows are frozen literals: a migration's SQL text must stay
# byte-identical once shipped, so a new kind needs a new migration that rebuilds the table.
_KINDS_1: tuple[str, ...] = (
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
_KINDS_2: tuple[str, ...] = (
    *_KINDS_1,
    "acceptance_fidelity_review",
    "review_outcome",
)

_KINDS_3: tuple[str, ...] = (
    *_KINDS_2,
    "human_decision",
)

_KINDS_5: tuple[str, ...] = (
    *_KINDS_3,
    "contract_run",
    "contract_stage",
)

# The kinds RunStore.append accepts: always the latest migration's list (a test holds them equal
# to the CHECK a fresh store ends up with).
EVENT_KINDS: tuple[str, ...] = _KINDS_5


def _kind_list(kinds: tuple[str, ...]) -> str:
    return ", ".join(f"'{kind}'" for kind in kinds)


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
    kind        TEXT NOT NULL CHECK (kind IN ({_kind_list(_KINDS_1)})),
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

# Migration 2: the advisory review kinds (acceptance_fidelity_review, review_outcome). SQLite
# cannot alter a CHECK, so the events table is rebuilt: new table, copy every row with its id,
# drop the old one, rename the new one into place, then recreate its indexes and triggers. The
# old table goes first so that its triggers and index names are gone before the new ones are
# made, and nothing refers to "events_v2" by name, so the rename reads the same with or without
# legacy_alter_table. Copying rows with explicit ids leaves sqlite_sequence at the highest id
# copied, so the old table's sequence is carried over: AUTOINCREMENT never reuses an id.
_MIGRATION_2 = f"""
CREATE TABLE events_v2 (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id      TEXT REFERENCES runs (run_id),
    kind        TEXT NOT NULL CHECK (kind IN ({_kind_list(_KINDS_2)})),
    feature     TEXT NOT NULL,
    target      TEXT,
    state       TEXT,
    appearance  TEXT,
    iteration   INTEGER,
    created_at  TEXT NOT NULL,
    payload     TEXT NOT NULL CHECK (json_valid(payload))
);
INSERT INTO events_v2 (id, run_id, kind, feature, target, state, appearance, iteration,
                       created_at, payload)
    SELECT id, run_id, kind, feature, target, state, appearance, iteration, created_at, payload
    FROM events ORDER BY id;
UPDATE sqlite_sequence
    SET seq = (SELECT MAX(seq) FROM sqlite_sequence WHERE name IN ('events', 'events_v2'))
    WHERE name = 'events_v2';
INSERT INTO sqlite_sequence (name, seq)
    SELECT 'events_v2', seq FROM sqlite_sequence
    WHERE name = 'events'
      AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'events_v2');
DROP TRIGGER events_no_update;
DROP TRIGGER events_no_delete;
DROP TABLE events;
ALTER TABLE events_v2 RENAME TO events;
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

# Migration 3: the human_decision kind (a person approved a reference, spot-checked a sign-off
# or accepted a render as the snapshot baseline, from the CLI or the review page). The same
# rebuild as migration 2, into events_v3.
_MIGRATION_3 = f"""
CREATE TABLE events_v3 (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id      TEXT REFERENCES runs (run_id),
    kind        TEXT NOT NULL CHECK (kind IN ({_kind_list(_KINDS_3)})),
    feature     TEXT NOT NULL,
    target      TEXT,
    state       TEXT,
    appearance  TEXT,
    iteration   INTEGER,
    created_at  TEXT NOT NULL,
    payload     TEXT NOT NULL CHECK (json_valid(payload))
);
INSERT INTO events_v3 (id, run_id, kind, feature, target, state, appearance, iteration,
                       created_at, payload)
    SELECT id, run_id, kind, feature, target, state, appearance, iteration, created_at, payload
    FROM events ORDER BY id;
UPDATE sqlite_sequence
    SET seq = (SELECT MAX(seq) FROM sqlite_sequence WHERE name IN ('events', 'events_v3'))
    WHERE name = 'events_v3';
INSERT INTO sqlite_sequence (name, seq)
    SELECT 'events_v3', seq FROM sqlite_sequence
    WHERE name = 'events'
      AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'events_v3');
DROP TRIGGER events_no_update;
DROP TRIGGER events_no_delete;
DROP TABLE events;
ALTER TABLE events_v3 RENAME TO events;
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

# Migration 4: the events become a hash chain (argus.store.chain). Each row gains ``prev_hash``
# (the hash of the row before it, '' for the first) and ``hash`` (over its chained columns and
# prev_hash). SQLite has no SHA-256, so this migration is Python: the same rebuild as 2 and 3,
# with every existing row's link computed in id order as it is copied. It runs inside the one
# transaction ``migrate`` holds, so a crash (or SIGKILL) part-way leaves the store exactly at
# version 3, readable, and the next open starts the migration again. A third trigger makes the
# database itself refuse an insert that does not extend the chain from its current end.
_EVENTS_V4 = f"""
CREATE TABLE events_v4 (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id      TEXT REFERENCES runs (run_id),
    kind        TEXT NOT NULL CHECK (kind IN ({_kind_list(_KINDS_3)})),
    feature     TEXT NOT NULL,
    target      TEXT,
    state       TEXT,
    appearance  TEXT,
    iteration   INTEGER,
    created_at  TEXT NOT NULL,
    payload     TEXT NOT NULL CHECK (json_valid(payload)),
    prev_hash   TEXT NOT NULL,
    hash        TEXT NOT NULL CHECK (length(hash) = 64)
);
"""
_SWAP_V4 = """
UPDATE sqlite_sequence
    SET seq = (SELECT MAX(seq) FROM sqlite_sequence WHERE name IN ('events', 'events_v4'))
    WHERE name = 'events_v4';
INSERT INTO sqlite_sequence (name, seq)
    SELECT 'events_v4', seq FROM sqlite_sequence
    WHERE name = 'events'
      AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'events_v4');
DROP TRIGGER events_no_update;
DROP TRIGGER events_no_delete;
DROP TABLE events;
ALTER TABLE events_v4 RENAME TO events;
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
CREATE TRIGGER events_chained BEFORE INSERT ON events
WHEN NEW.prev_hash IS NOT COALESCE((SELECT hash FROM events ORDER BY id DESC LIMIT 1), '')
BEGIN
    SELECT RAISE(ABORT, 'events are hash-chained: prev_hash must be the last event''s hash');
END;
"""
_COPY_BATCH = 500


def _copy_chained(conn: sqlite3.Connection) -> None:
    """Copy every event into events_v4 in id order, linking each to the one before it."""
    columns = ", ".join(CHAINED_COLUMNS)
    rows = conn.execute(f"SELECT id, {columns} FROM events ORDER BY id")
    insert = (
        f"INSERT INTO events_v4 (id, {columns}, prev_hash, hash)"
        f" VALUES ({', '.join('?' * (len(CHAINED_COLUMNS) + 3))})"
    )
    previous = GENESIS
    while batch := rows.fetchmany(_COPY_BATCH):
        for row in batch:
            digest = link_hash(previous, chain_content(tuple(row[1:])))
            conn.execute(insert, (*row, previous, digest))
            previous = digest


def _migration_4(conn: sqlite3.Connection) -> None:
    for statement in _statements(_EVENTS_V4):
        conn.execute(statement)
    _copy_chained(conn)
    for statement in _statements(_SWAP_V4):
        conn.execute(statement)


# Migration 5: a contract run's ledger records (argus.contract._ledger) become events, kinds
# ``contract_run`` and ``contract_stage``. The same rebuild as 4, into events_v5; every row is
# copied with its id, prev_hash and hash as they are (the CHECK is not part of an event's
# link, so the chain reads exactly as before), and the three triggers are made again (dropping
# the old table drops its triggers, so one an attacker already dropped does not stop it).
_MIGRATION_5 = f"""
CREATE TABLE events_v5 (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id      TEXT REFERENCES runs (run_id),
    kind        TEXT NOT NULL CHECK (kind IN ({_kind_list(_KINDS_5)})),
    feature     TEXT NOT NULL,
    target      TEXT,
    state       TEXT,
    appearance  TEXT,
    iteration   INTEGER,
    created_at  TEXT NOT NULL,
    payload     TEXT NOT NULL CHECK (json_valid(payload)),
    prev_hash   TEXT NOT NULL,
    hash        TEXT NOT NULL CHECK (length(hash) = 64)
);
INSERT INTO events_v5 (id, run_id, kind, feature, target, state, appearance, iteration,
                       created_at, payload, prev_hash, hash)
    SELECT id, run_id, kind, feature, target, state, appearance, iteration, created_at, payload,
           prev_hash, hash
    FROM events ORDER BY id;
UPDATE sqlite_sequence
    SET seq = (SELECT MAX(seq) FROM sqlite_sequence WHERE name IN ('events', 'events_v5'))
    WHERE name = 'events_v5';
INSERT INTO sqlite_sequence (name, seq)
    SELECT 'events_v5', seq FROM sqlite_sequence
    WHERE name = 'events'
      AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'events_v5');
DROP TABLE events;
ALTER TABLE events_v5 RENAME TO events;
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
CREATE TRIGGER events_chained BEFORE INSERT ON events
WHEN NEW.prev_hash IS NOT COALESCE((SELECT hash FROM events ORDER BY id DESC LIMIT 1), '')
BEGIN
    SELECT RAISE(ABORT, 'events are hash-chained: prev_hash must be the last event''s hash');
END;
"""

Migration = str | Callable[[sqlite3.Connection], None]
# Migration 6: a finished run's row takes its run_finished event's time as its finish time
# (RunStore.finish_run writes exactly that from now on, and ``argus runs --verify`` holds the two
# equal). Before, the row's time was read a moment after the event's; a row the earlier check
# accepted (finished no earlier than its event) is aligned, one it named is left for it to name.
_MIGRATION_6 = """
UPDATE runs SET finished_at = (
    SELECT e.created_at FROM events e
    WHERE e.run_id = runs.run_id AND e.kind = 'run_finished' ORDER BY e.id DESC LIMIT 1
)
WHERE finished_at IS NOT NULL AND finished_at >= started_at AND finished_at >= (
    SELECT e.created_at FROM events e
    WHERE e.run_id = runs.run_id AND e.kind = 'run_finished' ORDER BY e.id DESC LIMIT 1
);
"""

MIGRATIONS: tuple[Migration, ...] = (
    _MIGRATION_1, _MIGRATION_2, _MIGRATION_3, _migration_4, _MIGRATION_5, _MIGRATION_6,
)  # fmt: skip
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

    Foreign-key enforcement is off while migrations run, as SQLite's table-rebuild procedure
    asks: a rebuild copies history as it is, and an event whose run is missing (written by a
    hand-run shell, where enforcement is off by default) must not make the store unopenable.
    The pragma is a no-op inside a transaction, so it is set around it and then restored.
    """
    enforced = int(conn.execute("PRAGMA foreign_keys").fetchone()[0])
    conn.execute("PRAGMA foreign_keys = OFF")
    try:
        conn.execute("BEGIN IMMEDIATE")
        try:
            before = current_version(conn)
            for number, script in enumerate(MIGRATIONS, start=1):
                if number <= before:
                    continue
                if callable(script):
                    script(conn)
                else:
                    for statement in _statements(script):
                        conn.execute(statement)
                conn.execute("INSERT INTO schema_version (version) VALUES (?)", (number,))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    finally:
        conn.execute(f"PRAGMA foreign_keys = {enforced}")
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
