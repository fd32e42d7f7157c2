"""The density and the regions of a few pixels in plain Python (argus.diff._pointstats): the
answers of the numpy modules for the same pixels, ties and the region limit included."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from argus.diff import _pointstats
from argus.diff._density import window_density
from argus.diff.region import Region
from argus.diff.regions import changed_regions


@st.composite
def points(draw: st.DrawFn) -> tuple[list[int], int, int]:
    width, height = draw(st.integers(1, 90)), draw(st.integers(1, 90))
    spread = st.lists(st.integers(0, width * height - 1), max_size=150)
    # Clusters as well as scattered pixels: many small regions, some of the same size.
    cluster = st.lists(
        st.tuples(st.integers(0, width - 1), st.integers(0, height - 1), st.integers(1, 5)),
        max_size=40,
    )
    found = set(draw(spread))
    for x, y, size in draw(cluster):
        found.update(
            (y + dy) * width + x + dx
            for dy in range(size)
            for dx in range(size)
            if x + dx < width and y + dy < height
        )
    return sorted(found), width, height


@settings(max_examples=400, deadline=None)
@given(found=points(), window=st.integers(1, 100), cell=st.sampled_from([8, 8, 1, 3, 16]))
def test_the_numpy_modules_answers(
    found: tuple[list[int], int, int], window: int, cell: int
) -> None:
    positions, width, height = found
    array = np.array(positions, dtype=np.intp)
    assert _pointstats.window_density(positions, width, height, window) == window_density(
        array, width, height, window
    )
    for limit in (100, 3):
        expected = changed_regions(array, width, height, cell=cell, limit=limit)
        assert _pointstats.changed_regions(positions, width, height, cell, limit) == expected


def test_past_the_limit_the_largest_regions_are_kept_in_the_kernels_order() -> None:
    # 150 single pixels, each a region of one pixel: ties everywhere, 100 kept.
    width, height = 400, 400
    rng = np.random.default_rng(3)
    cells = rng.choice(50 * 50, size=150, replace=False)
    positions = sorted(int((c // 50) * 8 * width + (c % 50) * 8) for c in cells)
    regions = _pointstats.changed_regions(positions, width, height)
    assert len(regions) == 100
    assert regions == changed_regions(np.array(positions, dtype=np.intp), width, height)


def test_a_window_must_be_at_least_one_pixel() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        _pointstats.window_density([0], 1, 1, 0)
    assert _pointstats.window_density([], 4, 4, 2) == 0
    assert _pointstats.changed_regions([], 4, 4) == ()


def test_a_region_is_an_immutable_value() -> None:
    region = Region(1, 2, 3, 4, 5)
    assert region == Region(1, 2, 3, 4, 5) != Region(1, 2, 3, 4, 6)
    assert hash(region) == hash(Region(1, 2, 3, 4, 5))
    assert region != (1, 2, 3, 4, 5)
    assert repr(region) == "Region(x=1, y=2, width=3, height=4, pixels=5)"
    assert region.to_json() == {"x": 1, "y": 2, "width": 3, "height": 4, "pixels": 5}
    with pytest.raises(AttributeError, match="cannot assign"):
        region.x = 0  # type: ignore[misc]
    with pytest.raises(AttributeError, match="cannot delete"):
        del region.x


def test_equal_regions_past_the_limit_are_ranked_by_the_kernels_labels() -> None:
    # Two regions of two pixels: X over two cell rows (its cells touch at a corner), Y in
    # between in row-major order. The kernel's union-find roots X at its first run, so X is
    # ranked first among equals and kept at a limit of one.
    width = 64
    positions = [0 * width + 0, 0 * width + 40, 0 * width + 41, 8 * width + 8]
    expected = changed_regions(np.array(positions, dtype=np.intp), width, 16, limit=1)
    assert expected == (Region(0, 0, 9, 9, 2),)
    assert _pointstats.changed_regions(positions, width, 16, limit=1) == expected
