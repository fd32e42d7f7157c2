"""Run store: migrations, append-only events, query filters, concurrency, bad files."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from argus.errors import InputError, StateError
from argus.store import LATEST_VERSION, Event, RunStore, ViewKey, db_path


def test_open_creates_wal_database_with_latest_schema(tmp_path: Path) -> None:
    with RunStore.open(tmp_path) as store:
        assert store.path == tmp_path / ".argus" / "argus.db"
        assert store.schema_version() == LATEST_VERSION
    conn = sqlite3.connect(db_path(tmp_path))
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"runs", "events", "schema_version"} <= tables


def test_migrations_are_idempotent(tmp_path: Path) -> None:
    for _ in range(3):
        with RunStore.open(tmp_path) as store:
            store.start_run("habits", "headless")
    conn = sqlite3.connect(db_path(tmp_path))
    versions = [row[0] for row in conn.execute("SELECT version FROM schema_version")]
    assert versions == list(range(1, LATEST_VERSION + 1))
    assert conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 3


def test_newer_schema_version_is_refused(tmp_path: Path) -> None:
    RunStore.open(tmp_path).close()
    conn = sqlite3.connect(db_path(tmp_path))
    conn.execute("INSERT INTO schema_version (version) VALUES (?)", (LATEST_VERSION + 5,))
    conn.commit()
    conn.close()
    with pytest.raises(StateError, match="newer than this argus"):
        RunStore.open(tmp_path)


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE events SET kind = 'note'",
        "UPDATE events SET payload = '{}' WHERE id = 1",
        "DELETE FROM events",
        "DELETE FROM events WHERE id = 1",
    ],
)
def test_events_are_append_only_even_from_raw_sql(tmp_path: Path, statement: str) -> None:
    with RunStore.open(tmp_path) as store:
        store.append(Event(kind="verdict", feature="habits", payload={"all_pass": True}))
    conn = sqlite3.connect(db_path(tmp_path))
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute(statement)
    conn.rollback()
    assert conn.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 1


def test_unknown_kind_is_refused_by_api_and_by_database(tmp_path: Path) -> None:
    with RunStore.open(tmp_path) as store, pytest.raises(InputError, match="unknown event kind"):
        store.append(Event(kind="oops", feature="habits"))
    conn = sqlite3.connect(db_path(tmp_path))
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute(
            "INSERT INTO events (kind, feature, created_at, payload)"
            " VALUES ('oops', 'f', 'now', '{}')"
        )


def test_payload_must_be_plain_json(tmp_path: Path) -> None:
    with RunStore.open(tmp_path) as store, pytest.raises(InputError, match="not plain JSON"):
        store.append(Event(kind="note", feature="habits", payload={"x": object()}))


def test_append_returns_id_and_utc_timestamp(tmp_path: Path) -> None:
    with RunStore.open(tmp_path) as store:
        first = store.append(Event(kind="note", feature="habits", payload={"n": 1}))
        second = store.append(Event(kind="note", feature="habits", payload={"n": 2}))
    assert first.id is not None and second.id is not None and second.id > first.id
    assert first.created_at is not None and first.created_at.endswith("Z")
    assert first.created_at <= (second.created_at or "")


def _seed_events(store: RunStore) -> tuple[str, str]:
    run_a = store.start_run("habits", "headless")
    run_b = store.start_run("settings", "interactive")
    rows = [
        (run_a, "run_started", "habits", None, None, None, None),
        (run_a, "gate_result", "habits", "list", "populated", "light", 1),
        (run_a, "verdict", "habits", "list", "populated", "light", 2),
        (run_a, "verdict", "habits", "list", "empty", "dark", 1),
        (run_b, "verdict", "settings", "form", "default", "light", 1),
        (run_b, "sign_off", "settings", "form", "default", "light", 2),
    ]
    for run_id, kind, feature, target, state, appearance, iteration in rows:
        store.append(
            Event(
                run_id=run_id,
                kind=kind,
                feature=feature,
                target=target,
                state=state,
                appearance=appearance,
                iteration=iteration,
                payload={"kind": kind},
            )
        )
    return run_a, run_b


@pytest.mark.parametrize(
    ("filters", "expected_kinds"),
    [
        ({}, ["run_started", "gate_result", "verdict", "verdict", "verdict", "sign_off"]),
        ({"feature": "habits"}, ["run_started", "gate_result", "verdict", "verdict"]),
        ({"kind": "verdict"}, ["verdict", "verdict", "verdict"]),
        ({"feature": "habits", "kind": "verdict"}, ["verdict", "verdict"]),
        ({"view": ViewKey("list", "populated", "light")}, ["gate_result", "verdict"]),
        ({"view": ViewKey("list", "empty", "dark"), "kind": "verdict"}, ["verdict"]),
        ({"feature": "nope"}, []),
    ],
)
def test_event_filters(
    tmp_path: Path, filters: dict[str, object], expected_kinds: list[str]
) -> None:
    with RunStore.open(tmp_path) as store:
        _seed_events(store)
        found = store.events(**filters)  # type: ignore[arg-type]
    assert [event.kind for event in found] == expected_kinds
    assert all(event.payload == {"kind": event.kind} for event in found)


def test_event_filter_by_run(tmp_path: Path) -> None:
    with RunStore.open(tmp_path) as store:
        run_a, run_b = _seed_events(store)
        assert len(store.events(run_id=run_a)) == 4
        assert [e.kind for e in store.events(run_id=run_b)] == ["verdict", "sign_off"]


def test_runs_listing_and_last_run(tmp_path: Path) -> None:
    with RunStore.open(tmp_path) as store:
        assert store.last_run("habits") is None
        first = store.start_run("habits", "headless")
        store.start_run("settings", "headless")
        second = store.start_run("habits", "report-only")
        store.finish_run(first, "DONE")
        assert [run.run_id for run in store.runs(feature="habits")] == [second, first]
        assert len(store.runs()) == 3
        last = store.last_run("habits")
        assert last is not None and last.run_id == second and last.status is None
        done = store.runs(feature="habits")[1]
        assert done.status == "DONE" and done.finished_at is not None


def test_finish_run_unknown_or_twice_is_an_error(tmp_path: Path) -> None:
    with RunStore.open(tmp_path) as store:
        with pytest.raises(StateError, match="no run 'missing'"):
            store.finish_run("missing", "DONE")
        run_id = store.start_run("habits", "headless")
        store.finish_run(run_id, "DONE")
        with pytest.raises(StateError, match="already finished"):
            store.finish_run(run_id, "BLOCKED")


def test_event_for_unknown_run_is_refused(tmp_path: Path) -> None:
    with RunStore.open(tmp_path) as store, pytest.raises(StateError, match="refused"):
        store.append(Event(kind="note", feature="habits", run_id="not-a-run"))


@pytest.mark.parametrize(
    "content", [b"this is not sqlite at all\n" * 100, b"SQLite format 3\x00" + b"\xff" * 4000]
)
def test_corrupt_database_is_a_one_line_input_error(tmp_path: Path, content: bytes) -> None:
    path = db_path(tmp_path)
    path.parent.mkdir()
    path.write_bytes(content)
    with pytest.raises(InputError) as info:
        RunStore.open(tmp_path)
    message = str(info.value)
    assert str(path) in message and "\n" not in message


_APPENDER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from argus.store import Event, RunStore

    root, tag, count = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    with RunStore.open(root) as store:
        for n in range(count):
            store.append(Event(kind="note", feature="habits", payload={"tag": tag, "n": n}))
    """
)


def test_concurrent_appends_from_two_processes(tmp_path: Path) -> None:
    count = 150
    writers = [
        subprocess.Popen([sys.executable, "-c", _APPENDER, str(tmp_path), tag, str(count)])
        for tag in ("a", "b")
    ]
    for writer in writers:
        assert writer.wait(timeout=120) == 0
    with RunStore.open(tmp_path) as store:
        notes = store.events(kind="note")
        # Each append reads and extends the chain's end in one write transaction: interleaved
        # writers never link two events to the same predecessor.
        assert store.verify() == (2 * count, None)
    assert len(notes) == 2 * count
    for tag in ("a", "b"):
        assert [e.payload["n"] for e in notes if e.payload["tag"] == tag] == list(range(count))
