"""The comparison options of a view (argus.gates.comparison): what a person set wins, most
specific first; a threshold nobody set is measured from the view's palette; the masks are the
target's."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from argus.config import ProjectConfig, SnapshotConfig, load_config
from argus.diff import Tolerance
from argus.errors import InputError
from argus.gates.comparison import Comparison, Overrides, comparison_for
from argus.spec import SnapshotSettings, Spec, View, load_spec
from tests.support.habits import HABITS_SPEC, copy_habits

VIEW_OF = ("list", "populated", "light")


@pytest.fixture
def habits(tmp_path: Path) -> tuple[ProjectConfig, Spec, View]:
    root = copy_habits(tmp_path)
    spec = load_spec(root / HABITS_SPEC)
    return load_config(root), spec, View(spec.feature, *VIEW_OF)


def _with(
    config: ProjectConfig, spec: Spec, project: SnapshotConfig, target: SnapshotSettings
) -> tuple[ProjectConfig, Spec]:
    gates = config.gates.model_copy(update={"snapshot": project})
    targets = tuple(replace(t, snapshot=target) if t.id == "list" else t for t in spec.targets)
    return config.model_copy(update={"gates": gates}), replace(spec, targets=targets)


def test_an_unset_threshold_is_measured_from_the_views_palette(
    habits: tuple[ProjectConfig, Spec, View],
) -> None:
    config, spec, view = habits
    found = comparison_for(
        *_with(
            config,
            spec,
            SnapshotConfig(max_diff_pixels=5, window=8),
            SnapshotSettings(masks=("clock",)),
        ),
        view,
    )
    assert found.measured is not None and found.measured.closest_pair is not None
    assert found.tolerance.threshold == found.measured.threshold < Tolerance().threshold
    assert (found.tolerance.max_diff_pixels, found.tolerance.window) == (5, 8)
    assert found.masks == ("clock",)
    assert found.threshold_json()["closest_pair"] == list(found.measured.closest_pair)
    assert "closest palette pair" in found.describe()


@pytest.mark.parametrize(
    ("project", "target", "overrides", "threshold", "pixels"),
    [
        (SnapshotConfig(threshold=0.2), SnapshotSettings(), None, 0.2, 0),
        (SnapshotConfig(), SnapshotSettings(threshold=0.3, max_diff_pixels=9), None, 0.3, 9),
        (SnapshotConfig(threshold=0.2), SnapshotSettings(threshold=0.3), None, 0.3, 0),
        (SnapshotConfig(max_diff_pixels=4), SnapshotSettings(), Overrides(0.05), 0.05, 4),
        (
            SnapshotConfig(threshold=0.2),
            SnapshotSettings(max_diff_pixels=9),
            Overrides(max_diff_pixels=2),
            0.2,
            2,
        ),
    ],
)
def test_what_a_person_set_wins_most_specific_first_and_is_never_measured(
    habits: tuple[ProjectConfig, Spec, View],
    project: SnapshotConfig,
    target: SnapshotSettings,
    overrides: Overrides | None,
    threshold: float,
    pixels: int,
) -> None:
    config, spec, view = habits
    found = comparison_for(*_with(config, spec, project, target), view, overrides=overrides)
    assert found.measured is None
    assert (found.tolerance.threshold, found.tolerance.max_diff_pixels) == (threshold, pixels)
    assert found.threshold_json() == {"threshold": threshold}


def test_without_a_view_or_a_palette_the_threshold_is_pixelmatchs_default(
    habits: tuple[ProjectConfig, Spec, View],
) -> None:
    config, spec, view = habits
    assert comparison_for(config) == Comparison(Tolerance.resolve(config.gates.snapshot))
    assert comparison_for(None) == Comparison()
    sepia = replace(view, appearance="sepia")  # an appearance the tokens do not define
    found = comparison_for(config, spec, sepia)
    assert found.measured is None and found.tolerance.threshold == Tolerance().threshold


def test_unreadable_tokens_are_bad_input_not_the_default_threshold(
    habits: tuple[ProjectConfig, Spec, View],
) -> None:
    config, spec, view = habits
    spec.tokens_path.write_text("{", encoding="utf-8")
    with pytest.raises(InputError, match="tokens"):
        comparison_for(config, spec, view)


def test_masks_are_resolved_through_the_probe_and_scaled_to_the_render(tmp_path: Path) -> None:
    from PIL import Image

    render = tmp_path / "render.png"
    Image.new("RGBA", (80, 20)).save(render)
    probe = {
        "viewport": {"width": 40, "height": 10},
        "elements": [
            {"tag": "div", "id": "clock", "box": {"x": 1, "y": 2, "width": 3, "height": 4}}
        ],
    }
    masked = Comparison(masks=("clock",))
    boxes, scale = masked.masks_on(render, probe)
    assert scale == 2.0 and [(b.x, b.y, b.width, b.height) for b in boxes] == [(1, 2, 3, 4)]
    assert Comparison().masks_on(render, probe) == ((), 1.0)


def test_the_frameworks_preset_masks_join_the_targets_and_go_unreported_when_absent(
    habits: tuple[ProjectConfig, Spec, View], tmp_path: Path
) -> None:
    from PIL import Image

    from argus.frameworks import get_framework

    config, spec, view = habits
    assert comparison_for(config, spec, view).preset_masks == ()
    streamlit = config.model_copy(update={"framework": "streamlit"})
    chosen = comparison_for(streamlit, spec, view)
    assert chosen.preset_masks == get_framework("streamlit").masks
    render = tmp_path / "render.png"
    Image.new("RGBA", (40, 10)).save(render)
    probe = {
        "viewport": {"width": 40, "height": 10},
        "elements": [
            {
                "tag": "div",
                "testid": "stToolbar",
                "box": {"x": 30, "y": 0, "width": 10, "height": 4},
            }
        ],
    }
    declared = Comparison(masks=("clock",), preset_masks=chosen.preset_masks)
    found = declared.mask_boxes(probe)
    # The toolbar is painted over; the presets the page does not show are not reported, the
    # target's own mask that matches nothing still is.
    assert [(b.x, b.y, b.width, b.height) for b in found.boxes] == [(30, 0, 10, 4)]
    assert found.unresolved == ("clock",)
    boxes, _ = Comparison(preset_masks=chosen.preset_masks).masks_on(render, probe)
    assert len(boxes) == 1


def test_every_way_out_keeps_the_targets_masks_and_the_frameworks_presets(
    habits: tuple[ProjectConfig, Spec, View],
) -> None:
    from argus.frameworks import get_framework

    config, spec, view = habits
    preset = get_framework("streamlit").masks
    streamlit = config.model_copy(update={"framework": "streamlit"})
    # No view (an assertion naming no spec target): the presets, no target masks.
    assert comparison_for(streamlit) == Comparison(
        Tolerance.resolve(streamlit.gates.snapshot), None, (), preset
    )
    # A spec without a view, or a view without a spec, is not a view: nothing is measured
    # and no target is read.
    assert comparison_for(streamlit, spec) == comparison_for(streamlit)
    assert comparison_for(streamlit, None, view) == comparison_for(streamlit)
    # A threshold a person set, and an appearance without a palette, keep both kinds of mask.
    for project, shown in (
        (SnapshotConfig(threshold=0.2), view),
        (SnapshotConfig(), replace(view, appearance="sepia")),
    ):
        cfg, spc = _with(streamlit, spec, project, SnapshotSettings(masks=("clock",)))
        found = comparison_for(cfg, spc, shown)
        assert found == Comparison(found.tolerance, None, ("clock",), preset)
        assert found.all_masks == ("clock", *preset)


def test_the_tolerance_in_one_line_names_a_threshold_set_or_defaulted() -> None:
    chosen = Comparison(Tolerance(threshold=0.2, max_diff_pixels=3, max_diff_pixel_ratio=0.01))
    assert chosen.describe() == (
        "threshold 0.2, max_diff_pixels 3, max_diff_pixel_ratio 0.01, "
        f"max_window_density {Tolerance().max_window_density:g}"
    )


@pytest.mark.parametrize(
    ("probe", "width"),
    [
        ({"viewport": {"width": 390, "height": 844}}, 390.0),
        ({"viewport": {"width": 412.5}}, 412.5),
        ({"viewport": {"height": 844}}, 0.0),  # no width recorded
        ({"viewport": {"width": "390"}}, 0.0),  # not a number
        ({"viewport": {"width": True}}, 0.0),  # a bool is not a width
        ({"viewport": {"width": None}}, 0.0),
        ({"viewport": "390x844"}, 0.0),
        ({"elements": []}, 0.0),
        ([{"viewport": {"width": 390}}], 0.0),  # not a probe object
        (None, 0.0),
    ],
)
def test_the_viewport_width_is_the_probes_number_or_0_when_it_does_not_say(
    probe: object, width: float
) -> None:
    from argus.gates.comparison import viewport_width

    found = viewport_width(probe)
    assert found == width and type(found) is float


def test_the_callers_tokens_are_measured_not_the_specs_file_read_again(
    habits: tuple[ProjectConfig, Spec, View],
) -> None:
    from argus.tokens import load_tokens

    config, spec, view = habits
    held = load_tokens(spec.tokens_path)  # a gate's inputs hold the tokens it was given
    spec.tokens_path.write_text("{", encoding="utf-8")
    found = comparison_for(config, spec, view, tokens=held)
    assert found.measured is not None
    assert found.tolerance.threshold == found.measured.threshold < Tolerance().threshold
