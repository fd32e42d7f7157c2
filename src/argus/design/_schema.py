"""Design-schema files, read into one model whatever their shape.

Two shapes are recognised:

- the seed's (what ``argus design extract`` writes)::

    {"source": {"url", "fetched_at", "title"?}, "capture_method": "computed",
     "spacing": {"base_unit", "scale": [], "capture_method"},
     "type_scale": {"base_size", "ratio", "sizes": [], "capture_method"},
     "grid": {"breakpoints": [], "columns", "gutter", "container_max", "capture_method"},
     "elevation": {"shadows": [], "capture_method"},
     "components": {...}, "identity_flags": {...}, "confidence_notes": [...]}

- Argus's flat one: ``{spacing_base, type_ratio, elevation_levels, breakpoints, components}``.

A file in neither shape, or a seed-shaped one missing a section or a section's key field, is
``Unrecognised`` with the reason: a comparison over it is "not captured", never a pass.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

FLAT_KEYS = ("spacing_base", "type_ratio", "elevation_levels", "breakpoints", "components")
SEED_SECTIONS = {
    "spacing": ("base_unit", "scale"),
    "type_scale": ("base_size", "ratio", "sizes"),
    "grid": ("breakpoints",),
    "elevation": ("shadows",),
}


@dataclass(frozen=True)
class DesignSystem:
    shape: str  # seed | flat
    spacing_base: float | None
    type_ratio: float | None
    elevation_levels: int | None
    breakpoints: tuple[str, ...] | None
    components: tuple[str, ...] | None


@dataclass(frozen=True)
class Unrecognised:
    reason: str  # a fixed phrase: never text from the file


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def _breakpoint(value: Any) -> str:
    """640, "640px" and {"min_width": 640} are one breakpoint, named "640"."""
    if isinstance(value, dict):
        value = value.get("min_width", value.get("width", value.get("name")))
    number = _number(value)
    if number is None and isinstance(value, str) and value.strip().endswith("px"):
        number = _number(_float_or_none(value.strip()[:-2]))
    return f"{number:g}" if number is not None else str(value)


def _float_or_none(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _names(value: Any) -> tuple[str, ...] | None:
    if isinstance(value, dict):
        return tuple(str(k) for k in value)
    if isinstance(value, list):
        return tuple(str(v.get("name")) if isinstance(v, dict) else str(v) for v in value)
    return None


def _seed(doc: dict[str, Any]) -> DesignSystem | Unrecognised:
    for section, fields in SEED_SECTIONS.items():
        body = doc.get(section)
        if not isinstance(body, dict):
            return Unrecognised(f"partial: no {section} section")
        for name in fields:
            if name not in body:
                return Unrecognised(f"partial: {section}.{name} missing")
    if not isinstance(doc.get("components"), dict | list):
        return Unrecognised("partial: no components")
    spacing, types = doc["spacing"], doc["type_scale"]
    base = _number(spacing["base_unit"])
    ratio = types["ratio"]
    if spacing["base_unit"] is not None and base is None:
        return Unrecognised("invalid: spacing.base_unit is not a number")
    if ratio is not None and _number(ratio) is None:
        return Unrecognised("invalid: type_scale.ratio is not a number")
    shadows, points = doc["elevation"]["shadows"], doc["grid"]["breakpoints"]
    if not isinstance(shadows, list) or not isinstance(points, list):
        return Unrecognised("invalid: elevation.shadows and grid.breakpoints must be lists")
    return DesignSystem(
        shape="seed",
        spacing_base=base,
        type_ratio=_number(ratio),
        elevation_levels=len(shadows),
        breakpoints=tuple(_breakpoint(p) for p in points),
        components=_names(doc["components"]),
    )


def read_design_system(doc: Any) -> DesignSystem | Unrecognised:
    if not isinstance(doc, dict):
        return Unrecognised("not a JSON object")
    if any(section in doc for section in SEED_SECTIONS) or "capture_method" in doc:
        return _seed(doc)
    if any(key in doc for key in FLAT_KEYS):
        levels = _number(doc.get("elevation_levels"))
        points = doc.get("breakpoints")
        return DesignSystem(
            shape="flat",
            spacing_base=_number(doc.get("spacing_base")),
            type_ratio=_number(doc.get("type_ratio")),
            elevation_levels=None if levels is None else int(levels),
            breakpoints=tuple(_breakpoint(p) for p in points) if isinstance(points, list) else None,
            components=_names(doc.get("components")),
        )
    return Unrecognised("unrecognised: neither the seed's design-schema shape nor Argus's flat one")
