"""The loaded design-token model every gate reads: colours per appearance and the size scales."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from argus.color import RGBA, composite, delta_e_2000
from argus.errors import InputError
from argus.tokens._typeroles import TypeRole
from argus.tokens.colorroles import ColorRole

# Key under which a colour that does not vary by appearance is stored.
ALL_APPEARANCES = "*"

_WHITE = RGBA(255.0, 255.0, 255.0, 1.0)
_BLACK = RGBA(0.0, 0.0, 0.0, 1.0)


@dataclass(frozen=True)
class Tokens:
    """Design tokens, whatever file format they came from.

    ``colors`` maps a token name to its value per appearance; the key ``"*"`` holds a value
    that applies to every appearance. ``appearances`` lists the appearances the file names,
    in file order (empty when no colour varies by appearance).
    """

    source: Path
    appearances: tuple[str, ...]
    colors: Mapping[str, Mapping[str, RGBA]]
    spacing: Mapping[str, float]
    type_scale: Mapping[str, float]
    radii: Mapping[str, float]
    font_families: Mapping[str, str]
    format: str = "argus"  # "argus" (the flat shape) or "dtcg"
    # Text styles by name (size, weight, line height, letter spacing, kind); empty when the
    # tokens give sizes only.
    type_roles: Mapping[str, TypeRole] = field(default_factory=dict)
    # Where a colour token may be shown and in which appearances (argus.tokens.colorroles).
    color_roles: Mapping[str, ColorRole] = field(default_factory=dict)
    _nearest_cache: dict[tuple[RGBA, str], tuple[str, float] | None] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )

    def has_appearance(self, appearance: str) -> bool:
        """True when colours can be resolved for ``appearance``.

        A file that names no appearances serves any appearance with its flat colours.
        """
        return not self.appearances or appearance in self.appearances

    def require_appearance(self, appearance: str) -> None:
        if not self.has_appearance(appearance):
            raise InputError(
                f"{self.source}: tokens define no appearance '{appearance}' "
                f"(they define {', '.join(self.appearances)})"
            )

    def color(self, name: str, appearance: str) -> RGBA:
        """The colour token ``name`` as shown in ``appearance``."""
        values = self.colors.get(name)
        if values is None:
            raise InputError(f"{self.source}: no colour token '{name}'")
        found = values.get(appearance, values.get(ALL_APPEARANCES))
        if found is None:
            raise InputError(
                f"{self.source}: colour token '{name}' has no value for appearance "
                f"'{appearance}' (it has {', '.join(sorted(values))})"
            )
        return found

    def palette(self, appearance: str) -> dict[str, RGBA]:
        """Every colour token that has a value in ``appearance``, by name."""
        self.require_appearance(appearance)
        palette: dict[str, RGBA] = {}
        for name, values in self.colors.items():
            found = values.get(appearance, values.get(ALL_APPEARANCES))
            if found is not None:
                palette[name] = found
        return palette

    def nearest_color(self, color: RGBA, appearance: str) -> tuple[str, float] | None:
        """The palette colour closest to ``color`` and its distance, or None for an empty palette.

        The distance is ΔE2000, taken as the larger of the differences with both colours
        composited over white and over black: for opaque colours that is plain ΔE2000, and a
        translucent colour only matches a token of the same colour *and* opacity.
        """
        key = (color, appearance)
        if key not in self._nearest_cache:
            best: tuple[str, float] | None = None
            for name, token in self.palette(appearance).items():
                distance = _rendered_distance(color, token)
                if best is None or distance < best[1]:
                    best = (name, distance)
            self._nearest_cache[key] = best
        return self._nearest_cache[key]

    def nearest_spacing(self, px: float) -> tuple[str, float] | None:
        """The spacing token closest to ``px`` and the absolute difference in px."""
        return _nearest_on_scale(self.spacing, px)

    def nearest_type_size(self, px: float) -> tuple[str, float] | None:
        """The type-scale token closest to ``px`` and the absolute difference in px."""
        return _nearest_on_scale(self.type_scale, px)

    def nearest_radius(self, px: float) -> tuple[str, float] | None:
        """The radius token closest to ``px`` and the absolute difference in px."""
        return _nearest_on_scale(self.radii, px)


def _rendered_distance(a: RGBA, b: RGBA) -> float:
    if a.is_opaque and b.is_opaque:
        return delta_e_2000(a, b)
    return max(
        delta_e_2000(composite(a, _WHITE), composite(b, _WHITE)),
        delta_e_2000(composite(a, _BLACK), composite(b, _BLACK)),
    )


def _nearest_on_scale(scale: Mapping[str, float], px: float) -> tuple[str, float] | None:
    best: tuple[str, float] | None = None
    for name, value in scale.items():
        difference = abs(px - value)
        if best is None or difference < best[1]:
            best = (name, difference)
    return best
