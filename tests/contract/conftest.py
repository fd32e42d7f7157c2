"""A repository with a contract: a mechanical check and a judgment stage graded by a script."""

from __future__ import annotations

import json
import sqlite3
import sys
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

GRADER = """
import json, os, re, sys
prompt = sys.stdin.read()
with open(os.environ["GRADER_LOG"], "a") as fh:
    fh.write(prompt + "\\n=====\\n")
nonce = re.search(r"dispatch nonce: ([0-9a-f]{32})", prompt)
answer = os.environ.get("GRADER_ANSWER", "").replace("@NONCE@", nonce.group(1) if nonce else "")
if answer == "CRASH":
    sys.exit(4)
print(answer)
"""


def write_contract(root: Path, **changes: Any) -> Path:
    grader = root.parent / "grader.py"
    grader.write_text(GRADER, "utf-8")
    contract: dict[str, Any] = {
        "id": "ship-it",
        "name": "Ship the feature",
        "stages": [
            {
                "id": "check",
                "name": "The check passes",
                "type": "mechanical",
                "command": f'{sys.executable} -c "import pathlib,sys; '
                "sys.exit(0 if pathlib.Path('done.txt').exists() else 3)\"",
            },
            {
                "id": "review",
                "name": "Code review",
                "type": "judgment",
                "requires": ["check"],
                "pass_criteria": "done.txt says done",
                "grader": {"command": f"{sys.executable} {grader}", "rounds": 2},
            },
        ],
        "budget": {"max_attempts_per_stage": 2, "max_total_attempts": 5},
        "timeout": 60,
    }
    contract.update(changes)
    path = root / "contract.json"
    path.write_text(json.dumps(contract, indent=2), "utf-8")
    pin_as_the_person(root, path)
    return path


def pin_as_the_person(root: Path, path: Path) -> None:
    """What `argus contract pin PATH` records once a person asked for it."""
    from argus.contract.model import load_contract
    from argus.contract.pins import pin

    pin(root, load_contract(path))


@pytest.fixture(autouse=True)
def _contracts_pinned_by_the_person(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A person pinned every contract a test starts, retargets to or closes, as it is at that
    moment (many tests edit a contract before starting it). The tests of pinning itself
    (``real_pins``) see only the pins they make."""
    if "real_pins" in request.fixturenames:
        return
    from argus.contract import pins

    honest = pins.pin_problem

    def pinned_first(root: Path, contract: Any) -> str | None:
        pins.pin(root, contract)
        return honest(root, contract)

    monkeypatch.setattr(pins, "pin_problem", pinned_first)


@pytest.fixture
def real_pins() -> None:
    """Pins are only what the test itself (or the CLI it runs) records."""


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "argus.toml").write_text('[implementer]\nmodel = "anthropic/the-builder"\n')
    monkeypatch.setenv("GRADER_LOG", str(tmp_path / "grader.log"))
    return root


SUMMARY = """## Summary
The feature is done.

## Stage state
check: passed; review: passed

## Blockers
none

## Failures
none

## Evidence
the check exited 0

## Recommendations
none
"""


def summarize(root: Path, contract_id: str = "ship-it") -> Path:
    """The executor's closure summary for the run as it stands now."""
    from argus.contract import run

    return run.summary_write(root, contract_id, SUMMARY)


# -- the ledger's records in the run store, read and edited as an attacker would ------------


def ledger_rows(root: Path, contract_id: str = "ship-it") -> list[tuple[int, str, dict[str, Any]]]:
    """Each contract record in ``.argus/argus.db``: its event id, run and payload, in order."""
    with closing(sqlite3.connect(root / ".argus" / "argus.db")) as conn:
        rows = conn.execute(
            "SELECT id, run_id, payload FROM events WHERE feature = ? AND kind != 'run_finished'"
            " ORDER BY id",
            (f"contract/{contract_id}",),
        ).fetchall()
    return [(row[0], row[1], json.loads(row[2])) for row in rows]


def tamper(root: Path, sql: str, *params: object) -> None:
    """Run ``sql`` on the store as a hand-run sqlite3 shell would, its append-only triggers
    dropped first (what an attacker with write access does)."""
    with closing(sqlite3.connect(root / ".argus" / "argus.db")) as conn:
        for trigger in ("events_no_update", "events_no_delete", "events_chained"):
            conn.execute(f"DROP TRIGGER IF EXISTS {trigger}")
        conn.execute(sql, params)
        conn.commit()
