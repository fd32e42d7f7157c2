"""Sign-off records: append once per view and run, spot-check approval or a wrong dimension."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from argus.errors import InputError
from argus.loop.records.signoff import (
    SignoffRecord,
    append_raw,
    append_record,
    load_records,
    now_iso,
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


def test_pending_records_of_one_target(tmp_path: Path) -> None:
    path = tmp_path / "signoff.json"
    append_record(path, _record())
    append_record(path, _record(state="empty"))
    other = {**_record(run_id="run-2").to_json(), "target": "detail"}
    assert append_raw(path, other)
    records = load_records(path)
    assert len(pending_records(records)) == 3
    assert [r["state"] for r in pending_records(records, target="list")] == ["populated", "empty"]
    assert [r["target"] for r in pending_records(records, target="detail")] == ["detail"]
    assert pending_records(records, target="missing") == []
    set_spotcheck(path, _View("list", "empty", "light"))
    assert [r["state"] for r in pending_records(load_records(path), "list")] == ["populated"]


def test_spotcheck_keeps_the_note_and_a_utc_time(tmp_path: Path) -> None:
    path = tmp_path / "signoff.json"
    append_record(path, _record())
    before = datetime.now(UTC).replace(microsecond=0)
    checked = set_spotcheck(path, _View("list", "populated", "light"), note="looked right")
    spotcheck = load_records(path)[0]["human_spotcheck"]
    assert spotcheck == checked["human_spotcheck"]
    assert spotcheck["note"] == "looked right"
    when = datetime.fromisoformat(spotcheck["checked_at"])
    assert when.utcoffset() == timedelta(0)  # an explicit UTC offset, never a naive local time
    assert before <= when <= datetime.now(UTC)
    assert "note" not in set_spotcheck(path, _View("list", "populated", "light"))["human_spotcheck"]


def test_now_iso_carries_the_utc_offset() -> None:
    assert datetime.fromisoformat(now_iso()).utcoffset() == timedelta(0)


def test_refusals_name_the_file_and_the_view(tmp_path: Path) -> None:
    path = tmp_path / "signoff.json"
    with pytest.raises(InputError) as refused:
        set_spotcheck(path, _View("list", "empty", "dark"))
    assert str(path) in str(refused.value)
    assert "list-empty-dark" in str(refused.value)
    # a record the schema refuses is never written, and the refusal names the file
    bad = {**_record().to_json(), "iterations": "three"}
    with pytest.raises(InputError) as invalid:
        append_raw(path, bad)
    assert str(invalid.value).startswith(f"{path}: ")
    assert not path.exists()


def test_a_record_says_what_confined_the_implementer_only_when_something_did(
    tmp_path: Path,
) -> None:
    path = tmp_path / "signoff.json"
    confined = SignoffRecord(**{**_record().__dict__, "protection": "sandboxed: bubblewrap"})
    assert confined.to_json()["protection"] == "sandboxed: bubblewrap"
    assert "protection" not in _record().to_json()
    assert "protection" not in SignoffRecord(**{**_record().__dict__, "protection": ""}).to_json()
    append_record(path, confined)
    assert load_records(path)[0]["protection"] == "sandboxed: bubblewrap"


def test_a_file_that_is_not_json_is_named_as_a_sign_off_record(tmp_path: Path) -> None:
    path = tmp_path / "signoff.json"
    path.write_text("{not json")
    with pytest.raises(InputError) as refused:
        load_records(path)
    assert str(refused.value) == (
        f"{path}: sign-off record is not valid JSON "
        "(line 1, column 2: Expecting property name enclosed in double quotes)"
    )
