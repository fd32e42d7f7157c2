"""pixelmatch 7.2.0, vectorised: count the pixels two same-sized RGBA images differ in.

Same options, defaults, mismatch count and diff image as the JavaScript original
(https://github.com/mapbox/pixelmatch, ISC): a YIQ colour delta against a threshold,
anti-aliased pixels excluded after Vyšniauskas (2009), and a diff image drawing unchanged
pixels as faded grayscale, differences red (or an alternative colour where the second image
is darker) and anti-aliasing yellow. Work is done only on the pixels whose bytes differ.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from argus.diff._antialias import MAP_SHARE, SiblingCounter, antialiased, mark_antialiased
from argus.diff._runs import run_lengths, run_starts
from argus.diff.arrays import U8, U32, Index, Mask
from argus.diff.yiq import MAX_YIQ_DELTA, channels, color_delta, gray_values
from argus.errors import InputError

Color = tuple[int, int, int]

# Below this share of changed pixels, work on the changed pixels one by one; above it, on
# runs of repeated pixel pairs (screenshots are mostly flat colour).
SPARSE_SHARE = 1 / 16
# ... and only when that makes at least this many times fewer evaluations.
RUN_GAIN = 4
# Above this share of candidates (the share at which the anti-aliasing test reads whole-image
# maps anyway), the per-run path keeps them as one flag per pixel (MaskMatch).
MASK_SHARE = MAP_SHARE


def describe_size(img: npt.NDArray[np.generic]) -> str:
    return f"{img.shape[1]}x{img.shape[0]}" if img.ndim >= 2 else f"shape {img.shape}"


def check_image(img: object, name: str) -> U8:
    """An H x W x 4 uint8 C-contiguous array, or an InputError saying what is wrong."""
    if not isinstance(img, np.ndarray):
        raise InputError(f"{name}: expected an H x W x 4 uint8 array, got {type(img).__name__}")
    if img.dtype != np.uint8 or img.ndim != 3 or img.shape[2] != 4:
        raise InputError(
            f"{name}: expected an H x W x 4 uint8 RGBA array, got {img.dtype} {img.shape}"
        )
    if img.shape[0] == 0 or img.shape[1] == 0:
        raise InputError(f"{name}: image is empty ({describe_size(img)})")
    checked: U8 = np.ascontiguousarray(img)
    return checked


def check_same_size(a: U8, b: U8, name_a: str = "image 1", name_b: str = "image 2") -> None:
    if a.shape != b.shape:
        raise InputError(
            f"image sizes do not match: {name_a} is {describe_size(a)}, "
            f"{name_b} is {describe_size(b)}; compare renders of the same size"
        )


def check_color(value: Sequence[int], name: str) -> Color:
    if len(value) != 3 or not all(isinstance(c, int | np.integer) and 0 <= c <= 255 for c in value):
        raise InputError(f"{name}: expected three integers 0-255, got {list(value)!r}")
    return (int(value[0]), int(value[1]), int(value[2]))


def check_fraction(value: float, name: str) -> float:
    if not 0.0 <= value <= 1.0:
        raise InputError(f"{name}: expected a number from 0 to 1, got {value!r}")
    return float(value)


def pixel_value(rgba: Sequence[int]) -> np.uint32:
    """RGBA bytes as the uint32 they read as (native byte order)."""
    value: np.uint32 = np.array(rgba, dtype=np.uint8).view(np.uint32)[0]
    return value


def opaque_value(rgb: Color) -> np.uint32:
    return pixel_value((*rgb, 255))


def draw_gray(flat1: U32, out: U32, alpha: float) -> None:
    """Paint every pixel of ``out`` as image 1's faded grayscale, computed once per run."""
    starts = run_starts(flat1)
    gray = gray_values(flat1[starts], alpha).astype(np.uint32)
    # gray level g as the opaque pixel (g, g, g, 255)
    values = gray * pixel_value((1, 1, 1, 0)) | pixel_value((0, 0, 0, 255))
    out[:] = np.repeat(values, run_lengths(starts, flat1.size))


def candidates_sparse(
    flat1: U32, flat2: U32, changed: Index, max_delta: float, checkerboard: bool
) -> tuple[Index, Mask]:
    """Changed pixels over the threshold, and which of them are darker in image 2."""
    delta = color_delta(flat1[changed], flat2[changed], changed * 4, checkerboard)
    over = np.abs(delta) > max_delta
    darker: Mask = delta[over] < 0
    return changed[over], darker


def pair_runs(flat1: U32, flat2: U32, checkerboard: bool) -> Index:
    """Starts of runs of repeated (pixel 1, pixel 2) pairs, over which the YIQ delta is
    constant. The checkerboard background depends on the position, so with it every
    semi-transparent pixel is a run of its own."""
    split = None
    if checkerboard:
        translucent = (channels(flat1)[:, 3] & channels(flat2)[:, 3]) < 255
        split = translucent if translucent.any() else None
    return run_starts(flat1, flat2, split=split)


def candidates_by_run(
    flat1: U32, flat2: U32, starts: Index, max_delta: float, checkerboard: bool
) -> tuple[Mask, Mask]:
    """As candidates_sparse, computing the delta once per run of repeated pixel pairs, as
    one flag per pixel: over the threshold, and over it and darker in image 2."""
    lengths = run_lengths(starts, flat1.size)
    delta = color_delta(flat1[starts], flat2[starts], starts * 4, checkerboard)
    over = np.abs(delta) > max_delta
    darker = over & (delta < 0)
    return np.repeat(over, lengths), np.repeat(darker, lengths)


@dataclass(frozen=True)
class Match:
    """Where two images differ: candidates over the threshold (flat pixel positions), which
    of them are darker in image 2, and which are excluded as anti-aliasing."""

    candidates: Index
    darker: Mask
    excluded: Mask

    @property
    def mismatch(self) -> int:
        return int(self.candidates.size - np.count_nonzero(self.excluded))

    def mismatched(self) -> Index:
        """Flat positions of the counted (not anti-aliased) differing pixels."""
        positions: Index = self.candidates[~self.excluded]
        return positions


@dataclass(frozen=True)
class MaskMatch:
    """As Match, with one flag per image pixel (flat) instead of positions: for dense
    differences, where a position array and its gathers and scatters cost more than
    whole-image flags. ``darker`` and ``excluded`` are set only on candidates."""

    candidates: Mask
    darker: Mask
    excluded: Mask

    @property
    def mismatch(self) -> int:
        return int(np.count_nonzero(self.candidates) - np.count_nonzero(self.excluded))

    def mismatched_mask(self) -> Mask:
        """The counted (not anti-aliased) differing pixels, one flag per pixel."""
        counted: Mask = self.candidates & ~self.excluded
        return counted

    def mismatched(self) -> Index:
        positions: Index = np.flatnonzero(self.mismatched_mask())
        return positions


NO_MATCH = Match(np.empty(0, np.intp), np.empty(0, bool), np.empty(0, bool))


def match(
    a: U8, b: U8, *, threshold: float, include_aa: bool, checkerboard: bool
) -> Match | MaskMatch:
    """The comparison itself, on validated same-sized C-contiguous RGBA arrays."""
    height, width = a.shape[:2]
    a32 = a.view(np.uint32).reshape(height, width)
    b32 = b.view(np.uint32).reshape(height, width)
    flat1 = a32.reshape(-1)
    flat2 = b32.reshape(-1)

    # Only pixels whose bytes differ can differ at all; none means identical images.
    changed_mask = flat1 != flat2
    n_changed = int(np.count_nonzero(changed_mask))
    if n_changed == 0:
        return NO_MATCH

    # Squared YIQ distance of each changed pixel; over the threshold it is a candidate.
    max_delta = MAX_YIQ_DELTA * threshold * threshold
    # Many changed pixels in long runs (flat UI colour): once per run. Otherwise (few
    # changes, or photo-like content where runs are short): once per changed pixel.
    starts = None
    if n_changed >= SPARSE_SHARE * flat1.size:
        starts = pair_runs(flat1, flat2, checkerboard)
    if starts is not None and starts.size * RUN_GAIN < n_changed:
        over, over_darker = candidates_by_run(flat1, flat2, starts, max_delta, checkerboard)
        # Many candidates stay flags (MaskMatch); a few become positions.
        if np.count_nonzero(over) > MASK_SHARE * flat1.size:
            return mask_match(a32, b32, over, over_darker, include_aa, checkerboard)
        candidates = np.flatnonzero(over)
        darker = over_darker[candidates]
    else:
        changed = np.flatnonzero(changed_mask)
        candidates, darker = candidates_sparse(flat1, flat2, changed, max_delta, checkerboard)

    # A candidate that is anti-aliasing in either image is excluded (drawn, not counted).
    excluded = np.zeros(candidates.size, dtype=bool)
    if not include_aa and candidates.size:
        count_a = SiblingCounter(a32)
        count_b = SiblingCounter(b32)
        excluded = antialiased(count_a, count_b, candidates, checkerboard)
        excluded |= antialiased(count_b, count_a, candidates, checkerboard, settled=excluded)
    return Match(candidates, darker, excluded)


def mask_match(
    a32: U32, b32: U32, candidates: Mask, darker: Mask, include_aa: bool, checkerboard: bool
) -> MaskMatch:
    """The anti-aliasing exclusion on candidate flags: image 1's test, then image 2's on
    the candidates image 1 did not exclude."""
    excluded = np.zeros(candidates.size, dtype=bool)
    if not include_aa:
        count_a = SiblingCounter(a32)
        count_b = SiblingCounter(b32)
        mark_antialiased(count_a, count_b, candidates, checkerboard, excluded)
        mark_antialiased(count_b, count_a, candidates, checkerboard, excluded)
    return MaskMatch(candidates, darker, excluded)


def draw_diff(
    found: Match | MaskMatch, out32: U32, aa_rgb: Color | None, diff_rgb: Color, alt_rgb: Color
) -> None:
    """Colour the candidates: anti-aliasing (unless ``aa_rgb`` is None), then differences."""
    if isinstance(found, MaskMatch):
        if aa_rgb is not None:
            np.copyto(out32, opaque_value(aa_rgb), where=found.excluded)
        real = found.mismatched_mask()
        np.copyto(out32, opaque_value(alt_rgb), where=real & found.darker)
        np.copyto(out32, opaque_value(diff_rgb), where=real & ~found.darker)
        return
    if aa_rgb is not None:
        out32[found.candidates[found.excluded]] = opaque_value(aa_rgb)
    real = ~found.excluded
    out32[found.candidates[real & found.darker]] = opaque_value(alt_rgb)
    out32[found.candidates[real & ~found.darker]] = opaque_value(diff_rgb)


def pixelmatch(
    img1: U8,
    img2: U8,
    output: U8 | None = None,
    *,
    threshold: float = 0.1,
    include_aa: bool = False,
    alpha: float = 0.1,
    aa_color: Sequence[int] = (255, 255, 0),
    diff_color: Sequence[int] = (255, 0, 0),
    diff_color_alt: Sequence[int] | None = None,
    diff_mask: bool = False,
    checkerboard: bool = True,
) -> int:
    """Number of mismatched pixels between two H x W x 4 uint8 RGBA images.

    ``output``, when given, is an H x W x 4 uint8 array the diff image is drawn into: image 1
    as faded grayscale, anti-aliasing in ``aa_color``, differences in ``diff_color`` (or
    ``diff_color_alt`` where image 2 is darker). With ``diff_mask`` only the differences are
    written and every other pixel is left as it was.
    """
    a = check_image(img1, "image 1")
    b = check_image(img2, "image 2")
    check_same_size(a, b)
    out32 = None
    if output is not None:
        out = check_image(output, "output")
        check_same_size(a, out, "image 1", "output")
        if out is not output or not output.flags.writeable:
            raise InputError("output: expected a writable C-contiguous H x W x 4 uint8 array")
        out32 = output.view(np.uint32).reshape(-1)
    threshold = check_fraction(threshold, "threshold")
    alpha = check_fraction(alpha, "alpha")
    aa_rgb = check_color(aa_color, "aa_color")
    diff_rgb = check_color(diff_color, "diff_color")
    alt_rgb = check_color(diff_color_alt, "diff_color_alt") if diff_color_alt else diff_rgb

    found = match(a, b, threshold=threshold, include_aa=include_aa, checkerboard=checkerboard)
    if out32 is not None:
        if not diff_mask:
            draw_gray(a.view(np.uint32).reshape(-1), out32, alpha)
        draw_diff(found, out32, None if diff_mask else aa_rgb, diff_rgb, alt_rgb)
    return found.mismatch
