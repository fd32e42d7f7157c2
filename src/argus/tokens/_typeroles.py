"""Type roles: the type scale as a set of text styles (size, weight, line height, letter
spacing), each for a kind of text (heading, body, numeric).

Both token shapes carry them:

* the seed's flat shape, a ``typography`` section::

    "typography": {"title": {"size": 28, "weight": 700, "line_height": 32, "role": "heading"}}

* DTCG ``$type: typography`` tokens (``fontSize``, ``fontWeight``, ``lineHeight``,
  ``letterSpacing``).

A line height is px (``32``, ``"32px"``, ``"2rem"``) or, as a bare number up to
MAX_MULTIPLIER, a multiple of the size (``1.5``). A weight is a number (100-1000) or a name
(``bold``, ``semibold`` ...). The kind is ``role`` when given, else read from the name:
heading words (title, heading, display, h1-h6) make a heading, numeric words (numeric, number,
tabular, price, amount, total, figure) a numeric style, anything else body. A field left out
matches any value.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from argus.tokens._values import dimension_px

KINDS = ("heading", "body", "numeric")
MAX_MULTIPLIER = 4.0
WEIGHT_NAMES = {
    "thin": 100,
    "hairline": 100,
    "extralight": 200,
    "extra-light": 200,
    "ultralight": 200,
    "light": 300,
    "normal": 400,
    "regular": 400,
    "book": 400,
    "medium": 500,
    "semibold": 600,
    "semi-bold": 600,
    "demibold": 600,
    "demi-bold": 600,
    "bold": 700,
    "extrabold": 800,
    "extra-bold": 800,
    "ultrabold": 800,
    "black": 900,
    "heavy": 900,
}
_HEADING = re.compile(r"(^|[^a-z])(title|heading|headline|display|h[1-6])([^a-z]|$)")
_NUMERIC = re.compile(r"(numeric|number|tabular|price|amount|total|figure)")
PX_TOLERANCE = 0.05


@dataclass(frozen=True)
class TypeRole:
    name: str
    size: float
    kind: str  # heading | body | numeric
    weight: float | None = None
    line_height: float | None = None  # px
    letter_spacing: float | None = None  # px

    def matches(
        self, size: float, weight: float | None, line_height: float | None, spacing: float
    ) -> bool:
        """Whether a rendered text style is this role (a field the role leaves out matches)."""
        if abs(size - self.size) > PX_TOLERANCE:
            return False
        if self.weight is not None and weight is not None and weight != self.weight:
            return False
        if (
            self.line_height is not None
            and line_height is not None
            and abs(line_height - self.line_height) > PX_TOLERANCE
        ):
            return False
        return self.letter_spacing is None or abs(spacing - self.letter_spacing) <= PX_TOLERANCE

    def describe(self) -> str:
        parts = [f"{self.size:g}px"]
        if self.weight is not None:
            parts.append(f"weight {self.weight:g}")
        if self.line_height is not None:
            parts.append(f"line height {self.line_height:g}px")
        if self.letter_spacing:
            parts.append(f"letter spacing {self.letter_spacing:g}px")
        return f"{self.name} ({self.kind}: {', '.join(parts)})"


def font_weight(value: Any) -> float:
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a font weight")
    if isinstance(value, int | float):
        number = float(value)
    elif isinstance(value, str) and value.strip().lower() in WEIGHT_NAMES:
        return float(WEIGHT_NAMES[value.strip().lower()])
    elif isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            raise ValueError(f"{value!r} is not a font weight (100-1000 or a name)") from None
    else:
        raise ValueError(f"{value!r} is not a font weight")
    if not 1 <= number <= 1000:
        raise ValueError(f"{value!r} is not a font weight (100-1000)")
    return number


def line_height_px(value: Any, size: float) -> float:
    if isinstance(value, int | float) and not isinstance(value, bool) and value <= MAX_MULTIPLIER:
        return float(value) * size
    if isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            return dimension_px(value)
        if number <= MAX_MULTIPLIER:
            return number * size
    return dimension_px(value)


def kind_of(name: str, given: Any = None) -> str:
    if given is not None:
        if given not in KINDS:
            raise ValueError(f"role {given!r} is not one of {', '.join(KINDS)}")
        return str(given)
    lowered = name.lower()
    if _HEADING.search(lowered):
        return "heading"
    if _NUMERIC.search(lowered):
        return "numeric"
    return "body"


def type_role(
    name: str,
    fields: Mapping[str, Any],
    *,
    size_key: str,
    weight_key: str,
    line_key: str,
    spacing_key: str,
    role: Any = None,
) -> TypeRole:
    """A role from a mapping of fields (the two shapes name them differently)."""
    if size_key not in fields:
        raise ValueError(f"a type role needs '{size_key}'")
    size = dimension_px(fields[size_key])
    weight = font_weight(fields[weight_key]) if fields.get(weight_key) is not None else None
    line = fields.get(line_key)
    spacing = fields.get(spacing_key)
    return TypeRole(
        name=name,
        size=size,
        kind=kind_of(name, role),
        weight=weight,
        line_height=line_height_px(line, size) if line is not None else None,
        letter_spacing=_spacing_px(spacing, size) if spacing is not None else None,
    )


def _spacing_px(value: Any, size: float) -> float:
    """Letter spacing in px: a dimension, ``em`` of the size, or 0 / ``normal``."""
    if isinstance(value, str):
        text = value.strip().lower()
        if text == "normal":
            return 0.0
        try:
            if text.endswith("px"):
                return float(text[:-2])
            if text.endswith("em") and not text.endswith("rem"):
                return float(text[:-2]) * size
        except ValueError:
            raise ValueError(f"{value!r} is not a letter spacing") from None
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    return dimension_px(value)
