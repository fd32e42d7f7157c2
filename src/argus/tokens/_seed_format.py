"""Reader for the seed's flat tokens.json shape.

    {"colors":  {"surface": {"light": "#fff", "dark": "#0b0b0f"}, "accent": "#1a4dbd"},
     "spacing": {"sm": 8, "md": 16}, "type": {"body": 16}, "radii": {"md": 8},
     "fonts":   {"body": ["Inter", "sans-serif"]},
     "typography": {"title": {"size": 28, "weight": 700, "line_height": 32, "role": "heading"}}}

A colour is a CSS colour string or an ``{r,g,b,a}`` object (flat: every appearance), or an
object whose keys are appearance names. Keys starting with ``_`` or ``$`` are comments.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from argus.color import RGBA
from argus.errors import InputError
from argus.tokens._typeroles import TypeRole, type_role
from argus.tokens._values import color_value, dimension_px, font_family
from argus.tokens.colorroles import ColorRole, color_role
from argus.tokens.model import ALL_APPEARANCES, Tokens

SECTIONS = ("colors", "spacing", "type", "radii", "fonts", "typography", "color_roles")

T = TypeVar("T")


def is_seed_shape(doc: Any) -> bool:
    return isinstance(doc, Mapping) and "colors" in doc


def read_seed_tokens(doc: Mapping[str, Any], source: Path) -> Tokens:
    unknown = [k for k in doc if not _is_comment(k) and k not in SECTIONS]
    if unknown:
        raise InputError(
            f"{source}: unknown tokens section '{unknown[0]}' (expected {', '.join(SECTIONS)})"
        )
    colors_doc = _section(doc, "colors", source)
    colors: dict[str, dict[str, RGBA]] = {}
    appearances: list[str] = []
    for name, entry in colors_doc.items():
        if _is_comment(name):
            continue
        if isinstance(entry, Mapping) and not {"r", "g", "b"} <= set(entry):
            split = {k: v for k, v in entry.items() if not _is_comment(k)}
            if not split:
                raise InputError(f"{source}: colour token '{name}' has no value")
            colors[name] = {
                appearance: _read(source, f"colors.{name}.{appearance}", value, color_value)
                for appearance, value in split.items()
            }
            appearances.extend(a for a in split if a not in appearances)
        else:
            colors[name] = {ALL_APPEARANCES: _read(source, f"colors.{name}", entry, color_value)}
    _check_every_split_is_complete(colors, appearances, source)
    return Tokens(
        source=source,
        appearances=tuple(appearances),
        colors=colors,
        spacing=_scale(doc, "spacing", source, dimension_px),
        type_scale=_scale(doc, "type", source, dimension_px),
        radii=_scale(doc, "radii", source, dimension_px),
        font_families=_scale(doc, "fonts", source, font_family),
        format="argus",
        type_roles=_type_roles(doc, source),
        color_roles=_color_roles(doc, colors, source),
    )


def _color_roles(
    doc: Mapping[str, Any], colors: Mapping[str, Any], source: Path
) -> dict[str, ColorRole]:
    roles: dict[str, ColorRole] = {}
    for name, entry in _section(doc, "color_roles", source).items():
        if _is_comment(name):
            continue
        if name not in colors:
            raise InputError(f"{source}: color_roles names '{name}', which is no colour token")
        roles[name] = _read(source, f"color_roles.{name}", entry, color_role)
    return roles


def _type_roles(doc: Mapping[str, Any], source: Path) -> dict[str, TypeRole]:
    roles: dict[str, TypeRole] = {}
    for name, entry in _section(doc, "typography", source).items():
        if _is_comment(name):
            continue
        if not isinstance(entry, Mapping):
            raise InputError(f"{source}: token 'typography.{name}' must be an object with a size")
        roles[name] = _read(source, f"typography.{name}", (name, entry), _seed_role)
    return roles


def _seed_role(named: tuple[str, Mapping[str, Any]]) -> TypeRole:
    name, entry = named
    return type_role(
        name,
        entry,
        size_key="size",
        weight_key="weight",
        line_key="line_height",
        spacing_key="letter_spacing",
        role=entry.get("role"),
    )


def _check_every_split_is_complete(
    colors: Mapping[str, Mapping[str, RGBA]], appearances: list[str], source: Path
) -> None:
    for name, values in colors.items():
        if ALL_APPEARANCES in values:
            continue
        for appearance in appearances:
            if appearance not in values:
                raise InputError(
                    f"{source}: colour token '{name}' has no '{appearance}' value; "
                    f"give it one or make it a single colour for every appearance"
                )


def _section(doc: Mapping[str, Any], key: str, source: Path) -> Mapping[str, Any]:
    section = doc.get(key, {})
    if not isinstance(section, Mapping):
        raise InputError(f"{source}: '{key}' must be an object of name: value")
    return section


def _scale(
    doc: Mapping[str, Any], key: str, source: Path, reader: Callable[[Any], T]
) -> dict[str, T]:
    return {
        name: _read(source, f"{key}.{name}", value, reader)
        for name, value in _section(doc, key, source).items()
        if not _is_comment(name)
    }


def _read(source: Path, where: str, value: Any, reader: Callable[[Any], T]) -> T:
    try:
        return reader(value)
    except ValueError as exc:
        raise InputError(f"{source}: token '{where}': {exc}") from exc


def _is_comment(key: str) -> bool:
    return key.startswith(("_", "$"))
