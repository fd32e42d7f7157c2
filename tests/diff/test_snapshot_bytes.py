"""Snapshot baselines keep the render's own bytes, and a byte-identical render passes without
being decoded, with the outcome a pixel comparison gives."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from argus.diff import Box, Tolerance, compare_to_baseline, encode_png, load_png
from argus.diff import snapshot as snapshot_module
from argus.errors import InputError

from .conftest import page


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    run = tmp_path / "run"
    run.mkdir()
    return run / "render.png", tmp_path / "__snapshots__" / "home-default-light.png"


def _no_decoding(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("decoded a PNG")

    monkeypatch.setattr(snapshot_module, "decode_png", refuse)
    monkeypatch.setattr(snapshot_module, "load_png", refuse)


def test_a_baseline_without_masks_is_the_renders_bytes(files: tuple[Path, Path]) -> None:
    render, baseline = files
    render.write_bytes(encode_png(page(), compress_level=1))  # not how Argus would encode it
    outcome = compare_to_baseline(render, baseline, Tolerance(), (), "missing")
    assert outcome.written and baseline.read_bytes() == render.read_bytes()


def test_a_baseline_with_masks_is_encoded_with_them_painted(files: tuple[Path, Path]) -> None:
    render, baseline = files
    render.write_bytes(encode_png(page(), compress_level=1))
    outcome = compare_to_baseline(render, baseline, Tolerance(), (Box(0, 0, 8, 8),), "missing")
    assert outcome.written and baseline.read_bytes() != render.read_bytes()
    assert not np.array_equal(load_png(baseline), page())


@pytest.mark.parametrize("mode", ["missing", "changed", "none", "compare", "all"])
def test_identical_bytes_pass_without_decoding_as_a_comparison_would(
    files: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    render, baseline = files
    baseline.parent.mkdir()
    render.write_bytes(encode_png(page()))
    # The same pixels in other bytes take the decoding path: the outcome to match.
    baseline.write_bytes(encode_png(page(), compress_level=1))
    compared = compare_to_baseline(render, baseline, Tolerance(), (), "none")
    assert compared.status == "pass" and compared.mismatch == 0

    baseline.write_bytes(render.read_bytes())
    _no_decoding(monkeypatch)
    same = compare_to_baseline(render, baseline, Tolerance(), (Box(0, 0, 8, 8),), mode)  # type: ignore[arg-type]
    expected = {**compared.to_json(), "action": "updated" if mode == "all" else "none"}
    assert same.to_json() == expected
    assert baseline.read_bytes() == render.read_bytes()


def test_different_bytes_are_still_compared(files: tuple[Path, Path]) -> None:
    render, baseline = files
    baseline.parent.mkdir()
    changed = page()
    changed[40:44, 40:44, :3] = 0
    render.write_bytes(encode_png(changed))
    baseline.write_bytes(encode_png(page()))
    outcome = compare_to_baseline(render, baseline, Tolerance(), (), "none")
    assert outcome.status == "diff" and outcome.mismatch == 16


def _header(width: int, height: int) -> bytes:
    """A PNG signature and IHDR chunk declaring ``width`` x ``height``, and nothing else."""
    whole = encode_png(page(1, 1))
    return whole[:16] + width.to_bytes(4, "big") + height.to_bytes(4, "big") + whole[24:33]


@pytest.mark.parametrize(
    "data",
    [
        _header(64, 48),  # a header and no image: a truncated PNG
        _header(64, 48)[:20],  # shorter than a header
        _header(64, 48)[:24],  # a header cut after its size
        _header(2**31, 2**31) + encode_png(page(1, 1))[33:],  # "whole", but absurdly large
        _header(0, 48) + encode_png(page(1, 1))[33:],  # whole, but no pixels
        _header(64, 0) + encode_png(page(1, 1))[33:],
        b"GIF89a" + encode_png(page())[6:],  # not a PNG signature, an IHDR where a PNG has it
    ],
    ids=["truncated", "short", "header-only", "huge", "no-width", "no-height", "not-png"],
)
def test_identical_bytes_that_are_not_a_whole_png_are_refused_not_passed(
    files: tuple[Path, Path], data: bytes
) -> None:
    # A broken baseline and the same broken render: nothing was ever shown, so not a pass.
    render, baseline = files
    baseline.parent.mkdir()
    render.write_bytes(data)
    baseline.write_bytes(data)
    for mode in ("none", "compare", "all"):
        with pytest.raises(InputError):
            compare_to_baseline(render, baseline, Tolerance(), (), mode)  # type: ignore[arg-type]
    assert baseline.read_bytes() == data


def test_a_one_pixel_render_identical_to_its_baseline_passes_without_decoding(
    files: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    render, baseline = files
    baseline.parent.mkdir()
    for width, height in ((1, 1), (1, 5), (5, 1)):
        render.write_bytes(encode_png(page(width, height)))
        baseline.write_bytes(render.read_bytes())
        with monkeypatch.context() as patch:
            _no_decoding(patch)
            outcome = compare_to_baseline(render, baseline, Tolerance(), (), "none")
        assert (outcome.status, outcome.mismatch) == ("pass", 0)


def test_identical_bytes_are_judged_as_no_change_by_every_tolerance(
    files: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    render, baseline = files
    baseline.parent.mkdir()
    render.write_bytes(encode_png(page()))
    baseline.write_bytes(render.read_bytes())
    _no_decoding(monkeypatch)
    strict = Tolerance(max_diff_pixels=0, max_window_density=0.001, window=4)
    outcome = compare_to_baseline(render, baseline, strict, (), "none")
    assert (outcome.status, outcome.mismatch, outcome.density_ratio) == ("pass", 0, 0.0)
    assert outcome.regions == ()


def test_a_render_over_the_size_cap_is_refused(
    files: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    render, baseline = files
    render.write_bytes(encode_png(page()))
    monkeypatch.setattr(snapshot_module, "MAX_PNG_BYTES", 100)
    with pytest.raises(InputError):
        compare_to_baseline(render, baseline, Tolerance(), (), "missing")
    assert not baseline.exists()
