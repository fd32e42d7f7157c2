"""Sensed files are evidence only when they are all of the last sense, and it succeeded
(argus.evidence.attempt): a failed, unfinished or newer attempt, or files of one attempt beside
the meta.json of another, are refused with one line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from argus.errors import InputError
from argus.evidence.attempt import require_fresh
from argus.sense.attempt import (
    ATTEMPT_FILE,
    add_to_attempt,
    begin_attempt,
    fail_attempt,
    seal_attempt,
)

VIEW = "habits list-populated-light"


def sense(out_dir: Path, render: bytes, *, axe: bool = False) -> None:
    """What a successful sense writes, in its order: the record, the files, meta.json last."""
    attempt = begin_attempt(out_dir)
    (out_dir / "render.png").write_bytes(render)
    (out_dir / "probe.json").write_text(json.dumps({"elements": []}))
    (out_dir / "console.json").write_text(json.dumps({"messages": [], "page_errors": []}))
    if axe:
        (out_dir / "axe.json").write_text(json.dumps({"violations": []}))
    (out_dir / "meta.json").write_text(json.dumps({"version": 1, "view": {}}))
    seal_attempt(out_dir, attempt)


def check(out_dir: Path) -> None:
    require_fresh(out_dir, json.loads((out_dir / "meta.json").read_text()), VIEW)


def test_the_files_of_one_successful_sense_are_fresh(tmp_path: Path) -> None:
    sense(tmp_path, b"first")
    check(tmp_path)
    sense(tmp_path, b"second")  # a newer successful sense replaces the binding
    check(tmp_path)
    record = json.loads((tmp_path / ATTEMPT_FILE).read_text())
    assert (record["attempt"], record["outcome"]) == (2, "ok")


def test_a_failed_sense_after_a_good_one_invalidates_the_files_it_left(tmp_path: Path) -> None:
    sense(tmp_path, b"first")
    attempt = begin_attempt(tmp_path)  # the next sense fails before writing anything
    fail_attempt(tmp_path, attempt, "list-populated-light: step 2 click 'Next':\n nothing changed")
    with pytest.raises(InputError) as caught:
        check(tmp_path)
    message = str(caught.value)
    assert "\n" not in message and VIEW in message
    assert (
        "attempt 2" in message and "failed: list-populated-light: step 2 click 'Next': " in message
    )
    assert "argus gates --sense" in message


def test_a_sense_that_never_finished_invalidates_the_files_it_left(tmp_path: Path) -> None:
    sense(tmp_path, b"first")
    begin_attempt(tmp_path)  # killed mid-way: the record says running, meta.json is older
    with pytest.raises(
        InputError, match=r"meta.json is not from the last sense .*attempt 2, running"
    ):
        check(tmp_path)


def test_a_failure_before_any_attempt_began_is_still_recorded(tmp_path: Path) -> None:
    sense(tmp_path, b"first")
    fail_attempt(tmp_path, None, "the web server did not start")
    with pytest.raises(InputError, match="failed: the web server did not start"):
        check(tmp_path)
    fail_attempt(tmp_path / "never-sensed", None, "x")  # nothing there: nothing to record
    assert not (tmp_path / "never-sensed").exists()


def test_files_of_attempt_n_beside_the_meta_of_attempt_n_plus_1_are_refused(
    tmp_path: Path,
) -> None:
    older = tmp_path / "older"
    sense(tmp_path, b"first")
    shutil.copytree(tmp_path, older)
    sense(tmp_path, b"second")
    shutil.copyfile(older / "render.png", tmp_path / "render.png")
    with pytest.raises(
        InputError, match=r"render.png is not the one its sense wrote \(attempt 2\)"
    ):
        check(tmp_path)
    # and the other way round: attempt 1's meta.json and record beside attempt 2's files
    shutil.copyfile(older / "meta.json", tmp_path / "meta.json")
    shutil.copyfile(older / ATTEMPT_FILE, tmp_path / ATTEMPT_FILE)
    shutil.copyfile(older / "render.png", tmp_path / "render.png")
    (tmp_path / "probe.json").write_text(json.dumps({"elements": [{"tag": "p"}]}))
    with pytest.raises(InputError, match=r"probe.json is not the one its sense wrote"):
        check(tmp_path)


def test_a_missing_or_added_evidence_file_is_refused(tmp_path: Path) -> None:
    sense(tmp_path, b"first", axe=True)
    (tmp_path / "axe.json").unlink()
    with pytest.raises(InputError, match=r"axe.json is missing"):
        check(tmp_path)
    sense(tmp_path, b"second")
    (tmp_path / "focus.json").write_text("{}")
    with pytest.raises(InputError, match=r"focus.json is not written by its sense"):
        check(tmp_path)


def test_files_with_no_record_of_their_sense_are_refused(tmp_path: Path) -> None:
    sense(tmp_path, b"first")
    (tmp_path / ATTEMPT_FILE).unlink()
    with pytest.raises(InputError, match=f"no readable record .*{ATTEMPT_FILE}"):
        check(tmp_path)
    sense(tmp_path, b"again")
    meta = json.loads((tmp_path / "meta.json").read_text())
    del meta["sense"]
    with pytest.raises(InputError, match=r"meta.json is not from the last sense"):
        require_fresh(tmp_path, meta, VIEW)


def test_the_reason_is_given_only_where_a_sensor_recorded_an_attempt(tmp_path: Path) -> None:
    from argus.evidence.attempt import stale_reason

    assert stale_reason(tmp_path, VIEW) is None  # no sensor ever wrote here
    sense(tmp_path, b"first")
    assert stale_reason(tmp_path, VIEW) is None
    fail_attempt(tmp_path, begin_attempt(tmp_path), "the page errored")
    reason = stale_reason(tmp_path, VIEW)
    assert reason is not None and "failed: the page errored" in reason


def _add_controls(out_dir: Path) -> None:
    def write() -> None:
        (out_dir / "controls.json").write_text(json.dumps({"version": 2, "controls": []}))

    add_to_attempt(out_dir, "controls.json", write, {"controls": {"ran": True, "why": "later"}})


def test_evidence_added_after_the_sense_is_bound_to_it(tmp_path: Path) -> None:
    # The loop's deferred probe: controls.json written after the sense, into its seal.
    sense(tmp_path, b"render")
    before = json.loads((tmp_path / "meta.json").read_text())
    _add_controls(tmp_path)
    check(tmp_path)
    meta = json.loads((tmp_path / "meta.json").read_text())
    assert meta["controls"] == {"ran": True, "why": "later"}
    assert meta["sense"]["id"] == before["sense"]["id"]
    assert set(meta["sense"]["files"]) == {*before["sense"]["files"], "controls.json"}
    with pytest.raises(InputError, match=r"recorded controls\.json already"):
        _add_controls(tmp_path)  # added once: a second one is no longer the sense's


def test_evidence_is_never_added_to_files_changed_or_failed_since(tmp_path: Path) -> None:
    sense(tmp_path, b"render")
    (tmp_path / "render.png").write_bytes(b"edited after the sense")
    with pytest.raises(InputError, match="other files changed since"):
        _add_controls(tmp_path)
    assert not (tmp_path / "controls.json").exists()  # nothing written
    sense(tmp_path, b"render")
    fail_attempt(tmp_path, None, "the next sense failed")
    with pytest.raises(InputError, match="not the last successful sense's"):
        _add_controls(tmp_path)
    assert not (tmp_path / "controls.json").exists()
