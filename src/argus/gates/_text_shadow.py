"""text-shadow, as Chromium computes it ("rgb(0, 0, 0) 1px 1px 2px, ..."), read for contrast.

A shadow matters to contrast only where it meets the glyphs: it *touches* them when its
offset is no larger than its blur plus about one stroke width (a shadow further off is a
second, offset copy of the text, not its surround). A touching shadow with no more offset
than half its blur spreads all round the glyphs: a *halo*.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from argus.color import RGBA, parse_color
from argus.errors import InputError

_LENGTH = re.compile(r"^-?\d+(?:\.\d+)?px$")


@dataclass(frozen=True)
class TextShadow:
    color: RGBA
    x: float
    y: float
    blur: float

    def touches(self, font_size_px: float) -> bool:
        """Does the shadow paint right against the glyphs' edges?"""
        stroke = max(1.0, font_size_px / 12.0)  # about one stem width
        return max(abs(self.x), abs(self.y)) <= self.blur + stroke

    def surrounds(self) -> bool:
        """A halo: blurred, and centred enough to reach every side of the glyphs."""
        return self.blur > 0 and math.hypot(self.x, self.y) <= self.blur / 2


def parse_text_shadows(value: str) -> list[TextShadow]:
    """The shadows of a computed ``text-shadow`` (``none``: none). A shadow without a colour is
    black; malformed lengths are an InputError (the gate then says error, never pass)."""
    value = value.strip()
    if not value or value == "none":
        return []
    return [_one(part) for part in _split_top_level(value)]


def _one(part: str) -> TextShadow:
    color_text, lengths = _color_and_lengths(part.strip())
    numbers = [float(n[:-2]) for n in lengths]
    if len(numbers) < 2:
        raise InputError(f"text-shadow {part!r}: expected an x and a y offset in px")
    blur = numbers[2] if len(numbers) > 2 else 0.0
    color = parse_color(color_text) if color_text else RGBA(0.0, 0.0, 0.0, 1.0)
    return TextShadow(color, numbers[0], numbers[1], max(blur, 0.0))


def _color_and_lengths(part: str) -> tuple[str, list[str]]:
    """Split one shadow into its colour (either end) and its px lengths."""
    tokens = _split_top_level(part, " ")
    lengths = [t for t in tokens if _LENGTH.match(t)]
    colors = [t for t in tokens if not _LENGTH.match(t) and t]
    if len(colors) > 1:
        raise InputError(f"text-shadow {part!r}: more than one colour")
    return (colors[0] if colors else ""), lengths


def _split_top_level(value: str, sep: str = ",") -> list[str]:
    """Split on ``sep`` outside parentheses (colours such as rgb(0, 0, 0) keep their commas)."""
    parts: list[str] = []
    current: list[str] = []
    depth = 0
    for ch in value:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
    parts.append("".join(current).strip())
    return [p for p in parts if p]
