"""The dense path's flags (MaskMatch, mask_density, mask_regions) against the positions path.

Dense differences stay one flag per pixel from the kernel to the density and the regions;
every result must be the one the position arrays give, bit for bit.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from argus.diff import _kernel as kernel
from argus.diff import compare, pixelmatch
from argus.diff._antialias import SiblingCounter, mark_antialiased
from argus.diff._density import mask_density, window_density
from argus.diff.regions import changed_regions, mask_regions

from .reference import reference_pixelmatch
from .test_compare import brute_density
from .test_kernel import random_pair

Pair = tuple[np.ndarray, np.ndarray]


def opaque(h: int, w: int, value: int) -> np.ndarray:
    img = np.full((h, w, 4), value, np.uint8)
    img[..., 3] = 255
    return img


def all_differ() -> Pair:
    return opaque(21, 27, 255), opaque(21, 27, 0)


def none_over_threshold() -> Pair:
    return opaque(21, 27, 200), opaque(21, 27, 201)  # every byte differs, no delta counts


def single_pixel() -> Pair:
    a = opaque(21, 27, 250)
    b = a.copy()
    b[10, 13, :3] = 0
    return a, b


def border_frame() -> Pair:
    a = opaque(21, 27, 250)
    b = a.copy()
    b[0, :, :3] = b[-1, :, :3] = b[:, 0, :3] = b[:, -1, :3] = 0
    return a, b


def corners() -> Pair:
    a = opaque(17, 19, 250)
    b = a.copy()
    for y, x in ((0, 0), (0, -1), (-1, 0), (-1, -1)):
        b[y, x, :3] = 0
    return a, b


def disc(h: int, w: int, cx: float, cy: float, r: float) -> np.ndarray:
    """A dark disc on white with a one-pixel anti-aliased edge."""
    yy, xx = np.mgrid[0:h, 0:w]
    cover = np.clip(r - np.hypot(xx - cx, yy - cy) + 0.5, 0.0, 1.0)
    img = opaque(h, w, 0)
    img[..., :3] = (255 * (1 - cover)).astype(np.uint8)[..., None]
    return img


def antialiased_edges() -> Pair:
    return disc(37, 45, 20.0, 18.0, 11.0), disc(37, 45, 21.3, 18.6, 11.0)


def translucent_edges() -> Pair:
    """A white disc drawn in alpha over transparency: its edge is anti-aliased in alpha, so
    the anti-aliasing test blends neighbours of different alphas over the checkerboard."""

    def shape(cx: float, cy: float) -> np.ndarray:
        img = disc(37, 45, cx, cy, 11.0)
        img[..., 3] = 255 - img[..., 0]
        img[..., :3] = 255
        return img

    return shape(20.0, 18.0), shape(21.3, 18.6)


def one_row() -> Pair:
    a = opaque(1, 40, 250)
    b = a.copy()
    b[0, 5:30, :3] = 0
    return a, b


def one_column() -> Pair:
    a = opaque(40, 1, 250)
    b = a.copy()
    b[5:30, 0, :3] = 0
    return a, b


def random_pairs() -> list[Pair]:
    return [random_pair(seed, share, size) for seed in range(4) for share, size in [(0.5, 24)]] + [
        random_pair(7, 0.9, 33),
    ]


ADVERSARIAL: dict[str, Callable[[], Pair]] = {
    "all differ": all_differ,
    "none over the threshold": none_over_threshold,
    "a single pixel": single_pixel,
    "the border": border_frame,
    "the four corners": corners,
    "anti-aliased edges": antialiased_edges,
    "edges anti-aliased in alpha": translucent_edges,
    "one row": one_row,
    "one column": one_column,
}
PAIRS = {**ADVERSARIAL, **{f"random {i}": lambda i=i: random_pairs()[i] for i in range(5)}}
OPTIONS = [{}, {"threshold": 0.0}, {"include_aa": True}, {"checkerboard": False}]


def force(monkeypatch: pytest.MonkeyPatch, flags: bool) -> None:
    """Every pair through the per-run path, its candidates as flags or as positions."""
    monkeypatch.setattr(kernel, "SPARSE_SHARE", 0.0)
    monkeypatch.setattr(kernel, "RUN_GAIN", 0)
    monkeypatch.setattr(kernel, "MASK_SHARE", -1.0 if flags else 2.0)


@pytest.mark.parametrize("name", list(PAIRS))
@pytest.mark.parametrize("opts", OPTIONS, ids=["default", "threshold 0", "with aa", "no cb"])
def test_flags_and_positions_give_the_same_count_and_diff_image(
    monkeypatch: pytest.MonkeyPatch, name: str, opts: dict[str, object]
) -> None:
    a, b = PAIRS[name]()
    results = []
    for flags in (True, False):
        force(monkeypatch, flags)
        found = kernel.match(
            a,
            b,
            threshold=float(opts.get("threshold", 0.1)),  # type: ignore[arg-type]
            include_aa=bool(opts.get("include_aa", False)),
            checkerboard=bool(opts.get("checkerboard", True)),
        )
        out = np.zeros_like(a)
        count = pixelmatch(a, b, out, diff_color_alt=(0, 255, 0), **opts)  # type: ignore[arg-type]
        results.append((found, count, out))
    (flagged, count_f, out_f), (listed, count_p, out_p) = results
    if count_f:  # identical images and no candidates are the same empty Match either way
        assert isinstance(flagged, kernel.MaskMatch)
    assert isinstance(listed, kernel.Match)
    assert count_f == count_p == flagged.mismatch == listed.mismatch
    assert count_f == reference_pixelmatch(a, b, **opts)  # type: ignore[arg-type]
    assert flagged.mismatched().tolist() == listed.mismatched().tolist()
    assert np.array_equal(out_f, out_p)


def test_the_anti_aliased_edges_are_excluded_on_the_flags_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Not a vacuous case: the edge pixels are candidates, and some are anti-aliasing.
    a, b = antialiased_edges()
    force(monkeypatch, True)
    found = kernel.match(a, b, threshold=0.1, include_aa=False, checkerboard=True)
    assert isinstance(found, kernel.MaskMatch)
    assert 0 < np.count_nonzero(found.excluded) < np.count_nonzero(found.candidates)
    assert not (found.excluded & ~found.candidates).any()


@pytest.mark.parametrize("name", list(PAIRS))
@pytest.mark.parametrize("window", [1, 3, 16])
@pytest.mark.parametrize("cell", [8, 5, 1])
def test_compare_gives_the_same_result_on_both_paths(
    monkeypatch: pytest.MonkeyPatch, name: str, window: int, cell: int
) -> None:
    a, b = PAIRS[name]()
    results = []
    for flags in (True, False):
        force(monkeypatch, flags)
        results.append(compare(a, b, window=window, region_cell=cell, diff_image=True))
    flagged, listed = results
    assert (flagged.mismatch, flagged.density, flagged.regions) == (
        listed.mismatch,
        listed.density,
        listed.regions,
    )
    assert flagged.diff_image is not None and listed.diff_image is not None
    assert np.array_equal(flagged.diff_image, listed.diff_image)


def masks() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(28)
    out = {
        "none": np.zeros((21, 27), bool),
        "all": np.ones((21, 27), bool),
        "a single pixel": np.zeros((21, 27), bool),
        "the last pixel": np.zeros((21, 27), bool),
        "the border": np.zeros((21, 27), bool),
        "one row image": rng.random((1, 30)) < 0.5,
        "one column image": rng.random((30, 1)) < 0.5,
        "whole cells": rng.random((32, 40)) < 0.5,
        "last cell row partial": np.zeros((21, 24), bool),
    }
    out["a single pixel"][10, 13] = True
    out["the last pixel"][-1, -1] = True
    border = out["the border"]
    border[0, :] = border[-1, :] = border[:, 0] = border[:, -1] = True
    out["last cell row partial"][20, 3:9] = True
    for seed in range(6):
        h, w = (int(v) for v in rng.integers(1, 40, 2))
        out[f"random {seed}"] = rng.random((h, w)) < rng.random()
    return out


MASKS = masks()


@pytest.mark.parametrize("name", list(MASKS))
@pytest.mark.parametrize("window", [1, 2, 5, 16, 64])
def test_mask_density_is_the_positions_density(name: str, window: int) -> None:
    mask = MASKS[name]
    h, w = mask.shape
    expected = brute_density(mask, window) if mask.any() else 0
    assert mask_density(mask, window) == window_density(np.flatnonzero(mask), w, h, window)
    assert mask_density(mask, window) == expected


@pytest.mark.parametrize("name", list(MASKS))
@pytest.mark.parametrize("cell", [8, 5, 3, 1])
def test_mask_regions_are_the_positions_regions(name: str, cell: int) -> None:
    mask = MASKS[name]
    h, w = mask.shape
    expected = changed_regions(np.flatnonzero(mask), w, h, cell=cell)
    assert mask_regions(mask, cell=cell) == expected
    assert sum(r.pixels for r in expected) == int(mask.sum())
    assert mask_regions(mask, cell=cell, limit=2) == changed_regions(
        np.flatnonzero(mask), w, h, cell=cell, limit=2
    )


def test_mask_density_refuses_a_window_under_one() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        mask_density(np.ones((4, 4), bool), 0)


def test_flags_already_excluded_are_not_tested_again() -> None:
    # A grey column between a black and a white block is anti-aliasing; a lone grey dot in
    # the white block is not (no darker and brighter neighbour), but when the first image's
    # pass already excluded it, the second pass must leave it excluded.
    img = np.zeros((7, 9, 4), dtype=np.uint8)
    img[..., 3] = 255
    img[:, 4, :3] = 128
    img[:, 5:, :3] = 255
    img[3, 7, :3] = 128
    counter = SiblingCounter(img.view(np.uint32).reshape(7, 9))
    candidates = np.zeros(7 * 9, bool)
    column, dot, block = 3 * 9 + 4, 3 * 9 + 7, 3 * 9 + 1
    candidates[[column, 2 * 9 + 4, dot, block]] = True
    excluded = np.zeros(7 * 9, bool)
    mark_antialiased(counter, counter, candidates, True, excluded)
    assert np.flatnonzero(excluded).tolist() == [2 * 9 + 4, column]  # the dot is no slope
    excluded[dot] = True  # as if image 1's pass had excluded it
    mark_antialiased(counter, counter, candidates, True, excluded)
    assert np.flatnonzero(excluded).tolist() == [2 * 9 + 4, column, dot]
    assert not excluded[~candidates].any()


def test_candidates_past_the_mask_share_stay_flags_and_up_to_it_become_positions() -> None:
    # 100 x 100 px of grey: three rows lighter and two darker (500 candidates, exactly the
    # 5 % share), two rows changed under the threshold; long runs, so the per-run path.
    a = opaque(100, 100, 128)
    b = a.copy()
    b[:3, :, :3] = 255
    b[3:5, :, :3] = 0
    b[5:7, :, :3] = 129
    assert kernel.MASK_SHARE * a.shape[0] * a.shape[1] == 500
    found = kernel.match(a, b, threshold=0.1, include_aa=False, checkerboard=True)
    assert isinstance(found, kernel.Match)
    assert found.candidates.tolist() == list(range(500))
    assert found.darker.tolist() == [False] * 300 + [True] * 200
    assert found.mismatch == 500
    b[7, 0, :3] = 255  # one more: past the share, the candidates stay one flag a pixel
    found = kernel.match(a, b, threshold=0.1, include_aa=False, checkerboard=True)
    assert isinstance(found, kernel.MaskMatch)
    assert np.flatnonzero(found.candidates).tolist() == [*range(500), 700]
    assert np.flatnonzero(found.darker).tolist() == list(range(300, 500))
    assert found.mismatch == 501
