"""Token value readers shared by both file formats: dimensions, font families, colours.

Each reader raises ValueError with a short reason; the format readers add the file and the
token name and turn it into one InputError line.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

from argus.color import RGBA, from_components, parse_color
from argus.errors import InputError

# `rem` is resolved against the browser default root font size; the gates compare against
# computed styles, which are always px.
REM_PX = 16.0

_DIMENSION_TEXT = re.compile(r"\s*(-?(?:\d+\.?\d*|\.\d+))\s*([a-z%]+)?\s*", re.IGNORECASE)

# DTCG colour spaces (Design Tokens Color Module) whose names coloraide shares.
_DTCG_SPACES = frozenset(
    {
        "srgb",
        "srgb-linear",
        "hsl",
        "hwb",
        "lab",
        "lch",
        "oklab",
        "oklch",
        "display-p3",
        "a98-rgb",
        "prophoto-rgb",
        "rec2020",
        "xyz-d65",
        "xyz-d50",
    }
)
# DTCG writes HSL saturation/lightness and HWB whiteness/blackness as 0-100 (like CSS
# percentages); coloraide stores them as 0-1.
_PERCENT_COMPONENTS = {"hsl": (1, 2), "hwb": (1, 2)}


def dimension_px(value: Any) -> float:
    """A size in px from ``16``, ``"16px"``, ``"1rem"`` or ``{"value": 16, "unit": "px"}``."""
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a dimension")
    if isinstance(value, int | float):
        number, unit = float(value), "px"
    elif isinstance(value, str):
        match = _DIMENSION_TEXT.fullmatch(value)
        if match is None:
            raise ValueError(f'{value!r} is not a dimension (use px or rem, e.g. "16px")')
        number, unit = float(match.group(1)), (match.group(2) or "px").lower()
    elif isinstance(value, Mapping) and set(value) == {"value", "unit"}:
        raw, unit = value["value"], value["unit"]
        if isinstance(raw, bool) or not isinstance(raw, int | float) or not isinstance(unit, str):
            raise ValueError(
                f"{value!r} is not a dimension (value must be a number, unit a string)"
            )
        number, unit = float(raw), unit.lower()
    else:
        raise ValueError(f"{value!r} is not a dimension")
    if unit not in ("px", "rem"):
        raise ValueError(f"{value!r} uses unit '{unit}'; only px and rem are supported")
    if not math.isfinite(number) or number < 0:
        raise ValueError(f"{value!r} is not a non-negative finite size")
    return number * REM_PX if unit == "rem" else number


def font_family(value: Any) -> str:
    """A CSS font-family list from a string or a list of names."""
    if isinstance(value, str) and value.strip():
        return value.strip()
    if isinstance(value, list) and value and all(isinstance(v, str) and v.strip() for v in value):
        return ", ".join(_quote_family(v.strip()) for v in value)
    raise ValueError(f"{value!r} is not a font family (a name or a list of names)")


def _quote_family(name: str) -> str:
    # Multi-word family names are quoted in CSS; generic families and quoted names are not.
    if " " in name and not name.startswith(("'", '"')):
        return f'"{name}"'
    return name


def color_value(value: Any) -> RGBA:
    """A colour from a CSS string, an ``{r,g,b,a}`` object or a DTCG colour object."""
    if isinstance(value, Mapping) and ("colorSpace" in value or "components" in value):
        return _dtcg_color(value)
    try:
        return parse_color(value)
    except InputError as exc:
        raise ValueError(str(exc)) from exc


def _dtcg_color(value: Mapping[str, Any]) -> RGBA:
    """DTCG ``{"colorSpace", "components", "alpha"?, "hex"?}``; components win over ``hex``."""
    space = value.get("colorSpace")
    components = value.get("components")
    alpha = value.get("alpha", 1.0)
    if not isinstance(space, str) or space not in _DTCG_SPACES:
        raise ValueError(f"colorSpace {space!r} is not one of {', '.join(sorted(_DTCG_SPACES))}")
    if not isinstance(components, list) or len(components) != 3:
        raise ValueError(f"components {components!r} must be a list of three numbers or 'none'")
    coords: list[float] = []
    for index, component in enumerate(components):
        if component == "none":
            coords.append(math.nan)
        elif isinstance(component, int | float) and not isinstance(component, bool):
            scale = 100.0 if index in _PERCENT_COMPONENTS.get(space, ()) else 1.0
            coords.append(float(component) / scale)
        else:
            raise ValueError(f"component {component!r} must be a number or 'none'")
    if isinstance(alpha, bool) or not isinstance(alpha, int | float) or not 0 <= alpha <= 1:
        raise ValueError(f"alpha {alpha!r} must be a number within 0-1")
    return from_components(space, coords, float(alpha))
