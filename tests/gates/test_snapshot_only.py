"""The snapshot gate on a view sensed with --snapshot-only (meta.json says so; no probe.json):
the render is compared without the probe, and a view that needs the probe (masks) is an error,
never a pass. Without that record a missing probe stays an input error."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable

import pytest
from PIL import Image, ImageDraw

from argus.errors import InputError
from argus.gates._snapshot import snapshot_gate
from argus.gates.base import GateInputs, GateStatus
from argus.gates.runner import run_gates
from tests.gates.probes import el, page

MakeInputs = Callable[..., GateInputs]
SNAPSHOT_ONLY = {"evidence": "snapshot-only", "probed": False, "viewport": {"width": 1280}}


def sensed(make: MakeInputs, *, change: bool = False, meta: dict[str, object]) -> GateInputs:
    inputs = make()
    image = Image.new("RGB", (1280, 800), (245, 246, 248))
    if change:
        ImageDraw.Draw(image).rectangle((610, 25, 680, 45), fill=(20, 20, 20))
    image.save(inputs.sensed.render)
    inputs.sensed.meta.write_text(json.dumps(meta), encoding="utf-8")
    return inputs


def status(inputs: GateInputs) -> GateStatus:
    return run_gates(inputs, ["snapshot"], record=False).outcome("snapshot").status


def test_a_snapshot_only_render_is_compared_without_the_probe(habits_inputs: MakeInputs) -> None:
    assert status(sensed(habits_inputs, meta=SNAPSHOT_ONLY)) is GateStatus.NEW
    assert status(sensed(habits_inputs, meta=SNAPSHOT_ONLY)) is GateStatus.PASS
    changed = sensed(habits_inputs, change=True, meta=SNAPSHOT_ONLY)
    assert status(changed) is GateStatus.DIFF


def test_masks_on_a_snapshot_only_render_are_an_error(habits_inputs: MakeInputs) -> None:
    inputs = sensed(habits_inputs, meta=SNAPSHOT_ONLY)
    target = dataclasses.replace(
        inputs.target,
        snapshot=dataclasses.replace(inputs.target.snapshot, masks=("#clock",)),
    )
    outcome = snapshot_gate(dataclasses.replace(inputs, target=target))
    assert outcome.status is GateStatus.ERROR
    assert "--snapshot-only" in outcome.summary


def test_without_the_record_a_missing_probe_is_still_an_input_error(
    habits_inputs: MakeInputs,
) -> None:
    inputs = sensed(habits_inputs, meta={"probed": True, "viewport": {"width": 1280}})
    with pytest.raises(InputError, match=r"probe\.json"):
        snapshot_gate(inputs)


def test_a_probe_beside_the_record_is_read_as_usual(habits_inputs: MakeInputs) -> None:
    broken = sensed(habits_inputs, meta=SNAPSHOT_ONLY)
    broken.sensed.probe.write_text(json.dumps({"elements": "not a list"}), encoding="utf-8")
    refusal = f"{broken.sensed.probe}: 'elements' must be a list"  # the file named
    with pytest.raises(InputError, match=re.escape(refusal)):
        snapshot_gate(broken)
    probe = page(el("span", id="clock", box={"x": 600, "y": 20, "width": 100, "height": 30}))
    broken.sensed.probe.unlink()
    assert status(sensed(habits_inputs, meta=SNAPSHOT_ONLY)) is GateStatus.NEW
    changed = sensed(habits_inputs, change=True, meta=SNAPSHOT_ONLY)
    changed.sensed.probe.write_text(json.dumps(probe), encoding="utf-8")
    outcome = snapshot_gate(changed)
    assert outcome.status is GateStatus.DIFF
    assert outcome.findings[0].element == "#clock"
