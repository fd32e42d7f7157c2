"""The fast image kernels against their plain definitions, and pictures kept between judge calls."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from argus.config import ProjectConfig
from argus.judge._layout import CELL, _cells, background_color, ink_mask
from argus.judge._ssim import block_mean, grey, grey_block_mean
from argus.judge.metric import MetricJudge
from argus.judge.metric import _context as context_module
from argus.judge.picture import (
    KEPT_PICTURES,
    Picture,
    forget_pictures,
    kept_picture,
    picture_of,
)
from tests.judge.conftest import PacketFactory

RNG = np.random.default_rng(11)


def _plain_ink(image: np.ndarray, ground: tuple[float, float, float], delta: int) -> np.ndarray:
    diff = np.abs(image[..., :3].astype(np.int16) - np.array(ground, dtype=np.int16))
    out: np.ndarray = diff.max(axis=2) > delta
    return out


def _plain_background(image: np.ndarray) -> tuple[int, int, int]:
    flat = image[::2, ::2, :3].reshape(-1, 3).astype(np.uint32)
    packed = (flat[:, 0] << 16) | (flat[:, 1] << 8) | flat[:, 2]
    values, counts = np.unique(packed, return_counts=True)
    top = int(values[int(np.argmax(counts))])
    return ((top >> 16) & 255, (top >> 8) & 255, top & 255)


@pytest.mark.parametrize("ground", [(0, 0, 0), (255, 255, 255), (245, 246, 248), (3, 250, 128.7)])
@pytest.mark.parametrize("delta", [6, 24])
def test_ink_mask_is_any_channel_beyond_delta(ground: tuple[float, ...], delta: int) -> None:
    image = RNG.integers(0, 256, (37, 53, 4), dtype=np.uint8)
    image[::3, ::2, :3] = np.array(ground, dtype=np.int16).astype(np.uint8)  # exact ground too
    g = (ground[0], ground[1], ground[2])
    assert np.array_equal(ink_mask(image, g, delta), _plain_ink(image, g, delta))
    rgb = np.ascontiguousarray(image[..., :3])
    assert np.array_equal(ink_mask(rgb, g, delta), _plain_ink(rgb, g, delta))


def test_background_colour_is_the_mode_with_the_smallest_colour_on_ties() -> None:
    page = np.full((40, 60, 4), 255, dtype=np.uint8)
    page[:20, :, :3] = (245, 246, 248)  # more than half of the sampled pixels: the quick path
    page[20:24] = (10, 10, 10, 255)
    assert background_color(page) == _plain_background(page) == (245, 246, 248)
    noisy = RNG.integers(0, 4, (40, 60, 4), dtype=np.uint8)  # no majority: count everything
    assert background_color(noisy) == _plain_background(noisy)
    tie = np.zeros((4, 4, 4), dtype=np.uint8)
    tie[:2] = (200, 0, 0, 255)
    tie[2:] = (100, 0, 0, 255)  # a tie: the smaller 0xRRGGBB wins
    assert background_color(tie) == _plain_background(tie) == (100, 0, 0)


@pytest.mark.parametrize("shape", [(8, 8), (37, 53), (1, 5), (400, 321)])
def test_cells_mark_any_ink_in_each_cell(shape: tuple[int, int]) -> None:
    mask = RNG.random(shape) > 0.97
    h, w = shape
    padded = np.pad(mask, ((0, -h % CELL), (0, -w % CELL)))
    plain = padded.reshape(padded.shape[0] // CELL, CELL, padded.shape[1] // CELL, CELL)
    assert np.array_equal(_cells(mask), plain.any(axis=(1, 3)))


@pytest.mark.parametrize("factor", [1, 2, 4, 5, 17])
def test_grey_block_mean_is_the_block_mean_of_grey(factor: int) -> None:
    image = RNG.integers(0, 256, (83, 131, 4), dtype=np.uint8)
    ours = grey_block_mean(image, factor)
    plain = block_mean(grey(image), factor)
    assert ours.shape == plain.shape
    assert np.abs(ours - plain).max() < 1e-9


@pytest.fixture
def no_kept_pictures() -> Iterator[None]:
    forget_pictures()
    yield
    forget_pictures()


def test_pictures_are_kept_by_digest_and_the_oldest_goes(no_kept_pictures: None) -> None:
    decoded: list[str] = []

    def decode(name: str) -> np.ndarray:
        decoded.append(name)
        return np.zeros((20, 20, 4), dtype=np.uint8)

    first = picture_of("a", lambda: decode("a"))
    assert picture_of("a", lambda: decode("a")) is first
    assert decoded == ["a"]
    for n in range(KEPT_PICTURES):
        picture_of(f"other-{n}", lambda n=n: decode(f"other-{n}"))
    assert kept_picture("a") is None
    assert kept_picture(f"other-{KEPT_PICTURES - 1}") is not None
    forget_pictures()
    assert kept_picture(f"other-{KEPT_PICTURES - 1}") is None


def test_a_picture_cannot_be_edited() -> None:
    picture = Picture(np.zeros((20, 20, 4), dtype=np.uint8))
    with pytest.raises(ValueError):
        picture.pixels[0, 0, 0] = 1


def test_the_next_judge_call_decodes_only_new_images(
    make_packet: PacketFactory,
    tmp_path: Path,
    no_kept_pictures: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    loads: list[str] = []
    real = context_module.load_png

    def counting(path: Path) -> np.ndarray:
        loads.append(path.name)
        return real(path)

    monkeypatch.setattr(context_module, "load_png", counting)
    judge = MetricJudge(ProjectConfig.model_validate({"root": tmp_path}))
    first = judge.judge(make_packet(reference="human", prev=True, render_button=(120, 60)))
    assert sorted(loads) == ["reference.png", "render.png", "render.prev.png"]
    loads.clear()
    # A second packet of the same files: every picture (and its readings) is reused.
    second = judge.judge(make_packet(reference="human", prev=True, render_button=(120, 60)))
    assert loads == []
    assert second == first
    # A new render is decoded; the reference and the previous render are not.
    judge.judge(make_packet(reference="human", prev=True, render_button=(60, 100)))
    assert loads == ["render.png"]
    loads.clear()
    # A render with the reference's very bytes is the reference's picture.
    judge.judge(make_packet(reference="human", prev=True))
    assert loads == []


def test_a_reference_read_ahead_is_what_the_judge_would_compute(
    no_kept_pictures: None, tmp_path: Path
) -> None:
    from PIL import Image

    from argus.diff.png import load_png
    from argus.judge.picture import kept_picture, warm_picture

    path = tmp_path / "reference.png"
    image = Image.new("RGB", (64, 40), (250, 250, 250))
    image.paste((20, 30, 200), (8, 8, 40, 24))
    image.save(path)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    warm_picture(path)
    kept = kept_picture(digest)
    assert kept is not None and {"layout", "composition"} <= set(vars(kept))
    fresh = Picture(load_png(path))
    assert np.array_equal(kept.pixels, fresh.pixels)
    assert kept.layout == fresh.layout
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"\x89PNG\r\n\x1a\nnot really")
    warm_picture(broken)  # left for the judge to report
    assert kept_picture(hashlib.sha256(broken.read_bytes()).hexdigest()) is None


def test_only_a_judge_that_reads_pictures_here_is_read_ahead_for() -> None:
    from argus.loop.engine.web_services import picture_judge

    class Named:
        def __init__(self, name: str) -> None:
            self.name = name

    assert picture_judge(Named("metric")) and picture_judge(Named("composite"))
    assert not picture_judge(Named("litellm")) and not picture_judge(Named("command"))
