"""The run store's events are a hash chain (migration 4): a version-3 store written here by hand
upgrades in place, a crash part-way through the upgrade leaves it at version 3, and an event
changed or dropped outside Argus is named by ``RunStore.verify`` and ``argus runs --verify``."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from argus.cli import main
from argus.errors import StateError
from argus.store import LATEST_VERSION, Event, RunStore, db_path
from argus.store import _migrations as migrations_module

KINDS_3 = (
    "run_started", "gate_result", "verdict", "decision", "sign_off", "run_finished",
    "sensor_failure", "implementer", "note", "acceptance_fidelity_review", "review_outcome",
    "human_decision",
)  # fmt: skip
# The store as Argus left it at schema version 3, written out here (not by the code under test).
VERSION_3 = f"""
CREATE TABLE schema_version (version INTEGER NOT NULL);
INSERT INTO schema_version (version) VALUES (1), (2), (3);
CREATE TABLE runs (run_id TEXT PRIMARY KEY, feature TEXT NOT NULL, mode TEXT NOT NULL,
    started_at TEXT NOT NULL, finished_at TEXT, status TEXT);
CREATE INDEX runs_feature ON runs (feature, started_at);
CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT REFERENCES runs (run_id),
    kind TEXT NOT NULL CHECK (kind IN ({", ".join(f"'{k}'" for k in KINDS_3)})),
    feature TEXT NOT NULL, target TEXT, state TEXT, appearance TEXT, iteration INTEGER,
    created_at TEXT NOT NULL, payload TEXT NOT NULL CHECK (json_valid(payload)));
CREATE INDEX events_run ON events (run_id);
CREATE INDEX events_feature ON events (feature, kind);
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
INSERT INTO runs VALUES ('r1', 'habits', 'headless', '2025-01-01T00:00:00Z',
    '2025-01-01T00:01:00Z', 'SIGNED_OFF');
INSERT INTO events (run_id, kind, feature, target, state, appearance, iteration, created_at,
    payload) VALUES
    ('r1', 'run_started', 'habits', NULL, NULL, NULL, NULL, '2025-01-01T00:00:00Z', '{{}}'),
    ('r1', 'verdict', 'habits', 'list', 'empty', 'light', 1, '2025-01-01T00:00:10Z',
     '{{"all_pass": true, "scores": {{"layout": 0.9}}}}'),
    ('r1', 'decision', 'habits', 'list', 'empty', 'light', 1, '2025-01-01T00:00:11Z',
     '{{"kind": "judged"}}'),
    (NULL, 'note', 'habits', NULL, NULL, NULL, NULL, '2025-01-01T00:00:12Z', '[1,2]'),
    ('r1', 'sign_off', 'habits', 'list', 'empty', 'light', 2, '2025-01-01T00:00:20Z',
     '{{"n": "é"}}'),
    ('r1', 'run_finished', 'habits', NULL, NULL, NULL, NULL, '2025-01-01T00:00:59Z',
     '{{"status": "SIGNED_OFF", "notes": []}}');
"""
COLUMNS = "id, run_id, kind, feature, target, state, appearance, iteration, created_at, payload"


def version_3_store(root: Path) -> Path:
    path = db_path(root)
    path.parent.mkdir(parents=True)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.executescript(VERSION_3)
    conn.close()
    return path


def raw(path: Path, sql: str) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def tamper(path: Path, *statements: str) -> None:
    """What a same-user process with a sqlite3 shell can do: drop the guards, then edit."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("DROP TRIGGER events_no_update")
    conn.execute("DROP TRIGGER events_no_delete")
    for statement in statements:
        conn.execute(statement)
    conn.close()


def test_a_version_3_store_upgrades_keeping_every_event_and_its_chain_holds(
    tmp_path: Path,
) -> None:
    path = version_3_store(tmp_path)
    before = raw(path, f"SELECT {COLUMNS} FROM events ORDER BY id")
    with RunStore.open(tmp_path) as store:
        assert store.schema_version() == LATEST_VERSION
        assert store.verify() == (6, None)
        assert [e.kind for e in store.events(run_id="r1")][-2:] == ["sign_off", "run_finished"]
        assert store.runs()[0].status == "SIGNED_OFF"
        added = store.append(Event(kind="note", feature="habits", payload={"after": 1}))
        assert store.verify() == (7, None)
    assert added.id == 7
    assert raw(path, f"SELECT {COLUMNS} FROM events WHERE id <= 6 ORDER BY id") == before
    links = raw(path, "SELECT prev_hash, hash FROM events ORDER BY id")
    assert links[0][0] == "" and all(links[i][0] == links[i - 1][1] for i in range(1, 7))


def test_argus_runs_lists_a_version_3_store_s_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "argus.toml").write_text("")
    version_3_store(tmp_path)
    assert main(["runs", "--root", str(tmp_path)]) == 0
    listed = capsys.readouterr().out
    assert "r1" in listed and "SIGNED_OFF" in listed and "verdict 1" in listed
    assert main(["runs", "--run", "r1", "--json", "--root", str(tmp_path)]) == 0
    (shown,) = json.loads(capsys.readouterr().out)["runs"]
    assert [e["kind"] for e in shown["events"]] == [
        "run_started", "verdict", "decision", "sign_off", "run_finished",
    ]  # fmt: skip


def test_a_fresh_store_chains_every_append(tmp_path: Path) -> None:
    with RunStore.open(tmp_path) as store:
        run_id = store.start_run("habits", "headless")
        for n in range(3):
            store.append(Event(kind="note", feature="habits", run_id=run_id, payload={"n": n}))
        assert store.verify() == (3, None)
    with RunStore.open(tmp_path) as first, RunStore.open(tmp_path) as second:
        first.append(Event(kind="note", feature="habits"))  # two writers, one chain
        second.append(Event(kind="note", feature="habits"))
        first.append(Event(kind="note", feature="habits"))
        assert second.verify() == (6, None)


@pytest.mark.parametrize(
    ("statement", "named"),
    [
        ("UPDATE events SET payload = '{\"all_pass\": false}' WHERE id = 2", 2),
        ("UPDATE events SET iteration = 9 WHERE id = 3", 3),
        ("UPDATE events SET created_at = '2020-01-01T00:00:00Z' WHERE id = 1", 1),
        ("DELETE FROM events WHERE id = 3", 4),  # the link after the gap
        ("UPDATE events SET prev_hash = '' WHERE id = 4", 4),
    ],
)
def test_an_event_changed_outside_argus_is_named(
    tmp_path: Path, statement: str, named: int, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "argus.toml").write_text("")
    version_3_store(tmp_path)
    RunStore.open(tmp_path).close()
    assert main(["runs", "--verify", "--root", str(tmp_path)]) == 0
    assert "6 event(s), hash chain intact" in capsys.readouterr().out
    tamper(db_path(tmp_path), statement)
    with RunStore.open(tmp_path) as store:
        _, broken = store.verify()
    assert broken is not None and broken.seq == named
    assert main(["runs", "--verify", "--root", str(tmp_path)]) == 1
    assert f"hash chain broken at event {named}:" in capsys.readouterr().out
    assert main(["runs", "--verify", "--json", "--root", str(tmp_path)]) == 1
    (shown,) = json.loads(capsys.readouterr().out)["stores"]
    assert shown["broken"]["event"] == named and shown["store"] == str(db_path(tmp_path))


def test_an_insert_that_does_not_extend_the_chain_is_refused_by_the_database(
    tmp_path: Path,
) -> None:
    path = version_3_store(tmp_path)
    RunStore.open(tmp_path).close()
    conn = sqlite3.connect(path)
    with pytest.raises(sqlite3.IntegrityError, match="hash-chained"):
        conn.execute(
            "INSERT INTO events (kind, feature, created_at, payload, prev_hash, hash)"
            " VALUES ('note', 'habits', 'now', '{}', '', ?)",
            ("0" * 64,),
        )
    conn.close()


def test_a_migration_that_fails_part_way_leaves_version_3_readable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = version_3_store(tmp_path)
    before = raw(path, f"SELECT {COLUMNS} FROM events ORDER BY id")
    calls = []
    real = migrations_module.link_hash

    def failing(prev: str, content: object) -> str:
        calls.append(prev)
        if len(calls) == 3:
            raise OSError("disk full")
        return real(prev, content)  # type: ignore[arg-type]

    monkeypatch.setattr(migrations_module, "link_hash", failing)
    with pytest.raises((OSError, StateError)):
        RunStore.open(tmp_path)
    assert raw(path, "SELECT version FROM schema_version") == [(1,), (2,), (3,)]
    assert raw(path, f"SELECT {COLUMNS} FROM events ORDER BY id") == before
    assert not raw(path, "SELECT name FROM sqlite_master WHERE name LIKE 'events_v%'")
    monkeypatch.setattr(migrations_module, "link_hash", real)
    with RunStore.open(tmp_path) as store:
        assert store.verify() == (6, None)


KILLER = textwrap.dedent(
    """
    import os, signal, sys
    from pathlib import Path
    from argus.store import RunStore, _migrations as migrations
    real, seen = migrations.link_hash, []
    def killing(prev, content):
        seen.append(prev)
        if len(seen) == 3:
            os.kill(os.getpid(), signal.SIGKILL)
        return real(prev, content)
    migrations.link_hash = killing
    RunStore.open(Path(sys.argv[1]))
    """
)


def test_a_migration_killed_part_way_leaves_version_3_readable(tmp_path: Path) -> None:
    # Only a process can show what SIGKILL leaves: SQLite's transaction, not our cleanup.
    path = version_3_store(tmp_path)
    before = raw(path, f"SELECT {COLUMNS} FROM events ORDER BY id")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")}
    killed = subprocess.run(
        [sys.executable, "-c", KILLER, str(tmp_path)], env=env, capture_output=True, text=True
    )
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert raw(path, "SELECT MAX(version) FROM schema_version") == [(3,)]
    assert raw(path, f"SELECT {COLUMNS} FROM events ORDER BY id") == before
    with RunStore.open(tmp_path) as store:
        assert store.schema_version() == LATEST_VERSION and store.verify() == (6, None)
