"""packet_for_view: the default rubric file in the run directory."""

from __future__ import annotations

import json
from pathlib import Path

from argus.judge.assemble import packet_for_view
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
