"""Does a snapshot diff accuse the render, or the baseline? A baseline that breaks the tokens.

A snapshot baseline is a past render, accepted once; if it was taken from a broken view (or the
design moved on), every correct render "differs" from it, and asking the implementer to match
the pixels asks it to put the defect back. So where the render changed, the flat colours of
both images are held against the view's palette: a region where the baseline shows a colour
no token has (beyond anti-aliasing: it must cover a real share of the region) while every
flat colour of the render there is a token is evidence that the baseline, not the render, is
off. Such a diff is a question for a person, not a fix for the implementer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from argus.color import RGBA, delta_e_2000, to_hex
from argus.diff.png import load_png
from argus.diff.regions import Region

# A colour counts as "flat" in a region when it covers this share of it (and MIN_PIXELS).
MIN_SHARE = 0.15
MIN_PIXELS = 16
# Further than this (CIEDE2000) from every token: not a token colour.
OFF_PALETTE_DELTA_E = 3.0
MAX_REGIONS = 10


@dataclass(frozen=True)
class OffPalette:
    region: Region
    color: RGBA  # the baseline's flat colour no token has
    nearest: str  # the nearest token
    delta_e: float

    def to_json(self) -> dict[str, object]:
        return {
            "region": self.region.to_json(),
            "baseline_color": to_hex(self.color),
            "nearest_token": self.nearest,
            "delta_e": round(self.delta_e, 2),
        }


def stale_regions(
    baseline: Path, render: Path, regions: Sequence[Region], palette: Mapping[str, RGBA]
) -> list[OffPalette]:
    """Changed regions where the baseline has an off-palette flat colour and the render none."""
    if not palette or not regions:
        return []
    before, after = load_png(baseline), load_png(render)
    if before.shape != after.shape:
        return []
    found: list[OffPalette] = []
    for region in regions[:MAX_REGIONS]:
        window = (
            slice(region.y, region.y + region.height),
            slice(region.x, region.x + region.width),
        )
        render_off = [
            c for c in flat_colors(after[window]) if _nearest(c, palette)[1] > OFF_PALETTE_DELTA_E
        ]
        if render_off:
            continue  # the render is off the palette there too: the gates say so
        for color in flat_colors(before[window]):
            name, distance = _nearest(color, palette)
            if distance > OFF_PALETTE_DELTA_E:
                found.append(OffPalette(region, color, name, distance))
                break
    return found


def flat_colors(pixels: npt.NDArray[np.uint8]) -> list[RGBA]:
    """The opaque colours covering at least MIN_SHARE of ``pixels`` (H x W x 4)."""
    rgb = pixels[..., :3].reshape(-1, 3).astype(np.uint32)
    if rgb.size == 0:
        return []
    packed = (rgb[:, 0] << 16) | (rgb[:, 1] << 8) | rgb[:, 2]
    values, counts = np.unique(packed, return_counts=True)
    need = max(MIN_PIXELS, int(MIN_SHARE * packed.size))
    return [
        RGBA(float((v >> 16) & 255), float((v >> 8) & 255), float(v & 255), 1.0)
        for v, n in zip(values.tolist(), counts.tolist(), strict=True)
        if n >= need
    ]


def _nearest(color: RGBA, palette: Mapping[str, RGBA]) -> tuple[str, float]:
    return min(
        ((name, delta_e_2000(color, token)) for name, token in palette.items()),
        key=lambda pair: pair[1],
    )
