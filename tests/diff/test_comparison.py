"""argus.diff.comparison: compare's defaults, refusals, diff image and timings; compare_files
and compare_pngs on PNG files."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from argus.diff import comparison, pixelmatch, save_png
from argus.diff.comparison import compare, compare_files, compare_pngs
from argus.errors import InputError

from .conftest import page
from .reference import reference_pixelmatch
from .test_mask_path import antialiased_edges, translucent_edges


def test_compare_defaults_are_pixelmatchs() -> None:
    # Anti-aliasing left out, and translucent pixels blended over the checkerboard.
    a, b = antialiased_edges()
    assert (
        compare(a, b).mismatch
        == reference_pixelmatch(a, b)
        < compare(a, b, include_aa=True).mismatch
    )
    a, b = translucent_edges()
    assert compare(a, b).mismatch == reference_pixelmatch(a, b) == 6
    assert compare(a, b, checkerboard=False).mismatch == 0


def test_compare_groups_regions_in_cells_of_8_by_default() -> None:
    # Two changed pixels 16 px apart: cells 0 and 2 of 8 px (two regions), 0 and 1 of 9 (one).
    a = page()
    b = a.copy()
    b[12, 0, :3] = b[12, 16, :3] = 0
    assert [(r.x, r.width) for r in compare(a, b).regions] == [(0, 1), (16, 1)]
    assert len(compare(a, b, region_cell=9).regions) == 1


def test_compare_draws_anti_aliasing_yellow_and_differences_red_as_pixelmatch() -> None:
    a, b = antialiased_edges()  # a disc moved: lighter, darker and anti-aliased pixels
    expected = np.zeros_like(a)
    pixelmatch(a, b, expected)
    drawn = compare(a, b, diff_image=True).diff_image
    assert drawn is not None and np.array_equal(drawn, expected)
    colours = {tuple(int(c) for c in p) for p in drawn.reshape(-1, 4)}
    assert {(255, 255, 0, 255), (255, 0, 0, 255)} <= colours


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"threshold": 1.5}, "threshold: expected a number from 0 to 1, got 1.5"),
        ({"diff_image": True, "alpha": -0.5}, "alpha: expected a number from 0 to 1, got -0.5"),
    ],
)
def test_a_bad_option_is_refused_naming_it(options: dict[str, object], message: str) -> None:
    with pytest.raises(InputError) as refused:
        compare(page(), page(), **options)  # type: ignore[arg-type]
    assert str(refused.value) == message


def clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """perf_counter in argus.diff.comparison: 100 s, then 1 s more each call than the last."""
    ticks: Iterator[float] = iter(100.0 + sum(range(n + 1)) for n in range(100))
    monkeypatch.setattr(comparison, "time", SimpleNamespace(perf_counter=lambda: next(ticks)))


def test_each_phase_is_timed_in_milliseconds(monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = antialiased_edges()
    clock(monkeypatch)  # 100, 101, 103, 106, 110, 115: the phases take 1, 3 and 5 s
    assert compare(a, b, diff_image=True).timings_ms == {
        "diff": 1000.0,
        "analysis": 3000.0,
        "draw": 5000.0,
    }


def test_files_are_timed_read_decode_and_compare(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    a, b = antialiased_edges()
    save_png(tmp_path / "a.png", a)
    save_png(tmp_path / "b.png", b)
    clock(monkeypatch)  # read 100-101, decode 103-106, diff 110-115, analysis 121-128
    result = compare_files(tmp_path / "a.png", tmp_path / "b.png")
    assert result.timings_ms == {
        "read": 1000.0,
        "decode": 3000.0,
        "diff": 5000.0,
        "analysis": 7000.0,
    }


def test_pngs_of_two_sizes_are_refused_naming_both(tmp_path: Path) -> None:
    save_png(tmp_path / "a.png", page())
    save_png(tmp_path / "b.png", page(32, 48))
    first, second = ((tmp_path / n).read_bytes() for n in ("a.png", "b.png"))
    with pytest.raises(InputError) as refused:
        compare_pngs(first, second, ("a.png", "b.png"))
    assert str(refused.value) == (
        "image sizes do not match: a.png is 64x48, b.png is 32x48; compare renders of the same size"
    )
