"""The loop's unchanged-render check: identical, tiny change, real change, size change, none."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from argus.diff import is_unchanged, save_png

from .conftest import page


def test_no_previous_render_is_changed(tmp_path: Path) -> None:
    save_png(tmp_path / "curr.png", page())
    for prev in (None, tmp_path / "missing.png"):
        result = is_unchanged(prev, tmp_path / "curr.png")
        assert (result.unchanged, result.method, result.diff_ratio) == (False, "no-previous", None)


def test_byte_identical_files_are_unchanged(tmp_path: Path) -> None:
    save_png(tmp_path / "a.png", page())
    save_png(tmp_path / "b.png", page())
    result = is_unchanged(tmp_path / "a.png", tmp_path / "b.png")
    assert (result.unchanged, result.method, result.diff_ratio) == (True, "identical-bytes", 0.0)


def test_same_pixels_in_a_different_encoding_are_unchanged(tmp_path: Path) -> None:
    save_png(tmp_path / "a.png", page())
    save_png(tmp_path / "b.png", page(), compress_level=1)
    assert (tmp_path / "a.png").read_bytes() != (tmp_path / "b.png").read_bytes()
    result = is_unchanged(tmp_path / "a.png", tmp_path / "b.png")
    assert (result.unchanged, result.method, result.diff_ratio) == (True, "pixelmatch", 0.0)


def test_a_tiny_change_under_half_a_percent_is_unchanged(tmp_path: Path) -> None:
    prev = page(100, 100)
    curr = prev.copy()
    curr[50, 50:54, :3] = 0  # 4 of 10000 pixels = 0.04%
    save_png(tmp_path / "prev.png", prev)
    save_png(tmp_path / "curr.png", curr)
    result = is_unchanged(tmp_path / "prev.png", tmp_path / "curr.png")
    assert result.unchanged and result.method == "pixelmatch"
    assert result.diff_ratio == 0.0004


def test_a_change_of_half_a_percent_is_changed(tmp_path: Path) -> None:
    prev = page(100, 100)
    curr = prev.copy()
    curr[60:65, 50:60, :3] = 0  # 50 of 10000 pixels = 0.5%
    save_png(tmp_path / "prev.png", prev)
    save_png(tmp_path / "curr.png", curr)
    result = is_unchanged(tmp_path / "prev.png", tmp_path / "curr.png")
    assert not result.unchanged and result.diff_ratio == 0.005


def test_a_size_change_is_always_changed(tmp_path: Path) -> None:
    # Same content, one row taller: no pixel comparison can call this unchanged.
    save_png(tmp_path / "prev.png", page(64, 48))
    save_png(tmp_path / "curr.png", np.concatenate([page(64, 48), page(64, 1)]))
    result = is_unchanged(tmp_path / "prev.png", tmp_path / "curr.png")
    assert (result.unchanged, result.method, result.diff_ratio) == (False, "size-changed", None)
    assert "64x48 to 64x49" in result.detail
