"""Schema migrations: shipped migrations stay frozen, and an old store upgrades in place."""

from __future__ import annotations

import hashlib
import re
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from argus.errors import InputError, StateError
from argus.store import EVENT_KINDS, LATEST_VERSION, Event, RunStore, db_path
from argus.store._migrations import MIGRATIONS, _statements, migrate

ORIGINAL_KINDS = (
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
REVIEW_KINDS = ("acceptance_fidelity_review", "review_outcome")
# sha256 of migration 1 as shipped: its text must never change (append a migration instead).
MIGRATION_1_SHA256 = "b04bf37ec2248836cc48ad378bf1f9805ac80b8a65fe011299d0fb628006bc61"

EVENT_COLUMNS = (
    "id, run_id, kind, feature, target, state, appearance, iteration, created_at, payload"
)
OLD_EVENTS = [
    (1, "run-a", "run_started", "habits", None, None, None, None, "2024-01-01T00:00:00Z", "{}"),
    (
        2,
        "run-a",
        "verdict",
        "habits",
        "list",
        "empty",
        "dark",
        2,
        "2024-01-01T00:00:01Z",
        '{"a":1}',
    ),
    (3, "run-a", "sign_off", "habits", "list", "empty", "dark", 2, "2024-01-01T00:00:02Z", "[1]"),
    (4, None, "note", "settings", None, None, None, None, "2024-01-01T00:00:03Z", '{"n":"x"}'),
]


def _check_kinds(sql: str) -> list[str]:
    """The kinds named in the events table's CHECK (kind IN (...))."""
    match = re.search(r"CHECK \(kind IN \(([^)]*)\)\)", sql)
    assert match is not None, sql
    return re.findall(r"'([^']*)'", match.group(1))


def _events_sql(conn: sqlite3.Connection) -> str:
    row = conn.execute("SELECT sql FROM sqlite_master WHERE type='table' AND name='events'")
    return str(row.fetchone()[0])


def _old_store(root: Path, events: list[tuple[object, ...]] = OLD_EVENTS) -> Path:
    """A store as an Argus with only migration 1 left it."""
    path = db_path(root)
    path.parent.mkdir(parents=True)
    conn = sqlite3.connect(path, isolation_level=None)
    assert isinstance(MIGRATIONS[0], str)
    for statement in _statements(MIGRATIONS[0]):
        conn.execute(statement)
    conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    conn.execute("INSERT INTO schema_version (version) VALUES (1)")
    conn.execute(
        "INSERT INTO runs (run_id, feature, mode, started_at) VALUES"
        " ('run-a', 'habits', 'headless', '2024-01-01T00:00:00Z')"
    )
    conn.executemany(f"INSERT INTO events ({EVENT_COLUMNS}) VALUES ({', '.join('?' * 10)})", events)
    conn.close()
    return path


def _raw_events(path: Path) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(f"SELECT {EVENT_COLUMNS} FROM events ORDER BY id").fetchall()
    finally:
        conn.close()


def test_migration_1_is_frozen_with_the_original_nine_kinds() -> None:
    assert isinstance(MIGRATIONS[0], str)
    assert _check_kinds(MIGRATIONS[0]) == list(ORIGINAL_KINDS)
    digest = hashlib.sha256(MIGRATIONS[0].encode()).hexdigest()
    assert digest == MIGRATION_1_SHA256, "migration 1 shipped: never edit it, add a migration"


def test_migration_2_allows_the_review_kinds() -> None:
    assert isinstance(MIGRATIONS[1], str)
    assert _check_kinds(MIGRATIONS[1]) == [*ORIGINAL_KINDS, *REVIEW_KINDS]


def test_event_kinds_match_what_a_fresh_store_enforces(tmp_path: Path) -> None:
    # A kind added to EVENT_KINDS without a migration would pass append() and fail in SQLite.
    RunStore.open(tmp_path).close()
    conn = sqlite3.connect(db_path(tmp_path))
    assert _check_kinds(_events_sql(conn)) == list(EVENT_KINDS)
    assert set(REVIEW_KINDS) <= set(EVENT_KINDS)


def test_old_store_upgrades_keeping_every_event(tmp_path: Path) -> None:
    path = _old_store(tmp_path)
    before = _raw_events(path)
    assert [row[0] for row in before] == [1, 2, 3, 4]
    with RunStore.open(tmp_path) as store:
        assert store.schema_version() == LATEST_VERSION == 6
        kept = store.events()
    assert _raw_events(path) == before
    assert [(e.id, e.kind, e.created_at) for e in kept] == [(r[0], r[2], r[8]) for r in before]
    assert [e.payload for e in kept[:2]] == [{}, {"a": 1}]
    conn = sqlite3.connect(path)
    assert [row[0] for row in conn.execute("SELECT version FROM schema_version")] == [
        1,
        2,
        3,
        4,
        5,
        6,
    ]
    assert _check_kinds(_events_sql(conn)) == list(EVENT_KINDS)


def test_upgraded_store_has_indexes_and_triggers_and_no_leftovers(tmp_path: Path) -> None:
    path = _old_store(tmp_path)
    RunStore.open(tmp_path).close()
    conn = sqlite3.connect(path)
    objects = set(conn.execute("SELECT type, name, tbl_name FROM sqlite_master"))
    for kind, name in [
        ("index", "events_run"),
        ("index", "events_feature"),
        ("trigger", "events_no_update"),
        ("trigger", "events_no_delete"),
        ("trigger", "events_chained"),
    ]:
        assert (kind, name, "events") in objects
    assert not any("events_v" in str(obj) for obj in objects)
    assert not any(
        "events_v" in str(sql) for (sql,) in conn.execute("SELECT sql FROM sqlite_master")
    )
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


@pytest.mark.parametrize("old_sequence", [None, 40])
def test_new_ids_continue_past_the_old_ones(tmp_path: Path, old_sequence: int | None) -> None:
    path = _old_store(tmp_path)
    if old_sequence is not None:
        # AUTOINCREMENT promises never to reuse an id the old table ever handed out.
        conn = sqlite3.connect(path, isolation_level=None)
        conn.execute("UPDATE sqlite_sequence SET seq = ? WHERE name = 'events'", (old_sequence,))
        conn.close()
    with RunStore.open(tmp_path) as store:
        review = store.append(
            Event(kind="acceptance_fidelity_review", feature="habits", payload={"pr": 7})
        )
        outcome = store.append(
            Event(kind="review_outcome", feature="habits", payload={"outcome": "dismissed"})
        )
    expected_first = (old_sequence or 4) + 1
    assert (review.id, outcome.id) == (expected_first, expected_first + 1)
    with RunStore.open(tmp_path) as store:
        assert [e.kind for e in store.events(feature="habits")][-2:] == list(REVIEW_KINDS)


def test_empty_old_store_upgrades(tmp_path: Path) -> None:
    _old_store(tmp_path, events=[])
    with RunStore.open(tmp_path) as store:
        assert store.schema_version() == LATEST_VERSION
        first = store.append(Event(kind="review_outcome", feature="habits"))
    assert first.id == 1


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE events SET kind = 'note'",
        "UPDATE events SET payload = '{}' WHERE id = 2",
        "DELETE FROM events",
        "DELETE FROM events WHERE id = 1",
    ],
)
def test_upgraded_events_stay_append_only(tmp_path: Path, statement: str) -> None:
    path = _old_store(tmp_path)
    RunStore.open(tmp_path).close()
    before = _raw_events(path)
    conn = sqlite3.connect(path)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute(statement)
    conn.rollback()
    conn.close()
    assert _raw_events(path) == before


def test_upgraded_store_still_refuses_unknown_kinds(tmp_path: Path) -> None:
    path = _old_store(tmp_path)
    with RunStore.open(tmp_path) as store, pytest.raises(InputError, match="unknown event kind"):
        store.append(Event(kind="oops", feature="habits"))
    conn = sqlite3.connect(path)
    (last,) = conn.execute("SELECT hash FROM events ORDER BY id DESC LIMIT 1").fetchone()
    with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
        conn.execute(
            "INSERT INTO events (kind, feature, created_at, payload, prev_hash, hash)"
            " VALUES ('oops', 'f', 'now', '{}', ?, ?)",
            (last, "0" * 64),
        )


def test_reopening_applies_nothing_twice(tmp_path: Path) -> None:
    path = _old_store(tmp_path)
    with RunStore.open(tmp_path) as store:
        store.append(Event(kind="acceptance_fidelity_review", feature="habits"))
    after_first = _raw_events(path)
    conn = sqlite3.connect(path)
    schema_first = _events_sql(conn)
    conn.close()
    with RunStore.open(tmp_path) as store:
        assert store.schema_version() == LATEST_VERSION
    conn = sqlite3.connect(path, isolation_level=None)
    assert migrate(conn) == LATEST_VERSION
    assert [row[0] for row in conn.execute("SELECT version FROM schema_version")] == [
        1,
        2,
        3,
        4,
        5,
        6,
    ]
    assert _events_sql(conn) == schema_first
    conn.close()
    assert _raw_events(path) == after_first


def test_fresh_store_takes_the_review_kinds(tmp_path: Path) -> None:
    with RunStore.open(tmp_path) as store:
        assert store.schema_version() == LATEST_VERSION
        appended = [
            store.append(Event(kind=kind, feature="habits", payload={"k": kind}))
            for kind in REVIEW_KINDS
        ]
        assert [e.kind for e in store.events()] == list(REVIEW_KINDS)
    assert [e.id for e in appended] == [1, 2]


def test_event_whose_run_is_missing_survives_the_upgrade(tmp_path: Path) -> None:
    # A hand-run sqlite3 shell has foreign keys off, so such a row can exist in an old store.
    orphan = (
        5,
        "no-such-run",
        "note",
        "habits",
        None,
        None,
        None,
        None,
        "2024-01-02T00:00:00Z",
        "{}",
    )
    path = _old_store(tmp_path, events=[*OLD_EVENTS, orphan])
    with RunStore.open(tmp_path) as store:
        assert store.schema_version() == LATEST_VERSION
        # Enforcement is back on once migrations are done.
        with pytest.raises(StateError, match="refused"):
            store.append(Event(kind="note", feature="habits", run_id="still-missing"))
    assert _raw_events(path)[-1] == orphan


@pytest.mark.parametrize("foreign_keys", ["ON", "OFF"])
@pytest.mark.parametrize("legacy_alter_table", ["ON", "OFF"])
def test_rebuild_is_the_same_under_either_pragma(
    tmp_path: Path, foreign_keys: str, legacy_alter_table: str
) -> None:
    path = _old_store(tmp_path)
    before = _raw_events(path)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute(f"PRAGMA foreign_keys = {foreign_keys}")
    conn.execute(f"PRAGMA legacy_alter_table = {legacy_alter_table}")
    assert migrate(conn) == 1
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == (foreign_keys == "ON")
    triggers = conn.execute(
        "SELECT name, tbl_name, sql FROM sqlite_master WHERE type='trigger' ORDER BY name"
    ).fetchall()
    assert [(name, table) for name, table, _ in triggers] == [
        ("events_chained", "events"),
        ("events_no_delete", "events"),
        ("events_no_update", "events"),
    ]
    assert all("ON events\n" in sql for _, _, sql in triggers)
    assert _check_kinds(_events_sql(conn)) == list(EVENT_KINDS)
    conn.close()
    assert _raw_events(path) == before


def test_a_version_4_store_takes_the_contract_kinds_keeping_its_chain(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from argus.store import _migrations as migrations_module

    monkeypatch.setattr(migrations_module, "MIGRATIONS", MIGRATIONS[:4])
    with RunStore.open(tmp_path) as store:  # a store as Argus left it at version 4
        assert store.schema_version() == 4
        run_id = store.start_run("habits", "headless")
        for n in range(3):
            store.append(Event(kind="note", feature="habits", run_id=run_id, payload={"n": n}))
        with pytest.raises(StateError, match="CHECK constraint"):  # not a kind of version 4
            store.append(Event(kind="contract_run", feature="contract/ship-it"))
    monkeypatch.undo()
    path = db_path(tmp_path)
    columns = "id, run_id, kind, payload, prev_hash, hash"
    with closing(sqlite3.connect(path)) as conn:
        before = conn.execute(f"SELECT {columns} FROM events ORDER BY id").fetchall()
    with RunStore.open(tmp_path) as store:
        assert store.schema_version() == LATEST_VERSION == 6
        assert store.verify() == (3, None)
        name = "contract/ship-it/0123"
        store.open_run(name, "contract/ship-it", "contract")
        store.append(Event(kind="contract_run", feature="contract/ship-it", run_id=name))
        assert store.verify() == (4, None)
    with closing(sqlite3.connect(path)) as conn:
        kept = conn.execute(f"SELECT {columns} FROM events ORDER BY id LIMIT 3").fetchall()
        triggers = conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        assert {row[0] for row in triggers} == {
            "events_no_update",
            "events_no_delete",
            "events_chained",
        }
        leftovers = conn.execute("SELECT name FROM sqlite_master WHERE name LIKE 'events_v%'")
        assert not leftovers.fetchall()
    assert kept == before
