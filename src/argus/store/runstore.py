"""The run store: one SQLite file per repository at ``.argus/argus.db``.

WAL mode lets the loop append while ``argus runs`` or the report reads; a busy timeout lets two
writers (two views sensed in parallel, two loops) wait for each other instead of failing.
Every sqlite3 error is mapped to an Argus error in ``_sqlite_errors``, the one seam.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from argus.closing import Closing
from argus.errors import InputError, StateError
from argus.store._migrations import EVENT_KINDS, LATEST_VERSION, migrate
from argus.store._mirror import Disagreement, Finished, first_disagreement
from argus.store.chain import GENESIS, BrokenLink, Link, first_broken, link_hash
from argus.store.model import CHAINED_COLUMNS, Event, Run, ViewLike, chain_content, utc_now

DB_RELATIVE = Path(".argus") / "argus.db"
BUSY_TIMEOUT_MS = 30_000
WAL_RETRIES = 100


def db_path(root: Path) -> Path:
    return root / DB_RELATIVE


def _enable_wal(conn: sqlite3.Connection) -> None:
    """Switch to WAL. Two processes creating the store at once can see "database is locked"
    here without SQLite's busy handler being consulted, so retry for a bounded while."""
    for attempt in range(WAL_RETRIES):
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or attempt == WAL_RETRIES - 1:
                raise
            time.sleep(0.05)


class RunStore(Closing):
    """Append-only event log plus a runs table. Use as a context manager."""

    def __init__(self, path: Path, conn: sqlite3.Connection) -> None:
        self.path = path
        self._conn = conn
        self._in_transaction = False

    @classmethod
    def open(cls, root: Path) -> RunStore:
        """Open (creating and migrating as needed) the store of the repository at ``root``."""
        path = db_path(root)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StateError(f"{path.parent}: cannot create run store directory ({exc})") from exc
        with _sqlite_errors(path):
            conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
        try:
            with _sqlite_errors(path):
                conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
                _enable_wal(conn)
                conn.execute("PRAGMA foreign_keys = ON")
                before = migrate(conn)
            if before > LATEST_VERSION:
                raise StateError(
                    f"{path}: run store schema version {before} is newer than this argus "
                    f"understands ({LATEST_VERSION}); upgrade argus"
                )
        except BaseException:
            conn.close()
            raise
        return cls(path, conn)

    def close(self) -> None:
        self._conn.close()

    # -- runs -------------------------------------------------------------------------------

    def start_run(self, feature: str, mode: str) -> str:
        started_at = utc_now()
        run_id = f"{started_at[:19].replace('-', '').replace(':', '')}Z-{secrets.token_hex(3)}"
        with _sqlite_errors(self.path):
            self._conn.execute(
                "INSERT INTO runs (run_id, feature, mode, started_at) VALUES (?, ?, ?, ?)",
                (run_id, feature, mode, started_at),
            )
        return run_id

    def open_run(self, run_id: str, feature: str, mode: str) -> bool:
        """Make sure the run ``run_id`` has its row (a workflow that names its own runs, as the
        contract runner does); True when it was added."""
        with _sqlite_errors(self.path), self._write():
            cursor = self._conn.execute(
                "INSERT OR IGNORE INTO runs (run_id, feature, mode, started_at)"
                " VALUES (?, ?, ?, ?)",
                (run_id, feature, mode, utc_now()),
            )
        return cursor.rowcount == 1

    def finish_run(self, run_id: str, status: str) -> None:
        """Mark the run finished with ``status``. Its finish time is its chained
        ``run_finished`` event's (appended first), so ``verify_runs`` can hold the two equal;
        the time now only for a run finished without one (which ``verify_runs`` names)."""
        with _sqlite_errors(self.path), self._write():
            row = self._conn.execute(
                "SELECT finished_at FROM runs WHERE run_id = ?", (run_id,)
            ).fetchone()
            if row is None:
                raise StateError(f"{self.path}: no run {run_id!r} to finish")
            if row[0] is not None:
                raise StateError(f"{self.path}: run {run_id!r} already finished at {row[0]}")
            said = self._conn.execute(
                "SELECT created_at FROM events WHERE run_id = ? AND kind = 'run_finished'"
                " ORDER BY id DESC LIMIT 1",
                (run_id,),
            ).fetchone()
            self._conn.execute(
                "UPDATE runs SET finished_at = ?, status = ? WHERE run_id = ?",
                (said[0] if said else utc_now(), status, run_id),
            )

    def runs(self, feature: str | None = None, limit: int | None = None) -> list[Run]:
        """Runs, most recent first."""
        sql = "SELECT run_id, feature, mode, started_at, finished_at, status FROM runs"
        params: list[Any] = []
        if feature is not None:
            sql += " WHERE feature = ?"
            params.append(feature)
        sql += " ORDER BY started_at DESC, rowid DESC"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        with _sqlite_errors(self.path):
            rows = self._conn.execute(sql, params).fetchall()
        return [Run(*row) for row in rows]

    def last_run(self, feature: str) -> Run | None:
        found = self.runs(feature=feature, limit=1)
        return found[0] if found else None

    # -- events -----------------------------------------------------------------------------

    def append(self, event: Event) -> Event:
        """Append ``event``; return it with its id and created_at."""
        if event.kind not in EVENT_KINDS:
            raise InputError(
                f"unknown event kind {event.kind!r}; expected one of {', '.join(EVENT_KINDS)}"
            )
        try:
            payload = json.dumps(dict(event.payload), sort_keys=True, allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise InputError(f"{event.kind} event payload is not plain JSON ({exc})") from exc
        created_at = utc_now()
        values = (
            event.run_id,
            event.kind,
            event.feature,
            event.target,
            event.state,
            event.appearance,
            event.iteration,
            created_at,
            payload,
        )
        columns = ", ".join(CHAINED_COLUMNS)
        # The chain's end is read and extended in one write transaction: two writers (two
        # views sensed in parallel, two loops) each link to the other's event, never both to
        # the same one.
        with _sqlite_errors(self.path), self._write():
            row = self._conn.execute("SELECT hash FROM events ORDER BY id DESC LIMIT 1").fetchone()
            previous = str(row[0]) if row else GENESIS
            digest = link_hash(previous, chain_content(values))
            cursor = self._conn.execute(
                f"INSERT INTO events ({columns}, prev_hash, hash)"
                f" VALUES ({', '.join('?' * (len(values) + 2))})",
                (*values, previous, digest),
            )
        return replace(event, id=cursor.lastrowid, created_at=created_at)

    def events(
        self,
        run_id: str | None = None,
        feature: str | None = None,
        kind: str | None = None,
        view: ViewLike | None = None,
    ) -> list[Event]:
        """Events in append order, filtered by every argument given."""
        clauses: list[str] = []
        params: list[Any] = []
        for column, value in (("run_id", run_id), ("feature", feature), ("kind", kind)):
            if value is not None:
                clauses.append(f"{column} = ?")
                params.append(value)
        if view is not None:
            clauses.append("target = ? AND state = ? AND appearance = ?")
            params.extend((view.target, view.state, view.appearance))
        sql = (
            "SELECT id, run_id, kind, feature, target, state, appearance, iteration,"
            " created_at, payload FROM events"
        )
        if clauses:
            sql += " WHERE " + " AND ".join(clauses)
        sql += " ORDER BY id"
        with _sqlite_errors(self.path):
            rows = self._conn.execute(sql, params).fetchall()
        return [_event_from_row(row) for row in rows]

    def verify(self) -> tuple[int, BrokenLink | None]:
        """Walk the event chain: how many events it holds, and the first broken link (named by
        its event id), or None when every event is as it was appended."""
        columns = ", ".join(CHAINED_COLUMNS)
        with _sqlite_errors(self.path):
            rows = self._conn.execute(
                f"SELECT id, prev_hash, hash, {columns} FROM events ORDER BY id"
            ).fetchall()
        links = (Link(row[0], row[1], row[2], chain_content(tuple(row[3:]))) for row in rows)
        return len(rows), first_broken(links)

    def verify_runs(self) -> Disagreement | None:
        """The first run whose row in ``runs`` (status, finish time, feature) disagrees with its
        chained ``run_finished`` event (_mirror.py), or None. Run it after ``verify``: the
        events it trusts are the chain's."""
        finished = {
            str(event.run_id): Finished(
                _status_of(event.payload), event.created_at or "", event.feature
            )
            for event in self.events(kind="run_finished")
            if event.run_id is not None
        }
        return first_disagreement(self.runs(), finished)

    def schema_version(self) -> int:
        with _sqlite_errors(self.path):
            row = self._conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
        return int(row[0])

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One write transaction around several appends and run changes: they land together or
        not at all (a process killed inside it leaves the store as it was)."""
        with _sqlite_errors(self.path), self._write():
            yield

    @contextmanager
    def _write(self) -> Iterator[None]:
        if self._in_transaction:  # inside ``transaction``: its BEGIN and COMMIT are the ones
            yield
            return
        self._conn.execute("BEGIN IMMEDIATE")
        self._in_transaction = True
        try:
            yield
        except BaseException:
            self._in_transaction = False
            self._conn.execute("ROLLBACK")
            raise
        self._in_transaction = False
        self._conn.execute("COMMIT")


def _status_of(payload: object) -> object:
    return payload.get("status") if isinstance(payload, Mapping) else None


def _event_from_row(row: tuple[Any, ...]) -> Event:
    payload: Mapping[str, Any] = json.loads(row[9])
    return Event(
        id=row[0],
        run_id=row[1],
        kind=row[2],
        feature=row[3],
        target=row[4],
        state=row[5],
        appearance=row[6],
        iteration=row[7],
        created_at=row[8],
        payload=payload,
    )


@contextmanager
def _sqlite_errors(path: Path) -> Iterator[None]:
    """The seam: sqlite3's exceptions become one-line Argus errors naming the database."""
    try:
        yield
    except sqlite3.IntegrityError as exc:
        raise StateError(f"{path}: run store refused the write ({exc})") from exc
    except sqlite3.DatabaseError as exc:
        text = str(exc)
        if "not a database" in text or "malformed" in text:
            raise InputError(
                f"{path}: not a readable Argus run store ({text}); move it aside and rerun"
            ) from exc
        raise StateError(f"{path}: run store error ({text})") from exc
    except sqlite3.Error as exc:
        raise StateError(f"{path}: run store error ({exc})") from exc
