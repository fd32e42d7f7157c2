"""packet_for_view: the default rubric file in the run directory."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from argus.judge.assemble import controls_not_run, packet_for_view
from argus.judge.packet import Packet
from argus.schemas.rubric import default_rubric_text
from argus.spec import View, load_spec
from tests.judge.conftest import derived_gate_result, png, small_probe
from tests.support.habits import HABITS_SPEC


def test_the_default_rubric_is_written_once_and_restored_when_changed(habits_root: Path) -> None:
    spec = load_spec(habits_root / HABITS_SPEC)
    assert spec.rubric_path is None  # the example relies on the default rubric
    view = View("habits", "list", "populated", "light")
    sensed = habits_root / "sensed"
    sensed.mkdir()
    png(sensed / "render.png")
    (sensed / "probe.json").write_text(json.dumps(small_probe()), "utf-8")
    gate_result = sensed / "gate-result.json"
    gate_result.write_text(json.dumps(derived_gate_result(spec, view, sensed)), "utf-8")

    def build() -> object:
        packet = packet_for_view(
            spec, view, sensed=sensed, gate_result=gate_result, run_dir=sensed, iteration=1
        )
        return packet.json("rubric")

    wanted = json.loads(default_rubric_text())
    default = sensed / "rubric.default.json"
    assert build() == wanted
    assert default.read_text("utf-8") == default_rubric_text()
    written = default.stat().st_mtime_ns
    assert build() == wanted
    assert default.stat().st_mtime_ns == written  # the same text is not written again
    default.write_text('{"dimensions": []}', "utf-8")  # edited by hand: the default comes back
    assert build() == wanted
    assert default.read_text("utf-8") == default_rubric_text()


def _sensed_view(habits_root: Path, meta: Any) -> tuple[Path, object]:
    spec = load_spec(habits_root / HABITS_SPEC)
    view = View("habits", "list", "populated", "light")
    sensed = habits_root / f"sensed-{len(list(habits_root.glob('sensed-*')))}"
    sensed.mkdir()
    png(sensed / "render.png")
    (sensed / "probe.json").write_text(json.dumps(small_probe()), "utf-8")
    if meta is not None:
        (sensed / "meta.json").write_text(json.dumps(meta), "utf-8")
    gate_result = sensed / "gate-result.json"
    gate_result.write_text(json.dumps(derived_gate_result(spec, view, sensed)), "utf-8")
    packet = packet_for_view(
        spec, view, sensed=sensed, gate_result=gate_result, run_dir=sensed, iteration=1
    )
    return sensed, packet


def test_a_sense_without_the_dead_control_probe_says_so_in_the_packet(habits_root: Path) -> None:
    skipped = {"controls": {"ran": False, "why": "no reader: gates only (argus gates)"}}
    _, packet = _sensed_view(habits_root, skipped)
    assert isinstance(packet, Packet)
    record = packet.json("controls")
    assert record["ran"] is False and record["why"] == "no reader: gates only (argus gates)"
    # meta.json says it ran, yet controls.json is gone: not measured either, never "none dead".
    _, lost = _sensed_view(habits_root, {"controls": {"ran": True, "why": "read by the judge"}})
    assert isinstance(lost, Packet)
    assert "controls.json is missing" in lost.json("controls")["why"]


def test_a_controls_json_the_sense_did_not_run_the_probe_for_is_never_read(
    habits_root: Path,
) -> None:
    # The loop's deferred probe never ran on this iteration (red gates, a kill before it), yet
    # a controls.json is there (an earlier iteration's, forged): the judge abstains on it.
    deferred = {"controls": {"ran": False, "why": "deferred: the loop runs it later"}}
    sensed, _ = _sensed_view(habits_root, deferred)
    ambient = {"measured": True, "effects": [], "requests": []}
    forged = {"version": 2, "url": "x", "found": 0, "limit": 8, "capped": False,
              "ambient": ambient, "controls": []}  # fmt: skip
    (sensed / "controls.json").write_text(json.dumps(forged), "utf-8")
    spec = load_spec(habits_root / HABITS_SPEC)
    view = View("habits", "list", "populated", "light")
    packet = packet_for_view(
        spec, view, sensed=sensed, gate_result=sensed / "gate-result.json", run_dir=sensed,
        iteration=2,
    )  # fmt: skip
    assert isinstance(packet, Packet)
    record = packet.json("controls")
    assert record["ran"] is False and record["controls"] == []
    assert record["why"].startswith("deferred: the loop runs it later; the controls.json")


def test_a_sense_without_the_record_says_the_probe_did_not_run(habits_root: Path) -> None:
    # An adapter, or a sense older than the probe: no controls.json, and nothing says why.
    for meta in (None, {"version": 1, "adapter": "web"}):
        _, packet = _sensed_view(habits_root, meta)
        assert isinstance(packet, Packet)
        assert packet.json("controls") == {
            "version": 1, "ran": False, "controls": [],
            "why": "the sensor wrote no controls.json and records no dead-control probe",
        }  # fmt: skip


def test_a_malformed_or_missing_meta_record(habits_root: Path) -> None:
    assert controls_not_run(habits_root)["ran"] is False  # no meta.json: not run either
    (habits_root / "meta.json").write_text(json.dumps({"controls": "yes"}), "utf-8")
    assert controls_not_run(habits_root) == {
        "version": 1, "ran": False, "why": "meta.json's controls record is malformed",
        "controls": [],
    }  # fmt: skip
