"""The vectorised kernel: validation, the identical fast path, both evaluation paths."""

from __future__ import annotations

import numpy as np
import pytest

from argus.diff import _kernel as kernel
from argus.diff import pixelmatch
from argus.diff._antialias import SiblingCounter, antialiased
from argus.diff.yiq import color_delta
from argus.errors import InputError

from .conftest import page
from .reference import color_delta as color_delta_ref
from .reference import reference_pixelmatch


def test_different_sizes_are_rejected_naming_both_sizes() -> None:
    with pytest.raises(InputError, match=r"image 1 is 64x48, image 2 is 64x49"):
        pixelmatch(page(64, 48), page(64, 49))


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (np.zeros((4, 4, 3), np.uint8), "H x W x 4 uint8"),
        (np.zeros((4, 4, 4), np.float32), "H x W x 4 uint8"),
        (np.zeros((0, 4, 4), np.uint8), "empty"),
        ([[0, 0, 0, 0]], "expected an H x W x 4 uint8 array"),
    ],
)
def test_malformed_inputs_are_rejected(bad: object, message: str) -> None:
    with pytest.raises(InputError, match=message):
        pixelmatch(bad, np.zeros((4, 4, 4), np.uint8))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("option", "value"),
    [("threshold", 1.5), ("threshold", -0.1), ("alpha", 2.0), ("diff_color", (256, 0, 0))],
)
def test_out_of_range_options_are_rejected(option: str, value: object) -> None:
    with pytest.raises(InputError, match=option):
        pixelmatch(page(), page(), **{option: value})  # type: ignore[arg-type]


def test_output_of_another_size_is_rejected() -> None:
    with pytest.raises(InputError, match="output is 8x8"):
        pixelmatch(page(), page(), np.zeros((8, 8, 4), np.uint8))


def test_identical_images_draw_the_gray_background() -> None:
    img = page()
    output = np.zeros_like(img)
    assert pixelmatch(img, img.copy(), output) == 0
    # Luma faded to 10% over white: the 250 background becomes 254 (255 - 5 * 0.1, truncated).
    assert output[0, 0].tolist() == [254, 254, 254, 255]
    gray = output[5, 10]
    assert gray[0] == gray[1] == gray[2] and 220 < gray[0] < 255 and gray[3] == 255


def test_identical_images_leave_a_diff_mask_untouched() -> None:
    img = page()
    output = np.full_like(img, 7)
    assert pixelmatch(img, img, output, diff_mask=True) == 0
    assert (output == 7).all()


def test_one_changed_pixel_is_counted_and_drawn_red() -> None:
    a = page()
    b = a.copy()
    b[40, 50, :3] = (0, 0, 0)
    output = np.zeros_like(a)
    assert pixelmatch(a, b, output) == 1
    assert output[40, 50].tolist() == [255, 0, 0, 255]


def test_darker_pixels_use_the_alternative_colour() -> None:
    a = page()
    b = a.copy()
    b[40, 50, :3] = (0, 0, 0)  # darker in b
    b[10, 50, :3] = (255, 255, 255)  # lighter in b
    a[10, 50, :3] = (0, 0, 0)
    output = np.zeros_like(a)
    assert pixelmatch(a, b, output, diff_color_alt=(0, 255, 0)) == 2
    assert output[40, 50].tolist() == [0, 255, 0, 255]
    assert output[10, 50].tolist() == [255, 0, 0, 255]


def test_non_contiguous_inputs_are_accepted() -> None:
    a = page()
    b = a.copy()
    b[40, 50, :3] = 0
    assert pixelmatch(a[:, ::-1], b[:, ::-1]) == 1


def random_pair(seed: int, changed_share: float, size: int = 24) -> tuple[np.ndarray, np.ndarray]:
    """Blocky palette images (equal neighbours occur, so anti-aliasing is exercised)."""
    rng = np.random.default_rng(seed)
    palette = rng.integers(0, 256, (5, 4), dtype=np.uint8)
    palette[:3, 3] = 255
    palette[4, 3] = 0
    cells = rng.integers(0, 5, (size // 3, size // 3))
    a = palette[np.kron(cells, np.ones((3, 3), dtype=int))]
    b = a.copy()
    flip = rng.random(a.shape[:2]) < changed_share
    b[flip] = palette[rng.integers(0, 5, int(flip.sum()))]
    noise = rng.random(a.shape[:2]) < changed_share / 2
    b[noise, :3] = np.clip(
        b[noise, :3].astype(int) + rng.integers(-40, 40, (int(noise.sum()), 3)), 0, 255
    )
    return a, b


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("share", [0.02, 0.5])
@pytest.mark.parametrize("path", ["per pixel", "per run"])
@pytest.mark.parametrize(
    "opts",
    [{}, {"threshold": 0.0}, {"include_aa": True}, {"checkerboard": False, "threshold": 0.05}],
)
def test_matches_the_scalar_reference(
    monkeypatch: pytest.MonkeyPatch, seed: int, share: float, path: str, opts: dict[str, object]
) -> None:
    # Force one evaluation path: per changed pixel, or per run of repeated pixel pairs.
    if path == "per run":
        monkeypatch.setattr(kernel, "SPARSE_SHARE", 0.0)
        monkeypatch.setattr(kernel, "RUN_GAIN", 0)
    else:
        monkeypatch.setattr(kernel, "SPARSE_SHARE", 2.0)
    a, b = random_pair(seed, share)
    assert pixelmatch(a, b, **opts) == reference_pixelmatch(a, b, **opts)  # type: ignore[arg-type]


def test_both_paths_draw_the_same_diff_image(monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = random_pair(0, 0.5)
    images = []
    for share, gain in ((2.0, 4), (0.0, 0)):
        monkeypatch.setattr(kernel, "SPARSE_SHARE", share)
        monkeypatch.setattr(kernel, "RUN_GAIN", gain)
        out = np.zeros_like(a)
        pixelmatch(a, b, out, diff_color_alt=(0, 255, 0))
        images.append(out)
    assert np.array_equal(images[0], images[1])


@pytest.mark.parametrize(
    "shape",
    [(0, 4, 4), (4, 0, 4), (0, 0, 4)],
    ids=["0xH", "Hx0", "0x0"],
)
def test_an_image_with_no_pixels_is_refused_not_a_zero_count(shape: tuple[int, ...]) -> None:
    empty = np.zeros(shape, np.uint8)
    with pytest.raises(InputError, match="empty"):
        pixelmatch(empty, empty.copy())
    with pytest.raises(InputError, match="empty"):
        pixelmatch(page(), page(), empty)


def test_a_read_only_output_is_refused_and_left_unchanged() -> None:
    a = page()
    b = a.copy()
    b[40, 50, :3] = 0
    output = np.full_like(a, 7)
    output.flags.writeable = False
    with pytest.raises(InputError, match="writable"):
        pixelmatch(a, b, output)
    assert (output == 7).all()


def test_a_non_contiguous_output_is_refused_not_drawn_into_a_copy() -> None:
    a = page()
    b = a.copy()
    b[40, 50, :3] = 0
    backing = np.full((a.shape[0], a.shape[1] * 2, 4), 7, np.uint8)
    view = backing[:, ::2]  # the right size, but every other pixel of a wider array
    with pytest.raises(InputError, match="C-contiguous"):
        pixelmatch(a, b, view)
    assert (backing == 7).all()


def test_a_writable_output_gets_the_diff_in_place() -> None:
    a = page()
    b = a.copy()
    b[40, 50, :3] = 0
    output = np.full_like(a, 7)
    assert pixelmatch(a, b, output, diff_mask=True) == 1
    assert output[40, 50].tolist() == [255, 0, 0, 255]
    assert int((output != 7).any(axis=2).sum()) == 1


@pytest.mark.parametrize(
    ("value", "ok"),
    [((0, 0, 0), True), ((255, 255, 255), True), ((-1, 0, 0), False), ((0, 0), False)],
)
def test_colour_options_are_three_bytes(value: tuple[int, ...], ok: bool) -> None:
    if ok:
        assert pixelmatch(page(), page(), diff_color=value) == 0
    else:
        with pytest.raises(InputError, match="diff_color"):
            pixelmatch(page(), page(), diff_color=value)


@pytest.mark.parametrize("value", [0.0, 1.0])
def test_fraction_options_accept_their_bounds(value: float) -> None:
    assert pixelmatch(page(), page(), threshold=value, alpha=value) == 0


def test_mismatched_lists_the_counted_pixels_only() -> None:
    a = page()
    b = a.copy()
    b[40, 50, :3] = 0
    b[41, 50, :3] = 0
    found = kernel.match(a, b, threshold=0.1, include_aa=True, checkerboard=True)
    width = a.shape[1]
    assert found.mismatched().tolist() == [40 * width + 50, 41 * width + 50]
    assert found.mismatch == 2


def test_with_anti_aliasing_included_the_diff_is_still_drawn() -> None:
    a = page()
    b = a.copy()
    b[40, 50, :3] = 0
    output = np.zeros_like(a)
    assert pixelmatch(a, b, output, include_aa=True) == 1
    assert output[40, 50].tolist() == [255, 0, 0, 255]


@pytest.mark.parametrize("rows", [1, 40], ids=["per pixel", "per run"])
def test_a_slightly_lighter_pixel_is_not_drawn_as_darker(rows: int) -> None:
    a = np.full((48, 64, 4), 200, np.uint8)
    a[..., 3] = 255
    b = a.copy()
    b[:rows, :, :3] = 201  # one level lighter: a YIQ delta under 1, over a zero threshold
    output = np.zeros_like(a)
    count = pixelmatch(a, b, output, threshold=0.0, include_aa=True, diff_color_alt=(0, 0, 255))
    assert count == rows * 64
    assert output[0, 0].tolist() == [255, 0, 0, 255]


def test_settled_pixels_are_left_out_of_the_anti_aliasing_test() -> None:
    # A grey column between a black and a white block is anti-aliasing; marked settled (the
    # first image already excluded it) it is not tested again, and the others still are.
    img = np.zeros((7, 9, 4), dtype=np.uint8)
    img[..., 3] = 255
    img[:, 4, :3] = 128
    img[:, 5:, :3] = 255
    counter = SiblingCounter(img.view(np.uint32).reshape(7, 9))
    pos = np.array([3 * 9 + 4, 2 * 9 + 4, 3 * 9 + 1], dtype=np.intp)
    assert antialiased(counter, counter, pos, True).tolist() == [True, True, False]
    settled = np.array([True, False, False])
    assert antialiased(counter, counter, pos, True, settled).tolist() == [False, True, False]


@pytest.mark.parametrize("alpha", [255, 200], ids=["opaque (int16 path)", "translucent"])
def test_colour_deltas_are_the_scalar_formula_bit_for_bit(alpha: int) -> None:
    rng = np.random.default_rng(alpha)
    p1 = rng.integers(0, 256, (500, 4), dtype=np.uint8)
    p2 = rng.integers(0, 256, (500, 4), dtype=np.uint8)
    p1[:, 3] = p2[:, 3] = alpha
    p2[:50] = p1[:50]  # equal pixels give a zero delta
    offsets = np.arange(500, dtype=np.intp) * 4
    deltas = color_delta(p1.view(np.uint32)[:, 0], p2.view(np.uint32)[:, 0], offsets, True)
    expected = [color_delta_ref(p1[n], p2[n], n * 4, True) for n in range(500)]
    assert deltas.tolist() == expected
