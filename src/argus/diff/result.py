"""``DiffResult``: what comparing two images found, and the result of two byte-identical PNGs.

No numpy at run time (the diff image's type is only named), so the command line can answer
for byte-identical files without loading the kernel (see ``same_bytes``).
"""

from __future__ import annotations

from pathlib import Path

from argus.diff.pngcheck import check_png_intact

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy takes it as True)
if TYPE_CHECKING:
    from typing import Any

    from argus.diff.arrays import U8
    from argus.diff.region import Region

DEFAULT_WINDOW = 16


class DiffResult:
    """What comparing two images found. Immutable and compared field by field (the diff
    image apart, as it is left out of the repr), as a frozen dataclass would be; a plain
    class because ``dataclasses`` loads ``inspect``, a tenth of what ``argus diff`` costs a
    process when it answers without numpy (see ``same_bytes`` and ``argus.diff.samepixels``).
    """

    __slots__ = _FIELDS = (
        "width",
        "height",
        "mismatch",
        "window",
        "density",  # most differing pixels in any window x window square
        "regions",
        "timings_ms",
        "diff_image",
        "same_bytes",  # the two files were byte for byte the same and so were not decoded
    )
    width: int
    height: int
    mismatch: int
    window: int
    density: int
    regions: tuple[Region, ...]
    timings_ms: dict[str, float]
    diff_image: U8 | None
    same_bytes: bool

    def __init__(
        self,
        width: int,
        height: int,
        mismatch: int,
        window: int,
        density: int,
        regions: tuple[Region, ...],
        timings_ms: dict[str, float] | None = None,
        diff_image: U8 | None = None,
        same_bytes: bool = False,
    ) -> None:
        timings = {} if timings_ms is None else timings_ms
        values = (width, height, mismatch, window, density, regions, timings, diff_image)
        for name, value in zip(self._FIELDS, (*values, same_bytes), strict=True):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r} of a DiffResult")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r} of a DiffResult")

    def _compared(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self._FIELDS if name != "diff_image")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, DiffResult)
        return self._compared() == other._compared()

    __hash__ = None  # type: ignore[assignment]  # timings_ms is a dict

    def __repr__(self) -> str:
        shown = ", ".join(
            f"{name}={getattr(self, name)!r}" for name in self._FIELDS if name != "diff_image"
        )
        return f"DiffResult({shown})"

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
