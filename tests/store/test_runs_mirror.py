"""The runs table's status and finish time against the chained run_finished events: a row
changed outside Argus is named by ``RunStore.verify_runs`` and ``argus runs --verify``."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from argus.cli import main
from argus.store import Event, RunStore, db_path


def finished_run(root: Path, status: str = "DONE") -> str:
    """A run finished the way the loop finishes one: its event first, then the table."""
    with RunStore.open(root) as store:
        run_id = store.start_run("habits", "headless")
        store.append(
            Event(kind="run_finished", feature="habits", run_id=run_id, payload={"status": status})
        )
        store.finish_run(run_id, status)
        store.start_run("habits", "headless")  # still running: no event, no finish
    return run_id


def tamper(root: Path, statement: str, *params: object) -> None:
    conn = sqlite3.connect(db_path(root))
    with conn:
        conn.execute(statement, params)
    conn.close()


def test_an_untouched_store_agrees(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "argus.toml").write_text("")
    finished_run(tmp_path)
    with RunStore.open(tmp_path) as store:
        assert store.verify_runs() is None
    assert main(["runs", "--verify", "--root", str(tmp_path)]) == 0
    assert "runs table agrees" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("statement", "why"),
    [
        ("UPDATE runs SET status = 'SIGNED_OFF' WHERE run_id = ?", "says SIGNED_OFF"),
        ("UPDATE runs SET finished_at = NULL, status = NULL WHERE run_id = ?", "did not"),
        ("UPDATE runs SET finished_at = '2000-01-01T00:00:00.000000Z' WHERE run_id = ?", "is not"),
        ("UPDATE runs SET finished_at = '2999-01-01T00:00:00.000000Z' WHERE run_id = ?", "is not"),
        ("UPDATE runs SET finished_at = finished_at || '1' WHERE run_id = ?", "is not"),
        ("UPDATE runs SET feature = 'other' WHERE run_id = ?", "under feature 'other'"),
        ("DELETE FROM runs WHERE run_id = ?", "no such run"),
    ],
)
def test_a_finished_run_s_row_changed_is_named(
    tmp_path: Path, statement: str, why: str, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "argus.toml").write_text("")
    run_id = finished_run(tmp_path)
    tamper(tmp_path, statement, run_id)
    with RunStore.open(tmp_path) as store:
        off = store.verify_runs()
    assert off is not None and off.run_id == run_id and why in off.why
    assert main(["runs", "--verify", "--root", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert f"runs table disagrees with it at run {run_id}" in out
    assert main(["runs", "--verify", "--json", "--root", str(tmp_path)]) == 1
    (shown,) = json.loads(capsys.readouterr().out)["stores"]
    assert shown["runs_disagree"]["run"] == run_id and shown["broken"] is None


def test_a_running_run_marked_finished_is_named(tmp_path: Path) -> None:
    finished_run(tmp_path)
    with RunStore.open(tmp_path) as store:
        running = next(r for r in store.runs() if r.finished_at is None).run_id
    tamper(
        tmp_path,
        "UPDATE runs SET finished_at = '2999-01-01T00:00:00.000000Z', status = 'SIGNED_OFF'"
        " WHERE run_id = ?",
        running,
    )
    with RunStore.open(tmp_path) as store:
        off = store.verify_runs()
    assert off is not None and off.run_id == running and "without a run_finished" in off.why


def test_a_finished_row_holds_its_event_s_time_exactly(tmp_path: Path) -> None:
    run_id = finished_run(tmp_path)
    with RunStore.open(tmp_path) as store:
        (event,) = store.events(run_id=run_id, kind="run_finished")
        (row,) = [r for r in store.runs() if r.run_id == run_id]
    assert row.finished_at == event.created_at


def test_a_version_5_store_s_rows_take_their_event_s_time_unless_the_old_check_named_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from argus.store import _migrations as migrations

    monkeypatch.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS[:5])
    kept, moved = finished_run(tmp_path), finished_run(tmp_path)
    with RunStore.open(tmp_path) as store:
        assert store.schema_version() == 5
    # Version 5 read the finish time a moment after the event; one row was moved before it.
    tamper(tmp_path, "UPDATE runs SET finished_at = finished_at || '9' WHERE run_id = ?", kept)
    tamper(tmp_path, "UPDATE runs SET finished_at = '2000-01-01T00:00:00Z' WHERE run_id = ?", moved)
    monkeypatch.undo()
    with RunStore.open(tmp_path) as store:
        assert store.schema_version() == 6
        off = store.verify_runs()
        times = {r.run_id: r.finished_at for r in store.runs()}
        (event,) = store.events(run_id=kept, kind="run_finished")
    assert times[kept] == event.created_at
    assert off is not None and off.run_id == moved and "2000-01-01" in off.why


@pytest.mark.parametrize(
    "change",
    ["finished_at = '2999-01-01T00:00:00.000000Z'", "status = 'SIGNED_OFF'"],
)
def test_a_running_run_given_only_a_finish_time_or_only_a_status_is_named(
    tmp_path: Path, change: str
) -> None:
    finished_run(tmp_path)
    with RunStore.open(tmp_path) as store:
        running = next(r for r in store.runs() if r.finished_at is None).run_id
    tamper(tmp_path, f"UPDATE runs SET {change} WHERE run_id = ?", running)
    with RunStore.open(tmp_path) as store:
        off = store.verify_runs()
    assert off is not None and off.run_id == running and "without a run_finished" in off.why
