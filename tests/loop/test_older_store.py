"""A loop runs on a repository whose run store an earlier Argus left at schema version 3
(written here by hand): the store is upgraded in place, the old runs and events are kept as they
were, the new run's events extend the same hash chain, and the report reads it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from argus.cli import main
from argus.loop.records.status import Status
from argus.store import LATEST_VERSION, RunStore, db_path
from tests.loop.fakeapp import FEATURE, make_repo
from tests.loop.test_run_fakes import _run
from tests.store.test_event_chain import COLUMNS, version_3_store


def test_a_loop_upgrades_a_version_3_store_and_extends_its_chain(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_repo(tmp_path, [])
    version_3_store(root)
    conn = sqlite3.connect(db_path(root))
    old = conn.execute(f"SELECT {COLUMNS} FROM events ORDER BY id").fetchall()
    conn.close()
    outcome = _run(root)
    assert outcome.status is Status.DONE, outcome
    with RunStore.open(root) as store:
        assert store.schema_version() == LATEST_VERSION
        count, broken = store.verify()
        assert broken is None and count > len(old)
        assert {r.run_id for r in store.runs()} == {"r1", outcome.run_id}
        assert store.events(run_id=outcome.run_id)[0].kind == "run_started"
    conn = sqlite3.connect(db_path(root))
    kept = conn.execute(f"SELECT {COLUMNS} FROM events WHERE id <= ? ORDER BY id", (len(old),))
    assert kept.fetchall() == old
    conn.close()
    capsys.readouterr()
    assert main(["report", "--feature", FEATURE, "--root", str(root)]) == 0
    assert main(["runs", "--verify", "--root", str(root)]) == 0
    assert "hash chain intact" in capsys.readouterr().out
