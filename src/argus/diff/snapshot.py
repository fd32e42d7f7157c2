"""Snapshot baselines: compare a render to its committed baseline, write or update it.

Baselines live at ``argus/specs/{feature}/__snapshots__/{target}-{state}-{appearance}.png``
(optionally ``-{platform}`` before ``.png``). Update modes follow Playwright's
``--update-snapshots``: ``missing`` writes baselines that do not exist (the default),
``changed`` also overwrites those that differ beyond the tolerance, ``all`` overwrites every
baseline compared, ``none`` never writes (and, as in Playwright, a missing baseline is then a
``diff``). Argus's own ``compare`` mode compares when a baseline exists and skips otherwise,
never writing: the loop's iterations use it. Masked regions are painted in both images before
comparing, and a baseline is written with its masks painted, so volatile content never
reaches the repository; without masks it is the render's own bytes (no re-encoding), so an
unchanged view's next render is byte-for-byte its baseline, which passes without decoding
either image.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from argus.diff.comparison import DiffResult, compare
from argus.diff.masks import Box, newly_masked, paint_masks
from argus.diff.png import MAX_PNG_BYTES, check_png, decode_png, load_png, save_png
from argus.diff.regions import Region
from argus.diff.tolerance import Tolerance
from argus.errors import InputError
from argus.io import atomic_write_bytes, read_bytes, refuse_symlinks

UpdateMode = Literal["all", "changed", "missing", "none", "compare"]
# Playwright's --update-snapshots modes: what a user picks (argus gates --update-snapshots).
UPDATE_MODES: tuple[UpdateMode, ...] = ("all", "changed", "missing", "none")
# Argus's own mode for the loop's iterations: compare when a baseline exists, never write, and
# a missing baseline is a skip (expected before a view's first sign-off), not a failure.
COMPARE_IF_PRESENT: UpdateMode = "compare"
Status = Literal["pass", "diff", "skip"]
Action = Literal["none", "written", "updated"]
# The last 12 bytes of every whole PNG: the empty IEND chunk and its CRC.
PNG_END = b"\x00\x00\x00\x00IEND\xaeB`\x82"
# The most of the view the masks may newly hide: pixels the baseline shows (not painted in
# the mask colour when it was written) that the render's masks cover. Both images are
# painted with the render's masks, so past this a page could hide any change under an element
# that matches a mask (a framework preset's id on a box over the whole view); below it, a
# masked clock or toast that grew with its text is still masked, not a difference. (A mask
# that moved shows the baseline's painted box where it was: a difference either way.)
MAX_NEWLY_MASKED = 0.05


def diff_image_path(render: Path) -> Path:
    """Where the diff image of a render goes: beside it, ``{stem}-diff.png``."""
    return render.with_name(f"{render.stem}-diff.png")


@dataclass(frozen=True)
class SnapshotOutcome:
    status: Status  # pass | diff | skip (nothing to compare against)
    action: Action  # what happened to the baseline
    baseline: Path
    message: str
    diff_image: Path | None = None
    mismatch: int | None = None
    ratio: float | None = None
    density_ratio: float | None = None
    regions: tuple[Region, ...] = ()

    @property
    def written(self) -> bool:
        return self.action == "written"

    @property
    def updated(self) -> bool:
        return self.action == "updated"

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "action": self.action,
            "baseline": str(self.baseline),
            "message": self.message,
            "diff_image": None if self.diff_image is None else str(self.diff_image),
            "mismatch": self.mismatch,
            "ratio": self.ratio,
            "density_ratio": self.density_ratio,
            "regions": [r.to_json() for r in self.regions],
        }


def compare_to_baseline(
    render: Path,
    baseline: Path,
    settings: Tolerance,
    masks_boxes: Sequence[Box] = (),
    update_mode: UpdateMode = "missing",
    *,
    scale: float = 1.0,
) -> SnapshotOutcome:
    """Compare ``render`` with ``baseline`` after painting the masks (CSS boxes x ``scale``,
    the device pixel ratio) in both, and write the baseline as ``update_mode`` says."""
    if update_mode not in (*UPDATE_MODES, COMPARE_IF_PRESENT):
        raise InputError(f"--update-snapshots={update_mode}: use one of {', '.join(UPDATE_MODES)}")
    # A baseline folder linked elsewhere would be read and written there (docs/security.md).
    refuse_symlinks(baseline, baseline.parent.parent, what="the snapshot baseline path")
    render_bytes = read_bytes(render, what="PNG image", limit=MAX_PNG_BYTES)
    stale_diff = diff_image_path(render)
    stale_diff.unlink(missing_ok=True)
    identical = _identical(render_bytes, baseline, settings.window)
    if identical is not None:
        # The same bytes are the same pixels, masked or not: nothing to decode or compare.
        same_ok, why = settings.judge(identical)
        action: Action = "none"
        if update_mode == "all":
            atomic_write_bytes(baseline, render_bytes)
            action = "updated"
        status: Status = "pass" if same_ok else "diff"
        return SnapshotOutcome(status, action, baseline, why, None, 0, 0.0, 0.0, ())

    actual = decode_png(render_bytes, render)
    paint_masks(actual, masks_boxes, scale)

    def write_baseline() -> None:
        if masks_boxes:
            save_png(baseline, actual)
        else:
            atomic_write_bytes(baseline, render_bytes)

    if not baseline.exists():
        if update_mode == "none":
            # As in Playwright: with updates off, a missing snapshot is a failure, not a pass.
            return SnapshotOutcome(
                "diff",
                "none",
                baseline,
                f"no baseline at {baseline} (update mode none); "
                "run with --update-snapshots=missing to write it",
            )
        if update_mode == COMPARE_IF_PRESENT:
            return SnapshotOutcome(
                "skip", "none", baseline, f"no baseline at {baseline} yet; nothing to compare"
            )
        write_baseline()
        return SnapshotOutcome(
            "skip", "written", baseline, f"baseline written to {baseline}; nothing to compare yet"
        )

    def refused(message: str, hidden: int | None = None) -> SnapshotOutcome:
        """A difference found before any pixel is compared; the baseline rewritten when the
        update mode rewrites what differs."""
        rewrite = update_mode in ("all", "changed")
        if rewrite:
            write_baseline()
        ratio = None if hidden is None else hidden / (actual.shape[0] * actual.shape[1])
        action: Action = "updated" if rewrite else "none"
        return SnapshotOutcome("diff", action, baseline, message, mismatch=hidden, ratio=ratio)

    expected = load_png(baseline)
    if expected.shape != actual.shape:
        return refused(
            f"size changed: baseline {expected.shape[1]}x{expected.shape[0]}, "
            f"render {actual.shape[1]}x{actual.shape[0]}"
        )
    hidden = newly_masked(expected, masks_boxes, scale)
    total = expected.shape[0] * expected.shape[1]
    if hidden > MAX_NEWLY_MASKED * total:
        return refused(newly_masked_message(hidden, total), hidden)
    paint_masks(expected, masks_boxes, scale)

    result = compare(
        expected, actual, threshold=settings.threshold, window=settings.window, diff_image=True
    )
    ok, why = settings.judge(result)
    diff_file = None
    if not ok and result.diff_image is not None:
        diff_file = stale_diff
        save_png(diff_file, result.diff_image, compress_level=1)
    action = "none"
    if update_mode == "all" or (update_mode == "changed" and not ok):
        write_baseline()
        action = "updated"
    return SnapshotOutcome(
        "pass" if ok else "diff",
        action,
        baseline,
        why,
        diff_file,
        result.mismatch,
        result.ratio,
        result.density_ratio,
        result.regions,
    )


def newly_masked_message(hidden: int, total: int) -> str:
    """Why masks that newly hide ``hidden`` of ``total`` pixels are a difference."""
    return (
        f"the masks cover {hidden} pixels ({hidden / total:.1%} of the view) that the "
        f"baseline shows, over the {MAX_NEWLY_MASKED:.0%} a grown mask may: an element "
        "matching a mask now hides what the baseline showed; if the masks changed on "
        "purpose, update the baseline (--update-snapshots=changed)"
    )


def _identical(render_bytes: bytes, baseline: Path, window: int) -> DiffResult | None:
    """A no-difference result when the baseline's bytes are the render's, else None."""
    size = _png_size(render_bytes)
    try:
        if size is None or baseline.stat().st_size != len(render_bytes):
            return None
    except OSError:
        return None
    if read_bytes(baseline, what="PNG image", limit=MAX_PNG_BYTES) != render_bytes:
        return None
    width, height = size
    return DiffResult(width, height, mismatch=0, window=window, density=0, regions=())


def _png_size(data: bytes) -> tuple[int, int] | None:
    """Width and height of a whole PNG: a header ``check_png`` accepts and the IEND chunk last.
    None otherwise, so a truncated, forged or absurd file is decoded, and refused there, even
    when the baseline holds the same bytes."""
    if not data.endswith(PNG_END):
        return None
    try:
        header = check_png(data)
    except InputError:
        return None
    return header.width, header.height
