"""Colour values and the maths the gates need: parsing, compositing, WCAG contrast, ΔE2000.

Parsing goes through coloraide (CSS Color 4: hex, rgb()/rgba(), hsl(), hwb(), lab(), lch(),
oklab(), oklch(), color(), named colours, ``transparent``), never through hand-written
parsers. Everything is reduced to one sRGB value, `RGBA`, because that is what a screen shows
and what WCAG 2.x defines contrast on.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from coloraide import Color

from argus.errors import InputError

__all__ = [
    "RGBA",
    "composite",
    "contrast_ratio",
    "delta_e_2000",
    "from_components",
    "parse_color",
    "relative_luminance",
    "to_hex",
]

# CSS Color 4 specifies these as sRGB-based syntaxes: out-of-range values are clamped (clipped)
# when parsed, e.g. rgb(300 0 0) is rgb(255 0 0). Every other space (lab, lch, oklab, oklch,
# color(display-p3 ...), ...) can name colours outside sRGB; those are gamut-mapped instead.
_SRGB_SYNTAXES = frozenset({"srgb", "hsl", "hwb"})

# Gamut mapping for wide-gamut colours: coloraide's "oklch-chroma" is the CSS Color 4 "CSS gamut
# map" algorithm: keep OkLCh lightness and hue, binary-search the chroma down until the clipped
# result is within a just-noticeable difference (ΔEok 0.02) of the reduced colour. It changes the
# colour far less than per-channel clipping (which shifts hue and lightness).
_GAMUT_MAP_METHOD = "oklch-chroma"

_SYNTAX_HINT = (
    "expected a CSS colour (#hex, rgb(), hsl(), hwb(), lab(), lch(), oklab(), oklch(), color(), "
    "a named colour) or an {r, g, b, a} object"
)


@dataclass(frozen=True, slots=True)
class RGBA:
    """An sRGB colour: r, g, b in 0-255 (floats: composites are not whole numbers), a in 0-1."""

    r: float
    g: float
    b: float
    a: float = 1.0

    def __post_init__(self) -> None:
        for channel, value, top in (
            ("r", self.r, 255.0),
            ("g", self.g, 255.0),
            ("b", self.b, 255.0),
        ):
            if not 0.0 <= value <= top:
                raise ValueError(f"RGBA.{channel}={value} is outside 0-{top:g}")
        if not 0.0 <= self.a <= 1.0:
            raise ValueError(f"RGBA.a={self.a} is outside 0-1")

    @property
    def is_opaque(self) -> bool:
        return self.a >= 1.0


def parse_color(value: object) -> RGBA:
    """Parse any CSS Color 4 string or an ``{r, g, b, a}`` object into an sRGB `RGBA`.

    Raises InputError naming the value when it is not a colour.
    """
    if isinstance(value, str):
        return _parse_color_text(value)
    if isinstance(value, Mapping):
        return _parse_color_object(value)
    raise InputError(f"bad colour {_shorten(value)}: {_SYNTAX_HINT}")


# The browser's computed styles repeat the same few strings (rgb(17, 17, 20), rgba(0, 0, 0, 0))
# thousands of times per view: caching the parse makes each repeat a dictionary lookup.
@functools.lru_cache(maxsize=8192)
def _parse_color_text(text: str) -> RGBA:
    try:
        color = Color(text.strip())
    except (ValueError, TypeError) as exc:
        raise InputError(f"bad colour {_shorten(text)}: {_SYNTAX_HINT}") from exc
    return _from_coloraide(color)


def _from_coloraide(color: Color) -> RGBA:
    """Reduce a coloraide colour in any space to sRGB, clipping or gamut-mapping as CSS does."""
    srgb = color.convert("srgb")
    if color.space() in _SRGB_SYNTAXES:
        srgb.clip()
    elif not srgb.in_gamut(tolerance=0.0):
        srgb.fit(method=_GAMUT_MAP_METHOD)
    # `none` components count as zero (CSS Color 4, "missing components").
    r, g, b = (min(max(c, 0.0), 1.0) * 255.0 for c in srgb.coords(nans=False))
    alpha = min(max(srgb.alpha(nans=False), 0.0), 1.0)
    return RGBA(r, g, b, alpha)


def from_components(space: str, coords: Sequence[float], alpha: float = 1.0) -> RGBA:
    """A colour given as coordinates in a coloraide space (``"oklch"``, ``[0.7, 0.1, 30]``).

    Coordinates use coloraide's ranges (HSL saturation 0-1, Lab lightness 0-100); NaN means
    a missing (``none``) component. Raises ValueError for an unknown space.
    """
    if space not in Color.CS_MAP:
        raise ValueError(f"unknown colour space {space!r}")
    return _from_coloraide(Color(space, list(coords), alpha))


def _parse_color_object(obj: Mapping[Any, Any]) -> RGBA:
    keys = set(obj)
    if not {"r", "g", "b"} <= keys or not keys <= {"r", "g", "b", "a"}:
        raise InputError(f"bad colour {_shorten(dict(obj))}: {_SYNTAX_HINT}")
    channels: dict[str, float] = {}
    for key, top in (("r", 255.0), ("g", 255.0), ("b", 255.0), ("a", 1.0)):
        raw = obj.get(key, 1.0)
        if isinstance(raw, bool) or not isinstance(raw, int | float) or not math.isfinite(raw):
            raise InputError(f"bad colour {_shorten(dict(obj))}: '{key}' must be a number")
        if not 0.0 <= raw <= top:
            raise InputError(f"bad colour {_shorten(dict(obj))}: '{key}' must be within 0-{top:g}")
        channels[key] = float(raw)
    return RGBA(channels["r"], channels["g"], channels["b"], channels["a"])


def _shorten(value: object, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def to_hex(color: RGBA) -> str:
    """``#rrggbb``, or ``#rrggbbaa`` when the colour is not opaque."""
    digits = "".join(f"{round(c):02x}" for c in (color.r, color.g, color.b))
    if color.a < 1.0:
        digits += f"{round(color.a * 255):02x}"
    return "#" + digits


def composite(top: RGBA, bottom: RGBA) -> RGBA:
    """Porter-Duff source-over of ``top`` on ``bottom`` in sRGB, as browsers blend."""
    if top.a >= 1.0 or bottom.a <= 0.0:
        return top
    # Exact 1.0 when the bottom is opaque: float rounding must not make an opaque result
    # look translucent to callers that test ``a >= 1``.
    alpha = 1.0 if bottom.a >= 1.0 else top.a + bottom.a * (1.0 - top.a)
    if alpha <= 0.0:
        return RGBA(0.0, 0.0, 0.0, 0.0)

    def blend(t: float, b: float) -> float:
        mixed = (t * top.a + b * bottom.a * (1.0 - top.a)) / alpha
        return min(max(mixed, 0.0), 255.0)

    return RGBA(blend(top.r, bottom.r), blend(top.g, bottom.g), blend(top.b, bottom.b), alpha)


def _linear(channel: float) -> float:
    # sRGB's own threshold, 0.04045; WCAG 2.x prints 0.03928 (from an old sRGB draft). No 8-bit
    # value lies between the two, so results agree for every hex colour.
    c = channel / 255.0
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def relative_luminance(color: RGBA) -> float:
    """WCAG 2.x relative luminance of the colour's RGB (alpha is not considered here)."""
    return 0.2126 * _linear(color.r) + 0.7152 * _linear(color.g) + 0.0722 * _linear(color.b)


def contrast_ratio(fg: RGBA, bg: RGBA) -> float:
    """WCAG 2.x contrast ratio, unrounded (1-21).

    A translucent foreground is composited over the background first. The background must be
    opaque: composite a translucent background over whatever is beneath it before calling.
    """
    if bg.a < 1.0:
        raise ValueError(f"contrast_ratio needs an opaque background, got alpha {bg.a}")
    shown = composite(fg, bg)
    lighter, darker = sorted((relative_luminance(shown), relative_luminance(bg)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


@functools.lru_cache(maxsize=65536)
def delta_e_2000(a: RGBA, b: RGBA) -> float:
    """CIEDE2000 colour difference between the RGB of two colours (alpha is ignored).

    Cached: the token gates compare every rendered colour against the same palette.
    """
    first = Color("srgb", [a.r / 255.0, a.g / 255.0, a.b / 255.0])
    second = Color("srgb", [b.r / 255.0, b.g / 255.0, b.b / 255.0])
    return float(first.delta_e(second, method="2000"))
