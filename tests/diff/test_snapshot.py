"""Snapshot baselines: paths, each --update-snapshots mode, tolerances, masks, diff image."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from argus.diff import (
    Box,
    Tolerance,
    baseline_path,
    compare_to_baseline,
    diff_image_path,
    load_png,
    save_png,
)
from argus.diff.comparison import compare
from argus.errors import InputError

from .conftest import page


def changed(img: np.ndarray, y: int = 40, x: int = 40, size: int = 4) -> np.ndarray:
    out = img.copy()
    out[y : y + size, x : x + size, :3] = 0
    return out


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    run = tmp_path / "run"
    run.mkdir()
    return run / "render.png", tmp_path / "__snapshots__" / "home-default-light.png"


def test_baseline_path_names_the_view_and_platform(tmp_path: Path) -> None:
    spec_dir = tmp_path / "argus" / "specs" / "habits"
    assert baseline_path(spec_dir, "home", "empty", "dark") == (
        spec_dir / "__snapshots__" / "home-empty-dark.png"
    )
    assert baseline_path(spec_dir, "home", "empty", "dark", "linux").name == (
        "home-empty-dark-linux.png"
    )
    with pytest.raises(InputError, match="snapshot name part"):
        baseline_path(spec_dir, "../x", "empty", "dark")


# (mode, baseline before, render) -> (status, action, baseline after)
MODES = [
    ("missing", None, "same", "skip", "written", "render"),
    ("changed", None, "same", "skip", "written", "render"),
    ("all", None, "same", "skip", "written", "render"),
    ("none", None, "same", "diff", "none", None),  # Playwright: a missing snapshot fails
    ("compare", None, "same", "skip", "none", None),  # the loop's mode: compare if present
    ("compare", "old", "same", "pass", "none", "old"),
    ("compare", "old", "changed", "diff", "none", "old"),
    ("missing", "old", "same", "pass", "none", "old"),
    ("missing", "old", "changed", "diff", "none", "old"),
    ("changed", "old", "same", "pass", "none", "old"),
    ("changed", "old", "changed", "diff", "updated", "render"),
    ("all", "old", "same", "pass", "updated", "render"),
    ("all", "old", "changed", "diff", "updated", "render"),
    ("none", "old", "same", "pass", "none", "old"),
    ("none", "old", "changed", "diff", "none", "old"),
]


@pytest.mark.parametrize(("mode", "before", "render", "status", "action", "after"), MODES)
def test_update_modes(
    files: tuple[Path, Path],
    mode: str,
    before: str | None,
    render: str,
    status: str,
    action: str,
    after: str | None,
) -> None:
    render_path, baseline = files
    old = page()
    new = changed(old) if render == "changed" else old.copy()
    # "same" differs by one level in one pixel: below the threshold, so it matches, yet
    # the bytes differ and an overwrite of the baseline is observable.
    new[0, 0, :3] = old[0, 0, :3] - 1
    if before == "old":
        save_png(baseline, old)
    save_png(render_path, new)

    outcome = compare_to_baseline(render_path, baseline, Tolerance(), (), mode)  # type: ignore[arg-type]

    assert (outcome.status, outcome.action) == (status, action)
    assert outcome.written == (action == "written") and outcome.updated == (action == "updated")
    if after is None:
        assert not baseline.exists()
    else:
        assert np.array_equal(load_png(baseline), new if after == "render" else old)


def test_unknown_update_mode_is_an_input_error(files: tuple[Path, Path]) -> None:
    render_path, baseline = files
    save_png(render_path, page())
    with pytest.raises(InputError, match="use one of all, changed, missing, none"):
        compare_to_baseline(render_path, baseline, Tolerance(), (), "sometimes")  # type: ignore[arg-type]


def test_a_diff_saves_the_diff_image_next_to_the_render(files: tuple[Path, Path]) -> None:
    render_path, baseline = files
    save_png(baseline, page())
    save_png(render_path, changed(page()))
    outcome = compare_to_baseline(render_path, baseline, Tolerance(), (), "none")
    assert outcome.status == "diff" and outcome.mismatch == 16
    assert (
        outcome.diff_image
        == diff_image_path(render_path)
        == render_path.with_name("render-diff.png")
    )
    diff = load_png(outcome.diff_image)
    assert diff[41, 41].tolist() == [255, 0, 0, 255]
    assert outcome.regions and outcome.regions[0].pixels == 16

    # A later passing comparison removes the stale diff image.
    save_png(render_path, page())
    again = compare_to_baseline(render_path, baseline, Tolerance(), (), "none")
    assert again.status == "pass" and again.diff_image is None
    assert not diff_image_path(render_path).exists()


def test_size_change_is_a_diff(files: tuple[Path, Path]) -> None:
    render_path, baseline = files
    save_png(baseline, page(64, 48))
    save_png(render_path, page(64, 60))
    outcome = compare_to_baseline(render_path, baseline, Tolerance(), (), "missing")
    assert outcome.status == "diff" and outcome.action == "none"
    assert "baseline 64x48, render 64x60" in outcome.message


def test_masks_hide_a_change_in_both_images_and_reach_the_baseline(
    files: tuple[Path, Path],
) -> None:
    render_path, baseline = files
    save_png(baseline, page())
    save_png(render_path, changed(page()))
    # The change at (40..44, 40..44) image px = (20..22, 20..22) CSS px at a ratio of 2.
    mask = [Box(20, 20, 2, 2)]
    outcome = compare_to_baseline(render_path, baseline, Tolerance(), mask, "none", scale=2.0)
    assert outcome.status == "pass"
    unmasked = compare_to_baseline(render_path, baseline, Tolerance(), mask, "none", scale=1.0)
    assert unmasked.status == "diff"
    # A newly written baseline holds the mask colour, not the volatile content.
    baseline.unlink()
    compare_to_baseline(render_path, baseline, Tolerance(), mask, "missing", scale=2.0)
    assert load_png(baseline)[41, 41].tolist() == [255, 0, 255, 255]


def test_masks_that_newly_hide_much_of_what_the_baseline_shows_are_a_diff(
    files: tuple[Path, Path],
) -> None:
    """A page may put an element matching a mask over the view: both images painted with
    its box, every change under it would pass. Past 5 % of the view newly hidden it is a diff."""
    render_path, baseline = files
    small = [Box(10, 20, 20, 16)]  # over the blue box: 320 of 3072 pixels
    save_png(render_path, page())
    compare_to_baseline(render_path, baseline, Tolerance(), small, "missing")
    save_png(render_path, changed(page(), y=24, x=14))
    assert compare_to_baseline(render_path, baseline, Tolerance(), small, "none").status == "pass"
    grown = [Box(10, 20, 22, 16)]  # 2 px wider: 32 pixels newly hidden, about 1 %
    assert compare_to_baseline(render_path, baseline, Tolerance(), grown, "none").status == "pass"
    # Up to 5 % passes: 153 newly hidden pixels of 3072 (the limit is 153.6); 156 do not.
    edge = [*small, Box(0, 0, 51, 3)]
    assert compare_to_baseline(render_path, baseline, Tolerance(), edge, "none").status == "pass"
    over = [*small, Box(0, 0, 52, 3)]
    assert compare_to_baseline(render_path, baseline, Tolerance(), over, "none").status == "diff"
    cover = [Box(0, 0, 64, 48)]
    save_png(render_path, changed(page(), y=4, x=4, size=8))  # the dark bar changed
    outcome = compare_to_baseline(render_path, baseline, Tolerance(), cover, "none")
    assert (outcome.status, outcome.mismatch) == ("diff", 3072 - 320)
    assert outcome.message.startswith("the masks cover 2752 pixels (89.6% of the view) that")
    assert "update the baseline (--update-snapshots=changed)" in outcome.message
    assert load_png(baseline)[4, 4].tolist() == [20, 20, 20, 255]  # not rewritten
    # Updating on purpose writes the baseline with the masks painted: then it passes.
    compare_to_baseline(render_path, baseline, Tolerance(), cover, "changed")
    assert compare_to_baseline(render_path, baseline, Tolerance(), cover, "none").status == "pass"


# 16 differing pixels in a 4x4 square on a 64x48 page (3072 pixels).
@pytest.mark.parametrize(
    ("tolerance", "passes"),
    [
        (Tolerance(), False),
        (Tolerance(max_diff_pixels=16), True),
        (Tolerance(max_diff_pixels=15), False),
        (Tolerance(max_diff_pixel_ratio=16 / 3072), True),
        (Tolerance(max_diff_pixel_ratio=15 / 3072), False),
        (Tolerance(max_diff_pixels=100, max_diff_pixel_ratio=15 / 3072), False),  # smaller wins
        (Tolerance(max_window_density=1.0, window=4), True),
        (Tolerance(max_window_density=0.5, window=4), False),
        (Tolerance(max_window_density=0.5, window=8), True),  # 16 of 64 in an 8x8 window
        (Tolerance(max_diff_pixels=16, max_window_density=0.5, window=4), False),
        (Tolerance(threshold=1.0), True),
    ],
)
def test_tolerances(tolerance: Tolerance, passes: bool) -> None:
    result = compare(
        page(), changed(page()), threshold=tolerance.threshold, window=tolerance.window
    )
    ok, why = tolerance.judge(result)
    assert ok is passes, why


def test_tolerance_resolves_project_then_target() -> None:
    from argus.config import SnapshotConfig
    from argus.spec import SnapshotSettings

    project = SnapshotConfig(threshold=0.2, max_diff_pixels=5, window=8)
    target = SnapshotSettings(max_diff_pixels=9, max_window_density=0.25)
    assert Tolerance.resolve(project, target) == Tolerance(0.2, 9, 0.0, 0.25, 8)
    assert Tolerance.resolve(None, None) == Tolerance()


def test_the_outcome_is_reported_in_full(files: tuple[Path, Path]) -> None:
    render_path, baseline = files
    save_png(baseline, page())
    save_png(render_path, changed(page()))
    outcome = compare_to_baseline(render_path, baseline, Tolerance(), (), "none")
    (region,) = outcome.regions
    assert outcome.to_json() == {
        "status": "diff",
        "action": "none",
        "baseline": str(baseline),
        "message": outcome.message,
        "diff_image": str(diff_image_path(render_path)),
        "mismatch": 16,
        "ratio": 16 / (64 * 48),
        "density_ratio": outcome.density_ratio,
        "regions": [region.to_json()],
    }
    assert outcome.message and outcome.density_ratio is not None and outcome.density_ratio > 0
    save_png(render_path, page())
    passed = compare_to_baseline(render_path, baseline, Tolerance(), (), "none").to_json()
    assert passed["status"] == "pass" and passed["diff_image"] is None


@pytest.mark.parametrize("mode", ["missing", "changed", "all", "none", "compare"])
def test_every_outcome_names_its_baseline_and_says_why(files: tuple[Path, Path], mode: str) -> None:
    render_path, baseline = files
    save_png(render_path, page())
    missing = compare_to_baseline(render_path, baseline, Tolerance(), (), mode)  # type: ignore[arg-type]
    assert missing.baseline == baseline and missing.message
    save_png(baseline, page(64, 40))
    resized = compare_to_baseline(render_path, baseline, Tolerance(), (), mode)  # type: ignore[arg-type]
    assert resized.baseline == baseline and resized.message


def test_by_default_a_missing_baseline_is_written_and_masks_are_css_pixels(
    files: tuple[Path, Path],
) -> None:
    render_path, baseline = files
    save_png(render_path, changed(page()))
    assert compare_to_baseline(render_path, baseline, Tolerance()).written
    save_png(baseline, page())
    # The change at (40..44, 40..44): a CSS box there hides it at the default scale of 1.
    masked = compare_to_baseline(render_path, baseline, Tolerance(), [Box(40, 40, 4, 4)], "none")
    assert masked.status == "pass"


@pytest.mark.parametrize("mode", ["changed", "all"])
def test_a_size_change_is_rewritten_in_the_modes_that_rewrite(
    files: tuple[Path, Path], mode: str
) -> None:
    render_path, baseline = files
    save_png(baseline, page(64, 48))
    save_png(render_path, page(64, 60))
    outcome = compare_to_baseline(render_path, baseline, Tolerance(), (), mode)  # type: ignore[arg-type]
    assert (outcome.status, outcome.action, outcome.updated) == ("diff", "updated", True)
    assert load_png(baseline).shape == (60, 64, 4)


def test_the_tolerances_threshold_and_window_reach_the_comparison(
    files: tuple[Path, Path],
) -> None:
    render_path, baseline = files
    save_png(baseline, page())
    save_png(render_path, changed(page()))
    # Black on the light page: only a threshold of 1 sees no difference.
    assert compare_to_baseline(render_path, baseline, Tolerance(threshold=1.0)).status == "pass"
    # 16 differing pixels in a 4x4 square: all of a 4x4 window, a quarter of an 8x8 one.
    for window, status in ((4, "diff"), (8, "pass"), (16, "pass")):
        tolerance = Tolerance(max_window_density=0.5, window=window)
        outcome = compare_to_baseline(render_path, baseline, tolerance, (), "none")
        assert outcome.status == status, window
    dense = Tolerance(max_window_density=0.2, window=8)  # 16 / 64 = 25 %: over
    assert compare_to_baseline(render_path, baseline, dense, (), "none").status == "diff"
