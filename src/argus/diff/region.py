"""``Region``: a changed region's bounding box and its differing pixels.

No numpy and no ``dataclasses`` (which loads ``inspect``), so the path of ``argus diff`` that
answers without numpy (``argus.diff.sparse``) can return the regions the kernel's modules
return, as equal values of the same class (``argus.diff.regions`` re-exports it).
"""

from __future__ import annotations


class Region:
    """A changed region in image pixels: top-left corner, size, and its differing pixels.
    Immutable, compared and hashed field by field, as a frozen dataclass would be."""

    __slots__ = _FIELDS = ("x", "y", "width", "height", "pixels")
    x: int
    y: int
    width: int
    height: int
    pixels: int

    def __init__(self, x: int, y: int, width: int, height: int, pixels: int) -> None:
        for name, value in zip(self._FIELDS, (x, y, width, height, pixels), strict=True):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r} of a Region")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r} of a Region")

    def _values(self) -> tuple[int, int, int, int, int]:
        return (self.x, self.y, self.width, self.height, self.pixels)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Region)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        x, y, width, height, pixels = self._values()
        return f"Region(x={x!r}, y={y!r}, width={width!r}, height={height!r}, pixels={pixels!r})"

    def to_json(self) -> dict[str, int]:
        return {
            "x": self.x,
            "y": self.y,
            "width": self.width,
            "height": self.height,
            "pixels": self.pixels,
        }
