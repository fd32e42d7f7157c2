from __future__ import annotations

import json
from pathlib import Path

from argus.gates._snapshot import snapshot_gate
from argus.gates.base import GateStatus
from argus.gates.baseline_browser import browser_drift, record_browser, render_browser, sidecar
from tests.gates.test_snapshot import MakeInputs, baseline, gate, snapshot_inputs


def meta(version: str) -> dict[str, object]:
    return {"browser": {"name": "chromium", "version": version, "executable": "/x"}}


def test_a_written_baseline_records_its_browser_and_later_renders_are_compared(
    tmp_path: Path,
) -> None:
    png = tmp_path / "__snapshots__" / "v.png"
    png.parent.mkdir()
    png.write_bytes(b"")
    record_browser(png, meta("150.0.1"))
    assert json.loads(sidecar(png).read_text()) == {"browser": "chromium 150.0.1"}
    assert browser_drift(png, meta("150.0.1")) is None
    note = browser_drift(png, meta("151.0.0"))
    assert note is not None and "chromium 150.0.1" in note and "chromium 151.0.0" in note
    assert browser_drift(png, {}) is None  # a render that names no browser: nothing to say
    record_browser(png, {})  # rewritten from a render without one: the stale record goes
    assert not sidecar(png).exists()


def test_an_unreadable_record_is_said_not_ignored(tmp_path: Path) -> None:
    png = tmp_path / "v.png"
    sidecar(png).write_text("{not json")
    note = browser_drift(png, meta("1"))
    assert note is not None and "unknown" in note


def test_snapshot_gate_says_when_the_baseline_came_from_another_browser(
    habits_inputs: MakeInputs,
) -> None:
    inputs = snapshot_inputs(habits_inputs)
    path = baseline(inputs)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(inputs.sensed.render.read_bytes())
    record_browser(path, meta("149.0.0"))
    inputs.sensed.meta.write_text(json.dumps(meta("150.0.0")))
    outcome = snapshot_gate(inputs)
    assert outcome.status is GateStatus.PASS  # identical pixels still pass ...
    assert "chromium 149.0.0" in outcome.data["browser_drift"]  # ... and the drift is said
    assert "chromium 150.0.0" in outcome.summary
    record_browser(path, meta("150.0.0"))
    assert "browser_drift" not in snapshot_gate(inputs).data


def test_the_record_sits_beside_its_baseline_under_the_documented_name() -> None:
    # docs/sense.md: __snapshots__/NAME.png.browser.json (read back by other tools and people)
    png = Path("__snapshots__") / "view.png"
    assert sidecar(png) == Path("__snapshots__") / "view.png.browser.json"


def test_a_render_names_its_browser_only_with_a_text_name_and_a_text_version() -> None:
    assert render_browser(meta("150.0.1")) == "chromium 150.0.1"
    assert render_browser({"browser": "chromium 150"}) == ""  # not an object
    assert render_browser({"browser": {"name": "chromium", "version": 150}}) == ""
    assert render_browser({"browser": {"name": None, "version": "150.0.1"}}) == ""
    assert render_browser({"browser": {"name": "chromium", "version": ""}}) == ""
    assert render_browser({"browser": {"version": "150.0.1"}}) == ""


def test_writing_a_baseline_without_a_browser_when_none_was_recorded_is_fine(
    tmp_path: Path,
) -> None:
    png = tmp_path / "v.png"
    record_browser(png, {})  # no record to remove: not an error
    assert not sidecar(png).exists()


def test_a_record_of_the_wrong_shape_is_said_like_an_unreadable_one(tmp_path: Path) -> None:
    png = tmp_path / "v.png"
    for forged in ([], ["chromium 1"], {"browser": 150}, {"browser": ""}, {}):
        sidecar(png).write_text(json.dumps(forged))
        assert browser_drift(png, meta("1")) is not None, forged
        assert browser_drift(png, {}) is not None, forged  # unknown whatever the render says
    # and a well-formed record of the same build says nothing
    sidecar(png).write_text(json.dumps({"browser": "chromium 1"}))
    assert browser_drift(png, meta("1")) is None


def test_the_gate_records_the_browser_beside_a_baseline_it_writes(
    habits_inputs: MakeInputs,
) -> None:
    inputs = snapshot_inputs(habits_inputs)
    inputs.sensed.meta.write_text(json.dumps(meta("150.0.0")))
    assert gate(inputs).status is GateStatus.NEW
    assert json.loads(sidecar(baseline(inputs)).read_text()) == {"browser": "chromium 150.0.0"}
