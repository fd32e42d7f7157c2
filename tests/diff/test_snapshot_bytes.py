"""Snapshot baselines keep the render's own bytes, and a byte-identical render passes without
being decoded, with the outcome a pixel comparison gives."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from argus.diff import Box, Tolerance, compare_to_baseline, encode_png, load_png
from argus.diff import snapshot as snapshot_module

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
