"""compare(): ratio, windowed density, regions, optional diff image."""

from __future__ import annotations

import numpy as np
import pytest

from argus.diff import compare, pixelmatch, regions
from argus.diff._density import window_density
from argus.diff.regions import cell_counts, changed_regions
from argus.errors import InputError

from .conftest import page


def brute_density(mask: np.ndarray, n: int) -> int:
    h, w = mask.shape
    wh, ww = min(n, h), min(n, w)
    return max(
        int(mask[y : y + wh, x : x + ww].sum())
        for y in range(h - wh + 1)
        for x in range(w - ww + 1)
    )


@pytest.mark.parametrize("seed", range(20))
def test_density_matches_brute_force(seed: int) -> None:
    rng = np.random.default_rng(seed)
    h, w = (int(v) for v in rng.integers(1, 25, 2))
    n = int(rng.integers(1, 10))
    mask = rng.random((h, w)) < rng.random()
    assert window_density(np.flatnonzero(mask), w, h, n) == brute_density(mask, n)


def test_density_separates_a_cluster_from_scattered_noise() -> None:
    scattered = np.zeros((64, 64), bool)
    scattered[::8, ::8] = True  # 64 pixels, one per 8x8 cell
    cluster = np.zeros((64, 64), bool)
    cluster[10:18, 10:18] = True  # 64 pixels in one square
    assert window_density(np.flatnonzero(scattered), 64, 64, 16) == 4
    assert window_density(np.flatnonzero(cluster), 64, 64, 16) == 64


def test_regions_merge_nearby_pixels_and_separate_distant_ones() -> None:
    mask = np.zeros((100, 200), bool)
    mask[10:12, 10:30] = True
    mask[12, 33] = True  # within a cell of the bar: same region
    mask[80:90, 150:160] = True  # far away: its own region
    regions = changed_regions(np.flatnonzero(mask), 200, 100)
    boxes = [(r.x, r.y, r.width, r.height, r.pixels) for r in regions]
    assert boxes == [(150, 80, 10, 10, 100), (10, 10, 24, 3, 41)]  # largest first


def test_regions_are_capped_largest_first() -> None:
    mask = np.zeros((200, 200), bool)
    mask[::20, ::20] = True
    mask[0:3, 0:3] = True
    regions = changed_regions(np.flatnonzero(mask), 200, 200, limit=5)
    assert len(regions) == 5
    assert regions[0].pixels == 9


def test_compare_reports_count_ratio_density_and_regions() -> None:
    a = page()
    b = a.copy()
    b[40:44, 40:48, :3] = 0
    result = compare(a, b, window=4)
    assert result.mismatch == pixelmatch(a, b) == 32
    assert result.ratio == pytest.approx(32 / (64 * 48))
    assert result.density == 16 and result.density_ratio == 1.0
    assert [(r.x, r.y, r.width, r.height) for r in result.regions] == [(40, 40, 8, 4)]
    assert result.diff_image is None
    assert {"diff", "analysis"} <= set(result.timings_ms)
    assert result.to_json()["regions"][0]["pixels"] == 32


def test_compare_draws_the_same_diff_image_as_pixelmatch() -> None:
    a = page()
    b = a.copy()
    b[40:44, 40:48, :3] = 0
    expected = np.zeros_like(a)
    pixelmatch(a, b, expected)
    result = compare(a, b, diff_image=True)
    assert result.diff_image is not None and np.array_equal(result.diff_image, expected)


def test_compare_rejects_different_sizes() -> None:
    with pytest.raises(InputError, match=r"64x48.*32x48"):
        compare(page(), page(32, 48))


def test_regions_reach_the_right_and_bottom_edges_of_an_odd_sized_image() -> None:
    mask = np.zeros((101, 203), bool)  # neither side a multiple of the 8-pixel cell
    mask[99:101, 200:203] = True  # the last partial cell row and column
    mask[0, 0] = True
    regions = changed_regions(np.flatnonzero(mask), 203, 101)
    boxes = [(r.x, r.y, r.width, r.height, r.pixels) for r in regions]
    assert boxes == [(200, 99, 3, 2, 6), (0, 0, 1, 1, 1)]
    assert window_density(np.flatnonzero(mask), 203, 101, 16) == 6


@pytest.mark.parametrize(
    ("cell", "popcount"), [(8, True), (8, False), (5, True)], ids=["8 bits", "8 summed", "5"]
)
def test_cell_counts_are_the_set_pixels_of_each_cell(
    monkeypatch: pytest.MonkeyPatch, cell: int, popcount: bool
) -> None:
    if not popcount:  # as on numpy 1.26, which has no bitwise_count
        monkeypatch.setattr(regions, "POPCOUNT", None)
    rng = np.random.default_rng(cell)
    mask = rng.random((4 * cell, 6 * cell)) < 0.3
    mask[:cell, :cell] = True  # a full cell
    mask[cell : 2 * cell, :cell] = False  # an empty one
    expected = [
        [int(mask[r * cell : (r + 1) * cell, c * cell : (c + 1) * cell].sum()) for c in range(6)]
        for r in range(4)
    ]
    counts = cell_counts(mask, cell)
    assert counts.tolist() == expected
    assert counts[0, 0] == cell * cell and counts[1, 0] == 0


def test_density_of_a_window_over_65535_pixels_does_not_wrap() -> None:
    # 260 x 260 = 67,600 differing pixels in one window: more than 16 bits hold.
    everything = np.arange(260 * 260, dtype=np.intp)
    assert window_density(everything, 260, 260, 260) == 67_600
    assert window_density(everything, 260, 260, 255) == 65_025
