from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from argus.errors import InputError
from argus.gates._snapshot import snapshot_gate
from argus.gates.base import GateInputs, GateOutcome, GateStatus
from argus.gates.runner import run_gates
from tests.gates.probes import el, page

MakeInputs = Callable[..., GateInputs]
CLOCK = {"x": 600, "y": 20, "width": 100, "height": 30}


def gate(inputs: GateInputs) -> GateOutcome:
    """The snapshot gate as the runner runs it (a baseline written only from a green view)."""
    return run_gates(inputs, ["snapshot"], record=False).outcome("snapshot")


def snapshot_inputs(make: MakeInputs, *, change: bool = False, **config) -> GateInputs:
    probe = page(
        el("header", id="top", box={"x": 0, "y": 0, "width": 1280, "height": 80}),
        el("span", parent=1, id="clock", text="12:00", box=CLOCK),
    )
    inputs = make(probe=probe)
    image = Image.new("RGB", (1280, 800), (245, 246, 248))
    if change:
        ImageDraw.Draw(image).rectangle((610, 25, 680, 45), fill=(20, 20, 20))
    image.save(inputs.sensed.render)
    if config:
        gates = inputs.config.gates
        snapshot = gates.snapshot.model_copy(update=config)
        cfg = inputs.config.model_copy(
            update={"gates": gates.model_copy(update={"snapshot": snapshot})}
        )
        inputs = dataclasses.replace(inputs, config=cfg)
    return inputs


def baseline(inputs: GateInputs) -> Path:
    return inputs.spec.spec_dir / "__snapshots__" / "list-populated-light.png"


def test_first_run_writes_the_baseline_as_new(habits_inputs: MakeInputs) -> None:
    inputs = snapshot_inputs(habits_inputs)
    outcome = gate(inputs)
    assert outcome.status is GateStatus.NEW
    assert baseline(inputs).is_file()
    assert outcome.data["action"] == "written"


def red_console(inputs: GateInputs) -> GateInputs:
    (inputs.sensed.dir / "console.json").write_text(
        '{"messages": [], "page_errors": [{"text": "boom"}]}', encoding="utf-8"
    )
    return inputs


def test_a_red_view_never_becomes_the_baseline(habits_inputs: MakeInputs) -> None:
    inputs = red_console(snapshot_inputs(habits_inputs))
    run = run_gates(inputs, ["console", "snapshot"], record=False)
    outcome = run.outcome("snapshot")
    assert outcome.status is GateStatus.SKIP
    assert outcome.data["baseline_withheld"] == ["console"]
    assert outcome.summary != outcome.data["message"]  # the withholding is said
    assert "pending_write" not in outcome.data
    assert not baseline(inputs).exists()
    assert run.red_gates == ("console",)


def test_a_red_view_does_not_overwrite_a_baseline_in_changed_mode(
    habits_inputs: MakeInputs,
) -> None:
    gate(snapshot_inputs(habits_inputs))
    before = baseline(snapshot_inputs(habits_inputs)).read_bytes()
    inputs = red_console(snapshot_inputs(habits_inputs, change=True, update="changed"))
    outcome = run_gates(inputs, ["console", "snapshot"], record=False).outcome("snapshot")
    assert outcome.status is GateStatus.DIFF
    assert outcome.data["baseline_withheld"] == ["console"]
    assert baseline(inputs).read_bytes() == before


def test_no_baseline_with_updates_off_is_red_without_writing(habits_inputs: MakeInputs) -> None:
    inputs = snapshot_inputs(habits_inputs, update="none")
    outcome = gate(inputs)
    assert outcome.status is GateStatus.DIFF and "(update mode none)" in outcome.summary
    assert not baseline(inputs).exists()


def test_no_baseline_in_compare_mode_skips_without_writing(habits_inputs: MakeInputs) -> None:
    inputs = snapshot_inputs(habits_inputs, update="compare")
    assert gate(inputs).status is GateStatus.SKIP
    assert not baseline(inputs).exists()


@pytest.mark.parametrize(("platform", "suffix"), [("ci-linux", "ci-linux"), ("auto", sys.platform)])
def test_platform_suffix_names_the_baseline(
    habits_inputs: MakeInputs, platform: str, suffix: str
) -> None:
    inputs = snapshot_inputs(habits_inputs, platform=platform)
    outcome = gate(inputs)
    expected = baseline(inputs).with_name(f"list-populated-light-{suffix}.png")
    assert outcome.data["baseline"] == str(expected) and expected.is_file()
    assert not baseline(inputs).exists()
    # A render compared on another platform does not see this platform's baseline.
    other = snapshot_inputs(habits_inputs, platform="elsewhere", update="none")
    assert gate(other).status is GateStatus.DIFF


def test_unchanged_render_passes(habits_inputs: MakeInputs) -> None:
    inputs = snapshot_inputs(habits_inputs)
    gate(inputs)
    assert gate(inputs).status is GateStatus.PASS


def test_changed_render_diffs_names_the_element_and_writes_the_diff_image(
    habits_inputs: MakeInputs,
) -> None:
    gate(snapshot_inputs(habits_inputs))
    inputs = snapshot_inputs(habits_inputs, change=True)
    outcome = gate(inputs)
    assert outcome.status is GateStatus.DIFF
    assert outcome.findings[0].element == "#clock"
    assert (inputs.sensed.dir / "render-diff.png").is_file()


def test_masked_change_passes(habits_inputs: MakeInputs) -> None:
    gate(snapshot_inputs(habits_inputs))
    inputs = snapshot_inputs(habits_inputs, change=True)
    target = dataclasses.replace(
        inputs.target,
        snapshot=dataclasses.replace(inputs.target.snapshot, masks=("#clock", "#gone")),
    )
    outcome = gate(dataclasses.replace(inputs, target=target))
    assert outcome.status is GateStatus.PASS
    assert outcome.data["masks_unresolved"] == ["#gone"]


def _masked(inputs: GateInputs, *masks: str, recorded: dict[str, object] | None) -> GateInputs:
    """``inputs`` with the target's masks set and probe.json's recorded ``masks`` (None: an
    older probe without them)."""
    if recorded is not None:
        probe = json.loads(inputs.sensed.probe.read_text(encoding="utf-8"))
        inputs.sensed.probe.write_text(json.dumps({**probe, "masks": recorded}), encoding="utf-8")
    snapshot = dataclasses.replace(inputs.target.snapshot, masks=masks)
    return dataclasses.replace(inputs, target=dataclasses.replace(inputs.target, snapshot=snapshot))


def test_a_class_mask_paints_the_boxes_the_sensor_recorded(habits_inputs: MakeInputs) -> None:
    gate(snapshot_inputs(habits_inputs))
    changed = snapshot_inputs(habits_inputs, change=True)
    recorded = {".clock-face": [CLOCK], "main .none": []}
    outcome = gate(_masked(changed, ".clock-face", "main .none", recorded=recorded))
    assert outcome.status is GateStatus.PASS
    assert outcome.data["masks_unresolved"] == ["main .none"]
    # Without the mask the same change is a diff: the pass is the mask's doing.
    assert gate(_masked(changed, recorded=recorded)).status is GateStatus.DIFF


def test_a_class_mask_on_an_older_probe_asks_for_a_fresh_sense(habits_inputs: MakeInputs) -> None:
    gate(snapshot_inputs(habits_inputs))
    changed = snapshot_inputs(habits_inputs, change=True)
    outcome = gate(_masked(changed, "#clock", ".clock-face", recorded=None))
    # Never a pass with the mask dropped: the gate could not run, and says what to do.
    assert outcome.status is GateStatus.ERROR
    assert "'.clock-face'" in outcome.summary and "sense the view again" in outcome.summary
    # The forms the element dump answers still resolve on it.
    assert gate(_masked(changed, "#clock", recorded=None)).status is GateStatus.PASS


def test_missing_render_is_an_input_error(habits_inputs: MakeInputs) -> None:
    inputs = snapshot_inputs(habits_inputs)
    inputs.sensed.render.unlink()
    with pytest.raises(InputError, match=r"render\.png not found"):
        snapshot_gate(inputs)


@pytest.mark.parametrize(("threshold", "status"), [(None, GateStatus.DIFF), (0.1, GateStatus.PASS)])
def test_the_default_threshold_is_measured_from_the_palette(
    habits_inputs: MakeInputs, threshold: float | None, status: GateStatus
) -> None:
    """The page background (#f5f6f8) repainted as the card surface (#ffffff): two neighbouring
    tokens, 0.035 apart in YIQ. Pixelmatch's 0.1 sees nothing; the measured default sees it."""
    inputs = snapshot_inputs(habits_inputs, threshold=threshold)
    assert gate(inputs).status is GateStatus.NEW  # baseline written
    Image.new("RGB", (1280, 800), (255, 255, 255)).save(inputs.sensed.render)
    outcome = gate(inputs)
    assert outcome.status is status
    if threshold is None:
        assert outcome.data["tolerance"]["threshold"] < 0.02
        assert 0.03 < outcome.data["tolerance"]["pair_distance"] < 0.05
    else:
        assert outcome.data["tolerance"] == {"threshold": 0.1}


MAGENTA = (200, 30, 200)  # no token of the Habits palette is anywhere near it


def _page(block: tuple[int, int, int] | None) -> Image.Image:
    image = Image.new("RGB", (1280, 800), (245, 246, 248))  # the page background token
    if block is not None:
        ImageDraw.Draw(image).rectangle((100, 100, 300, 200), fill=block)
    return image


def test_a_baseline_that_breaks_the_tokens_is_called_stale(habits_inputs: MakeInputs) -> None:
    inputs = snapshot_inputs(habits_inputs)
    baseline(inputs).parent.mkdir(parents=True, exist_ok=True)
    _page(MAGENTA).save(baseline(inputs))  # a defect saved as the baseline
    _page(None).save(inputs.sensed.render)  # the fixed render: token colours only
    outcome = gate(inputs)
    assert outcome.status is GateStatus.DIFF
    (stale,) = outcome.data["stale_baseline"]
    assert stale["baseline_color"] == "#c81ec8"
    assert outcome.findings[0].property == "stale_baseline"
    assert (outcome.findings[0].element, outcome.findings[0].value) == ("baseline", "#c81ec8")
    assert outcome.findings[0].expected  # what it should have been: a token colour
    # the plain diff's summary, and that the baseline may be stale after it
    assert outcome.summary.startswith(outcome.data["message"])
    assert len(outcome.summary) > len(outcome.data["message"])
    assert "--update-snapshots changed" in outcome.findings[0].message
    assert outcome.data["stale_baseline_accept"][1].endswith("--appearance light --baseline")


def test_a_render_that_breaks_the_tokens_is_a_plain_regression(habits_inputs: MakeInputs) -> None:
    inputs = snapshot_inputs(habits_inputs)
    baseline(inputs).parent.mkdir(parents=True, exist_ok=True)
    _page(None).save(baseline(inputs))
    _page(MAGENTA).save(inputs.sensed.render)
    outcome = gate(inputs)
    assert outcome.status is GateStatus.DIFF
    assert "stale_baseline" not in outcome.data
    assert outcome.summary == outcome.data["message"]
    assert all(f.property != "stale_baseline" for f in outcome.findings)


def test_the_targets_own_tolerance_reaches_the_comparison(habits_inputs: MakeInputs) -> None:
    gate(snapshot_inputs(habits_inputs))
    inputs = snapshot_inputs(habits_inputs, change=True)  # 71 x 21 = 1491 pixels change
    settings = dataclasses.replace(inputs.target.snapshot, max_diff_pixels=2000, threshold=0.3)
    target = dataclasses.replace(inputs.target, snapshot=settings)
    outcome = gate(dataclasses.replace(inputs, target=target))
    assert outcome.status is GateStatus.PASS
    assert outcome.data["tolerance"] == {"threshold": 0.3}


def test_masks_are_placed_at_the_renders_device_pixel_ratio(habits_inputs: MakeInputs) -> None:
    inputs = snapshot_inputs(habits_inputs)
    Image.new("RGB", (2560, 1600), (245, 246, 248)).save(inputs.sensed.render)  # a 2x render
    gate(inputs)
    image = Image.new("RGB", (2560, 1600), (245, 246, 248))
    ImageDraw.Draw(image).rectangle((1220, 50, 1360, 90), fill=(20, 20, 20))  # under #clock
    image.save(inputs.sensed.render)
    target = dataclasses.replace(
        inputs.target, snapshot=dataclasses.replace(inputs.target.snapshot, masks=("#clock",))
    )
    outcome = gate(dataclasses.replace(inputs, target=target))
    assert outcome.status is GateStatus.PASS and outcome.data["scale"] == 2.0


def test_a_pass_within_the_tolerance_is_never_called_stale(habits_inputs: MakeInputs) -> None:
    inputs = snapshot_inputs(habits_inputs, max_diff_pixels=100_000)
    baseline(inputs).parent.mkdir(parents=True, exist_ok=True)
    _page(MAGENTA).save(baseline(inputs))
    _page(None).save(inputs.sensed.render)
    outcome = gate(inputs)
    assert outcome.status is GateStatus.PASS and outcome.data["regions"]
    assert "stale_baseline" not in outcome.data


def test_the_gate_measures_its_threshold_from_the_tokens_it_was_given(
    habits_inputs: MakeInputs,
) -> None:
    """The tokens are read once, into the gate's inputs: a tokens file gone by the time the
    gate runs changes nothing (the threshold is still measured from the inputs' palette)."""
    inputs = snapshot_inputs(habits_inputs)
    inputs.spec.tokens_path.unlink()
    outcome = gate(inputs)
    assert outcome.status is GateStatus.NEW
    assert outcome.data["tolerance"]["threshold"] < 0.02
    assert 0.03 < outcome.data["tolerance"]["pair_distance"] < 0.05
