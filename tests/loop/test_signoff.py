"""Sign-off records: append once per view and run, spot-check approval or a wrong dimension."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from argus.errors import InputError
from argus.loop.signoff import (
    SignoffRecord,
    append_record,
    load_records,
    pending_records,
    set_spotcheck,
)


@dataclass(frozen=True)
class _View:
    target: str
    state: str
    appearance: str


def _record(run_id: str = "run-1", state: str = "populated") -> SignoffRecord:
    return SignoffRecord(
        feature="habits",
        run_id=run_id,
        target="list",
        state=state,
        appearance="light",
        signed_off_at="2026-01-02T03:04:05+00:00",
        iterations=3,
        reference_source="human",
        final_verdict={"all_pass": True, "dimensions": {}},
        snapshot_baseline="argus/specs/habits/__snapshots__/list-populated-light.png",
    )


def test_append_once_per_view_and_run(tmp_path: Path) -> None:
    path = tmp_path / "signoff.json"
    assert append_record(path, _record())
    assert not append_record(path, _record())  # same view, same run: refused
    assert append_record(path, _record(state="empty"))
    assert append_record(path, _record(run_id="run-2"))  # a later run may sign off again
    records = load_records(path)
    assert [(r["run_id"], r["state"]) for r in records] == [
        ("run-1", "populated"),
        ("run-1", "empty"),
        ("run-2", "populated"),
    ]
    assert all(r["human_spotcheck"] == {"status": "pending"} for r in records)
    assert json.loads(path.read_text())["version"] == 1


def test_spotcheck_approved_and_wrong(tmp_path: Path) -> None:
    path = tmp_path / "signoff.json"
    append_record(path, _record())
    append_record(path, _record(state="empty"))
    approved = set_spotcheck(path, _View("list", "populated", "light"))
    assert approved["human_spotcheck"]["status"] == "approved"
    wrong = set_spotcheck(path, _View("list", "empty", "light"), wrong_dimension="hierarchy")
    assert wrong["human_spotcheck"]["status"] == "wrong"
    assert wrong["human_spotcheck"]["wrong_dimension"] == "hierarchy"
    assert pending_records(load_records(path)) == []


def test_spotcheck_of_a_view_never_signed_off(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no sign-off"):
        set_spotcheck(tmp_path / "signoff.json", _View("list", "x", "light"))


def test_a_malformed_file_is_one_line_error(tmp_path: Path) -> None:
    path = tmp_path / "signoff.json"
    path.write_text('{"version": 1, "records": [{"feature": "x"}]}')
    with pytest.raises(InputError, match=r"signoff\.json"):
        load_records(path)
