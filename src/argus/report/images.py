"""Images for the report: PNGs as ``data:`` URIs, downscaled, and the render/reference diff.

The report is one file that opens anywhere, so every image is embedded. Screenshots are
downscaled first (a full-page 1280-wide render is megabytes as base64); the diff is computed on
the full-size images and only then shrunk, so a one-pixel change still shows up as a red mark.
A missing or unreadable image is a note on the page, never a failed report.
"""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image

from argus.diff import compare, load_png
from argus.diff.yiq import U8
from argus.errors import ArgusError
from argus.report.model import Picture

# Side-by-side columns are at most ~600 CSS px wide; 960 keeps them sharp on a 1.5x screen.
MAX_EMBED_WIDTH = 960
# A very long full-page render is cut down, not shown at a width of a few pixels.
MAX_EMBED_HEIGHT = 2400


@dataclass(frozen=True)
class DiffOutcome:
    picture: Picture
    stats: str


def _data_uri(img: Image.Image) -> str:
    buffer = io.BytesIO()
    img.save(buffer, format="PNG", compress_level=6)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _shrink(img: Image.Image) -> tuple[Image.Image, str]:
    """Fit ``img`` into the embed box; the note says so when it was scaled."""
    width, height = img.size
    scale = min(1.0, MAX_EMBED_WIDTH / width, MAX_EMBED_HEIGHT / height)
    if scale >= 1.0:
        return img, ""
    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    return img.resize(size, Image.Resampling.LANCZOS), f"shown at {size[0]}×{size[1]}"


def picture_from_array(array: U8, label: str, alt: str, note: str = "") -> Picture:
    height, width = array.shape[:2]
    shrunk, scaled = _shrink(Image.fromarray(np.ascontiguousarray(array), "RGBA"))
    notes = "; ".join(part for part in (f"{width}×{height}", scaled, note) if part)
    return Picture(label, alt, _data_uri(shrunk), shrunk.width, shrunk.height, notes)


def picture_from_file(path: Path | None, label: str, alt: str, missing: str) -> Picture:
    """Embed the PNG at ``path``; ``missing`` is the note when there is none."""
    if path is None or not path.is_file():
        return Picture(label, alt, None, note=missing)
    try:
        array = load_png(path)
    except ArgusError as exc:
        return Picture(label, alt, None, note=f"unreadable: {exc}")
    return picture_from_array(array, label, alt)


def pad(array: U8, width: int, height: int) -> U8:
    """Grow ``array`` to width x height with transparent pixels (they read as differences)."""
    if array.shape[1] == width and array.shape[0] == height:
        return array
    padded = np.zeros((height, width, 4), dtype=np.uint8)
    padded[: array.shape[0], : array.shape[1]] = array
    return padded


def diff_picture(
    render: Path | None, reference: Path | None, alt: str, label: str = "Diff"
) -> DiffOutcome:
    """Pixelmatch's diff of the render against the reference (red: differs, grey: same)."""
    if render is None or reference is None or not render.is_file() or not reference.is_file():
        why = "no render to compare" if render is None or not render.is_file() else "no reference"
        return DiffOutcome(Picture(label, alt, None, note=why), "")
    try:
        ours, theirs = load_png(render), load_png(reference)
    except ArgusError as exc:
        return DiffOutcome(Picture(label, alt, None, note=f"cannot compare: {exc}"), "")
    width = max(ours.shape[1], theirs.shape[1])
    height = max(ours.shape[0], theirs.shape[0])
    result = compare(pad(ours, width, height), pad(theirs, width, height), diff_image=True)
    stats = f"{result.mismatch:,} of {result.total:,} pixels differ ({result.ratio:.2%})"
    if ours.shape != theirs.shape:
        stats += (
            f"; sizes differ: render {ours.shape[1]}×{ours.shape[0]}, "
            f"reference {theirs.shape[1]}×{theirs.shape[0]}"
        )
    assert result.diff_image is not None  # asked for with diff_image=True
    return DiffOutcome(picture_from_array(result.diff_image, label, alt), stats)
