"""stale_baseline on synthetic images: which changed regions accuse the baseline, not the render."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from argus.color import RGBA, delta_e_2000
from argus.diff.png import save_png
from argus.diff.regions import Region
from argus.gates import _stale_baseline as stale_baseline
from argus.gates._stale_baseline import MAX_REGIONS, flat_colors, stale_regions

PAGE = (245, 246, 248)
INK = (20, 20, 20)
MAGENTA = (200, 30, 200)  # far from every token below
PALETTE = {"page": RGBA(*PAGE), "ink": RGBA(*INK)}
WHOLE = Region(0, 0, 20, 20, 400)


def image(fill: tuple[int, int, int], width: int = 20, height: int = 20) -> npt.NDArray[np.uint8]:
    pixels = np.zeros((height, width, 4), dtype=np.uint8)
    pixels[..., :3] = fill
    pixels[..., 3] = 255
    return pixels


def write(path: Path, pixels: npt.NDArray[np.uint8]) -> Path:
    save_png(path, pixels)
    return path


def pair(
    tmp_path: Path, before: npt.NDArray[np.uint8], after: npt.NDArray[np.uint8]
) -> tuple[Path, Path]:
    return write(tmp_path / "baseline.png", before), write(tmp_path / "render.png", after)


def test_an_off_palette_baseline_under_a_token_render_is_stale(tmp_path: Path) -> None:
    before, after = image(PAGE), image(PAGE)
    before[5:15, 5:15, :3] = MAGENTA  # 100 of 400 pixels: 25 %
    region = Region(5, 5, 10, 10, 100)
    found = stale_regions(*pair(tmp_path, before, after), [region], PALETTE)
    assert len(found) == 1
    (stale,) = found
    assert stale.region == region
    assert stale.color == RGBA(200.0, 30.0, 200.0, 1.0)
    assert stale.nearest == min(PALETTE, key=lambda n: delta_e_2000(RGBA(*MAGENTA), PALETTE[n]))
    assert stale.delta_e == pytest.approx(delta_e_2000(RGBA(*MAGENTA), PALETTE[stale.nearest]))
    assert stale.to_json() == {
        "region": region.to_json(),
        "baseline_color": "#c81ec8",
        "nearest_token": stale.nearest,
        "delta_e": round(stale.delta_e, 2),
    }


def test_the_nearest_token_is_the_closest_one_not_the_first(tmp_path: Path) -> None:
    before = image(MAGENTA)
    after = image(PAGE)
    near = RGBA(185, 35, 185)  # close to magenta, yet 3.3 ΔE away: not a token colour
    palette = {"page": RGBA(*PAGE), "purple": near, "ink": RGBA(*INK)}
    assert delta_e_2000(RGBA(*MAGENTA), near) > stale_baseline.OFF_PALETTE_DELTA_E
    (stale,) = stale_regions(*pair(tmp_path, before, after), [WHOLE], palette)
    assert stale.nearest == "purple"
    assert stale.delta_e == pytest.approx(delta_e_2000(RGBA(*MAGENTA), near))


def test_a_baseline_colour_within_the_delta_e_of_a_token_is_not_stale(tmp_path: Path) -> None:
    off = (248, 246, 248)  # a hair from the page token
    assert delta_e_2000(RGBA(*off), RGBA(*PAGE)) < stale_baseline.OFF_PALETTE_DELTA_E
    assert stale_regions(*pair(tmp_path, image(off), image(PAGE)), [WHOLE], PALETTE) == []


def test_a_render_off_the_palette_there_too_is_a_plain_regression(tmp_path: Path) -> None:
    after = image(PAGE)
    after[:10, :, :3] = (30, 200, 30)  # half the region: flat, and no token
    found = stale_regions(*pair(tmp_path, image(MAGENTA), after), [WHOLE], PALETTE)
    assert found == []


def test_one_finding_per_region_and_only_for_regions_that_accuse_the_baseline(
    tmp_path: Path,
) -> None:
    before = image(PAGE, width=40)
    before[:, :10, :3] = MAGENTA  # region A: two off-palette colours
    before[:, 10:20, :3] = (30, 200, 30)
    after = image(PAGE, width=40)
    a, b = Region(0, 0, 20, 20, 400), Region(20, 0, 20, 20, 400)  # B: same in both
    found = stale_regions(*pair(tmp_path, before, after), [a, b], PALETTE)
    assert [f.region for f in found] == [a]


def test_only_the_first_regions_are_looked_at(tmp_path: Path) -> None:
    count = MAX_REGIONS + 1
    before = image(MAGENTA, width=10 * count, height=10)
    after = image(PAGE, width=10 * count, height=10)
    regions = [Region(10 * i, 0, 10, 10, 100) for i in range(count)]
    found = stale_regions(*pair(tmp_path, before, after), regions, PALETTE)
    assert [f.region for f in found] == regions[:MAX_REGIONS]


def test_nothing_to_say_without_a_palette_regions_or_images_of_one_size(tmp_path: Path) -> None:
    before, after = pair(tmp_path, image(MAGENTA), image(PAGE))
    assert stale_regions(before, after, [WHOLE], {}) == []
    assert stale_regions(before, after, [], PALETTE) == []
    other = write(tmp_path / "small.png", image(PAGE, width=10))
    assert stale_regions(before, other, [WHOLE], PALETTE) == []
    # not even read when there is nothing to hold them against
    missing = tmp_path / "missing.png"
    assert stale_regions(missing, missing, [WHOLE], {}) == []
    assert stale_regions(missing, missing, [], PALETTE) == []


def test_a_flat_colour_covers_a_share_of_the_region_and_a_minimum_of_pixels() -> None:
    pixels = image(PAGE, width=100, height=1)  # 100 pixels: a flat colour needs 16
    pixels[0, :16, :3] = MAGENTA
    pixels[0, 16:31, :3] = INK  # 15 pixels: anti-aliasing, not a flat colour
    colours = flat_colors(pixels)
    assert RGBA(200.0, 30.0, 200.0) in colours
    assert RGBA(245.0, 246.0, 248.0) in colours
    assert RGBA(20.0, 20.0, 20.0) not in colours
    assert len(colours) == 2


def test_the_share_counts_in_a_large_region() -> None:
    pixels = image(PAGE, width=200, height=1)  # 200 pixels: a flat colour needs 30 (15 %)
    pixels[0, :30, :3] = MAGENTA
    pixels[0, 30:59, :3] = INK  # 29: more than 16 pixels, less than 15 %
    colours = flat_colors(pixels)
    assert RGBA(200.0, 30.0, 200.0) in colours
    assert RGBA(20.0, 20.0, 20.0) not in colours


def test_every_channel_of_a_flat_colour_is_read_back() -> None:
    pixels = image((1, 2, 3), width=4, height=4)
    assert flat_colors(pixels) == [RGBA(1.0, 2.0, 3.0, 1.0)]


def test_an_empty_window_has_no_flat_colour() -> None:
    assert flat_colors(np.zeros((0, 5, 4), dtype=np.uint8)) == []


def test_only_the_pixels_inside_a_region_are_held_against_the_palette(tmp_path: Path) -> None:
    before = image(PAGE, width=40, height=40)
    before[:10, :, :3] = MAGENTA  # above the region
    before[:, 20:, :3] = MAGENTA  # right of it
    before[20:, :, :3] = MAGENTA  # below it
    before[:, :10, :3] = MAGENTA  # left of it
    after = image(PAGE, width=40, height=40)
    region = Region(10, 10, 10, 10, 100)  # all page colour in both images
    assert stale_regions(*pair(tmp_path, before, after), [region], PALETTE) == []


def test_a_region_the_render_breaks_does_not_stop_the_next_one_being_looked_at(
    tmp_path: Path,
) -> None:
    before = image(MAGENTA, width=40)
    after = image(PAGE, width=40)
    after[:, :20, :3] = (30, 200, 30)  # the first region's render is off the palette too
    first, second = Region(0, 0, 20, 20, 400), Region(20, 0, 20, 20, 400)
    found = stale_regions(*pair(tmp_path, before, after), [first, second], PALETTE)
    assert [f.region for f in found] == [second]
