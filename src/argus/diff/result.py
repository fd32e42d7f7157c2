"""``DiffResult``: what comparing two images found, and the result of two byte-identical PNGs.

No numpy at run time (the diff image's type is only named), so the command line can answer
for byte-identical files without loading the kernel (see ``same_bytes``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from argus.diff.pngcheck import check_png_intact

if TYPE_CHECKING:
    from argus.diff.arrays import U8
    from argus.diff.regions import Region

DEFAULT_WINDOW = 16


@dataclass(frozen=True)
class DiffResult:
    width: int
    height: int
    mismatch: int
    window: int
    density: int  # most differing pixels in any window x window square
    regions: tuple[Region, ...]
    timings_ms: dict[str, float] = field(default_factory=dict)
    diff_image: U8 | None = field(default=None, repr=False, compare=False)
    # True when the two files were byte for byte the same and so were not decoded.
    same_bytes: bool = False

    @property
    def total(self) -> int:
        return self.width * self.height

    @property
    def ratio(self) -> float:
        return self.mismatch / self.total

    @property
    def density_ratio(self) -> float:
        """The densest window's share of differing pixels (its area clipped to the image)."""
        return self.density / (min(self.window, self.width) * min(self.window, self.height))

    def to_json(self) -> dict[str, Any]:
        return {
            "width": self.width,
            "height": self.height,
            "mismatch": self.mismatch,
            "ratio": self.ratio,
            "window": self.window,
            "density": self.density,
            "density_ratio": self.density_ratio,
            "regions": [r.to_json() for r in self.regions],
            "same_bytes": self.same_bytes,
            "timings_ms": {k: round(v, 3) for k, v in self.timings_ms.items()},
        }


def same_bytes(
    first: bytes, second: bytes, source: Path | str, window: int = DEFAULT_WINDOW
) -> DiffResult | None:
    """The result for two byte-identical PNGs without decoding them (no pixel can differ),
    once the file is proved whole (``check_png_intact``); None when the bytes differ."""
    if first != second:
        return None
    header = check_png_intact(first, source)
    return DiffResult(header.width, header.height, 0, window, 0, (), same_bytes=True)
