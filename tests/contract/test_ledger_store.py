"""A contract run's ledger in the run store (.argus/argus.db): a ledger.jsonl an earlier Argus
left is imported once (clean, refused whole when broken, crash-safe), an archived run keeps its
history there, and both verify commands find an edited, dropped, inserted or reordered record
and a state.json that is not the ledger's view."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from contextlib import closing
from pathlib import Path

import pytest

from argus.cli import main
from argus.contract import run
from argus.contract.state import load_state
from argus.errors import InputError
from argus.store import RunStore
from argus.store.chain import link_hash
from argus.store.model import CHAINED_COLUMNS, chain_content
from tests.contract.conftest import ledger_rows, summarize, tamper, write_contract
from tests.contract.test_runstate import RUN_DIR, earlier_run

NAME = "contract/ship-it/0123456789abcdef"  # the earlier run's name in the store


def cli(root: Path, *args: str) -> int:
    return main([*args, "--root", str(root)])


def rows(root: Path, sql: str, *params: object) -> list[tuple[object, ...]]:
    with closing(sqlite3.connect(root / ".argus/argus.db")) as conn:
        return list(conn.execute(sql, params).fetchall())


# -- the import of a ledger.jsonl ----------------------------------------------------------


def test_a_ledger_file_is_imported_once_its_chain_walked_then_never_written(repo: Path) -> None:
    lines = earlier_run(repo)
    before = (repo / RUN_DIR / "ledger.jsonl").read_bytes()
    assert load_state(repo, "ship-it").phase == "paused"
    imported = ledger_rows(repo)
    assert [name for _, name, _ in imported] == [NAME] * 3
    for (_, _, payload), line in zip(imported, lines, strict=True):
        entry = json.loads(line)
        assert payload["seq"] == entry["seq"] and payload["record"] == entry["record"]
    assert (repo / RUN_DIR / "ledger.imported.jsonl").read_bytes() == before
    assert not (repo / RUN_DIR / "ledger.jsonl").exists()
    assert rows(repo, "SELECT feature, mode FROM runs WHERE run_id = ?", NAME) == [
        ("contract/ship-it", "contract")
    ]
    load_state(repo, "ship-it")  # a second open imports nothing again
    assert len(ledger_rows(repo)) == 3
    with RunStore.open(repo) as store:
        assert store.verify() == (3, None)


@pytest.mark.parametrize("how", ["edited", "reordered", "not json"])
def test_a_broken_ledger_file_is_refused_whole_in_one_line_exit_2(
    repo: Path, how: str, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = earlier_run(repo)
    if how == "edited":
        entry = json.loads(lines[1])
        entry["record"]["status"] = "passed"
        lines[1] = json.dumps(entry)
    elif how == "reordered":
        lines[1], lines[2] = lines[2], lines[1]
    else:
        lines[2] = lines[2][:-5]
    (repo / RUN_DIR / "ledger.jsonl").write_text("\n".join(lines) + "\n")
    before = (repo / RUN_DIR / "ledger.jsonl").read_bytes()
    for command in (["contract", "status"], ["contract", "verify", "ship-it"]):
        assert cli(repo, *command) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and "nothing was imported" in err
        assert "ledger.jsonl:2:" in err or "ledger.jsonl:3:" in err
    assert (repo / RUN_DIR / "ledger.jsonl").read_bytes() == before
    assert not (repo / ".argus/argus.db").exists() or ledger_rows(repo) == []


KILLER = textwrap.dedent(
    """
    import os, signal, sys
    from pathlib import Path
    from argus.store import runstore
    real, seen = runstore.RunStore.append, []
    def killing(self, event):
        seen.append(event)
        if len(seen) == int(sys.argv[2]):
            os.kill(os.getpid(), signal.SIGKILL)
        return real(self, event)
    runstore.RunStore.append = killing
    if sys.argv[3] == "rename":
        Path.replace = lambda self, target: os.kill(os.getpid(), signal.SIGKILL)
    from argus.contract.state import load_state
    load_state(Path(sys.argv[1]), "ship-it")
    """
)


def killed_import(root: Path, at: int, where: str = "append") -> None:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")}
    killed = subprocess.run(
        [sys.executable, "-c", KILLER, str(root), str(at), where],
        env=env,
        capture_output=True,
        text=True,
    )
    assert killed.returncode == -signal.SIGKILL, killed.stderr


def test_an_import_killed_part_way_leaves_the_file_authoritative(repo: Path) -> None:
    earlier_run(repo)
    before = (repo / RUN_DIR / "ledger.jsonl").read_bytes()
    killed_import(repo, at=3)  # after two of its three records
    assert (repo / RUN_DIR / "ledger.jsonl").read_bytes() == before
    assert ledger_rows(repo) == [], "never half-imported"
    assert rows(repo, "SELECT run_id FROM runs") == []
    assert main(["contract", "verify", "ship-it", "--root", str(repo)]) == 0  # imports it now
    assert len(ledger_rows(repo)) == 3


def test_an_import_killed_before_its_rename_is_not_imported_twice(repo: Path) -> None:
    earlier_run(repo)
    killed_import(repo, at=0, where="rename")  # committed, the file not yet renamed
    assert (repo / RUN_DIR / "ledger.jsonl").is_file() and len(ledger_rows(repo)) == 3
    assert run.resume(repo, "ship-it").phase == "running"
    assert not (repo / RUN_DIR / "ledger.jsonl").exists()
    assert [p["seq"] for _, _, p in ledger_rows(repo)] == [1, 2, 3, 4]


# -- archived runs -------------------------------------------------------------------------


def test_an_archived_ledger_file_is_imported_and_verified_from_the_store(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    earlier_run(repo, phase="aborted")
    archived = repo / RUN_DIR / "archive" / "20250101T000000Z-0123456789abcdef"
    archived.mkdir(parents=True)
    for name in ("state.json", "ledger.jsonl"):
        (repo / RUN_DIR / name).rename(archived / name)
    assert cli(repo, "contract", "status", "--json") == 0
    (shown,) = json.loads(capsys.readouterr().out)
    (old,) = shown["archived"]
    assert (old["run_id"], old["phase"], old["records"]) == ("0123456789abcdef", "aborted", 3)
    assert (archived / "ledger.imported.jsonl").is_file()
    assert cli(repo, "contract", "verify", "ship-it") == 0
    assert "archived run 0123456789abcdef: ledger intact (3 record(s)" in capsys.readouterr().out
    # A closed run is finished in the runs table with its chained run_finished event.
    assert rows(repo, "SELECT status FROM runs WHERE run_id = ?", NAME) == [("aborted",)]
    assert cli(repo, "runs", "--verify") == 0
    assert "1 contract run(s): each state.json is its ledger's view" in capsys.readouterr().out


def test_an_archived_run_s_state_json_is_checked_against_its_records(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = run.start(repo, write_contract(repo), "anthropic/the-builder", "").run_id
    summarize(repo)
    run.abort(repo, "ship-it", "a person ends it")
    run.start(repo, repo / "contract.json", "anthropic/the-builder", "")
    (archived,) = (repo / RUN_DIR / "archive").iterdir()
    raw = json.loads((archived / "state.json").read_text())
    raw["phase"] = "completed"
    (archived / "state.json").write_text(json.dumps(raw))
    assert cli(repo, "contract", "verify", "ship-it") == 1
    out = capsys.readouterr().out
    assert f"archived run {first}: " in out and "does not match the run's ledger" in out
    assert cli(repo, "runs", "--verify") == 1
    assert f"run {first}: " in capsys.readouterr().out


# -- both verify commands find every kind of edit ---------------------------------------------


def rehash(root: Path, event: int) -> None:
    """Recompute one event's hash over its content, as a careful attacker would."""
    columns = ", ".join(CHAINED_COLUMNS)
    ((prev, *values),) = rows(root, f"SELECT prev_hash, {columns} FROM events WHERE id = ?", event)
    digest = link_hash(str(prev), chain_content(tuple(values)))
    tamper(root, "UPDATE events SET hash = ? WHERE id = ?", digest, event)


def edited(root: Path, ids: list[int]) -> None:
    event, _, payload = next(r for r in ledger_rows(root) if r[0] == ids[1])
    payload["record"]["status"] = "passed"
    tamper(root, "UPDATE events SET payload = ? WHERE id = ?", json.dumps(payload), event)


def dropped(root: Path, ids: list[int]) -> None:
    tamper(root, "DELETE FROM events WHERE id = ?", ids[1])


def dropped_last(root: Path, ids: list[int]) -> None:
    tamper(root, "DELETE FROM events WHERE id = ?", ids[-1])


def inserted(root: Path, ids: list[int]) -> None:
    # A copy of the run's last record appended as the next link, its hash computed right: the
    # chain holds, but the run's records are not in their order any more.
    columns = ", ".join(CHAINED_COLUMNS)
    (values,) = rows(root, f"SELECT {columns} FROM events WHERE id = ?", ids[-1])
    ((last,),) = rows(root, "SELECT hash FROM events ORDER BY id DESC LIMIT 1")
    digest = link_hash(str(last), chain_content(tuple(values)))
    marks = ", ".join("?" * (len(CHAINED_COLUMNS) + 2))
    tamper(
        root, f"INSERT INTO events ({columns}, prev_hash, hash) VALUES ({marks})",
        *values, last, digest,
    )  # fmt: skip


def reordered(root: Path, ids: list[int]) -> None:
    (a,), (b,) = (rows(root, "SELECT payload FROM events WHERE id = ?", i)[0] for i in ids[1:3])
    tamper(root, "UPDATE events SET payload = ? WHERE id = ?", b, ids[1])
    tamper(root, "UPDATE events SET payload = ? WHERE id = ?", a, ids[2])


@pytest.mark.parametrize("forge", [edited, dropped, dropped_last, inserted, reordered])
def test_both_verify_commands_find_an_edit_of_the_contract_s_records(
    repo: Path, forge: object, capsys: pytest.CaptureFixture[str]
) -> None:
    run.start(repo, write_contract(repo), "anthropic/the-builder", "")
    run.advance(repo, "ship-it", "verifying")
    assert cli(repo, "contract", "verify", "ship-it") == 0
    assert cli(repo, "runs", "--verify") == 0
    ids = [event for event, _, _ in ledger_rows(repo)]
    assert len(ids) >= 4
    forge(repo, ids)  # type: ignore[operator]
    capsys.readouterr()
    assert cli(repo, "contract", "verify", "ship-it") == 1
    said = capsys.readouterr().out
    assert any(
        why in said
        for why in ("hash chain is broken", "does not match the run's ledger", "next ledger record")
    ), said
    assert cli(repo, "runs", "--verify") == 1
    with pytest.raises(InputError):
        run.complete(repo, "ship-it")
