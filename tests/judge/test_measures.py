"""The small measuring kernels: assignment, SSIM, layout blocks."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from argus.judge._assignment import assign
from argus.judge._layout import find_blocks, find_regions
from argus.judge._ssim import grey, ssim


def _brute_force(cost: list[list[float]]) -> float:
    rows, cols = len(cost), len(cost[0])
    k = min(rows, cols)
    return min(
        sum(cost[r][c] for r, c in zip(chosen, perm, strict=True))
        for chosen in itertools.combinations(range(rows), k)
        for perm in itertools.permutations(range(cols), k)
    )


def test_assignment_is_optimal_on_random_rectangles() -> None:
    rng = random.Random(7)
    for _ in range(200):
        rows, cols = rng.randint(1, 5), rng.randint(1, 5)
        cost = [[rng.uniform(0, 10) for _ in range(cols)] for _ in range(rows)]
        pairs = assign(cost)
        assert len(pairs) == min(rows, cols)
        assert len({r for r, _ in pairs}) == len({c for _, c in pairs}) == len(pairs)
        assert sum(cost[r][c] for r, c in pairs) == pytest.approx(_brute_force(cost))


def test_assignment_of_nothing() -> None:
    assert assign([]) == []


def test_ssim_of_identical_and_changed_images() -> None:
    rng = np.random.default_rng(1)
    image = rng.integers(0, 256, (64, 80)).astype(np.float64)
    assert ssim(image, image) == 1.0
    assert ssim(image, image + 8) > 0.99  # a brightness shift keeps the structure
    assert ssim(image, rng.permutation(image.ravel()).reshape(image.shape)) < 0.1
    with pytest.raises(ValueError, match="equal sizes"):
        ssim(image, image[:-1])


def test_grey_weights_the_channels_like_luma() -> None:
    pixel = np.array([[[255, 0, 0, 255], [0, 255, 0, 255]]], dtype=np.uint8)
    assert grey(pixel)[0].tolist() == pytest.approx([76.245, 149.685])


def _page() -> np.ndarray:
    page = np.full((200, 300, 4), 245, dtype=np.uint8)
    page[20:60, 20:200] = (255, 255, 255, 255)  # a card
    page[30:40, 30:90] = (20, 20, 20, 255)  # a text line inside it
    page[120:150, 200:280] = (50, 70, 200, 255)  # a button
    return page


def test_layout_finds_regions_and_the_blocks_inside() -> None:
    page = _page()
    regions = find_regions(page)
    assert [(r.box.x, r.box.y, r.box.width, r.box.height) for r in regions] == [
        (20, 20, 180, 40),
        (200, 120, 80, 30),
    ]
    boxes = [(b.box.x, b.box.y, b.box.width, b.box.height) for b in find_blocks(page, regions)]
    assert (30, 30, 60, 10) in boxes
