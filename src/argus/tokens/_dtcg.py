"""Reader for W3C Design Tokens Community Group (DTCG) files.

A token is an object with ``$value`` (and optionally ``$type``, ``$description``,
``$extensions``); any other object is a group, whose ``$type`` its tokens inherit. Names are
flattened with dots (``color.text.primary``); ``$root`` inside a group names the group itself.
A value that is exactly ``{some.token}`` is an alias, resolved transitively.

Appearances (light/dark/...) come from two conventions, which may be mixed:

* per token: ``"$extensions": {"mode": {"dark": "#000"}}`` overrides ``$value`` in the named
  appearance (``$value`` serves every appearance ``mode`` does not list, and is the default
  appearance ``light`` when no mode names ``light``);
* per file: top-level groups named like an appearance (``light``, ``dark``, ``light-*``,
  ``dark-*``) hold that appearance's tokens; other top-level groups are shared.

Aliases are resolved per appearance, so ``{color.accent}`` in a shared token takes the
accent of whichever appearance is being resolved.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from argus.color import RGBA
from argus.errors import InputError
from argus.tokens._classify import ScaleKind, scale_kind
from argus.tokens._typeroles import TypeRole, type_role
from argus.tokens._values import color_value, dimension_px, font_family
from argus.tokens.colorroles import ColorRole, color_role
from argus.tokens.model import ALL_APPEARANCES, Tokens

_ALIAS = re.compile(r"\{([^{}]+)\}")
_APPEARANCE_GROUP = re.compile(r"(light|dark)([-_][A-Za-z0-9_-]+)?")
SHARED = "*"
# The appearance ``$value`` stands for when ``$extensions.mode`` does not name it (convention).
DEFAULT_APPEARANCE = "light"


@dataclass
class _RawToken:
    name: str
    type: str | None
    value: Any
    modes: dict[str, Any] = field(default_factory=dict)
    argus: Any = None  # $extensions.argus (a colour token's role)


def is_dtcg(doc: Any) -> bool:
    """True when any object in the document carries ``$value``."""
    if isinstance(doc, Mapping):
        return "$value" in doc or any(is_dtcg(v) for v in doc.values())
    return False


def read_dtcg_tokens(doc: Mapping[str, Any], source: Path) -> Tokens:
    layers: dict[str, dict[str, _RawToken]] = {SHARED: {}}
    for key, child in doc.items():
        if key.startswith("$"):
            continue
        is_layer = (
            _APPEARANCE_GROUP.fullmatch(key)
            and isinstance(child, Mapping)
            and "$value" not in child
        )
        layer = key if is_layer else SHARED
        path = [] if is_layer else [key]
        _walk(child, path, doc.get("$type"), layers.setdefault(layer, {}), source)
    appearances = _appearances(layers)
    return _Resolver(layers, source).build(appearances)


def _walk(
    node: Any, path: list[str], inherited_type: Any, out: dict[str, _RawToken], source: Path
) -> None:
    name = ".".join(path)
    if not isinstance(node, Mapping):
        raise InputError(
            f"{source}: '{name}' is neither a token (an object with $value) nor a group"
        )
    if "$value" in node:
        children = [k for k in node if not k.startswith("$")]
        if children:
            raise InputError(f"{source}: token '{name}' has $value and a child '{children[0]}'")
        token_type = node.get("$type", inherited_type)
        if token_type is not None and not isinstance(token_type, str):
            raise InputError(f"{source}: token '{name}': $type must be a string")
        extensions = node.get("$extensions")
        argus = extensions.get("argus") if isinstance(extensions, Mapping) else None
        out[name] = _RawToken(name, token_type, node["$value"], _modes(node, name, source), argus)
        return
    group_type = node.get("$type", inherited_type)
    for key, child in node.items():
        if key == "$root":
            _walk(child, path, group_type, out, source)
        elif not key.startswith("$"):
            if any(c in key for c in ".{}"):
                raise InputError(f"{source}: name '{key}' in '{name}' contains '.', '{{' or '}}'")
            _walk(child, [*path, key], group_type, out, source)


def _modes(node: Mapping[str, Any], name: str, source: Path) -> dict[str, Any]:
    extensions = node.get("$extensions", {})
    modes = extensions.get("mode", {}) if isinstance(extensions, Mapping) else {}
    if not isinstance(modes, Mapping):
        raise InputError(f"{source}: token '{name}': $extensions.mode must map appearance: value")
    return dict(modes)


def _appearances(layers: Mapping[str, Mapping[str, _RawToken]]) -> tuple[str, ...]:
    """Every appearance group and mode name, in file order.

    With ``$extensions.mode``, ``$value`` is the value of every appearance the modes do not
    name, so it is an appearance of its own: when no mode and no group is called
    ``light``, the default appearance ``light`` is put first (a file whose modes name only
    ``dark`` keeps its ``$value`` colours, and contrast checks measure them).
    """
    found: list[str] = [layer for layer in layers if layer != SHARED]
    uses_modes = False
    for tokens in layers.values():
        for token in tokens.values():
            uses_modes = uses_modes or bool(token.modes)
            found.extend(m for m in token.modes if m not in found)
    if uses_modes and DEFAULT_APPEARANCE not in found:
        found.insert(0, DEFAULT_APPEARANCE)
    return tuple(found)


class _Resolver:
    """Resolves aliases per appearance and sorts the tokens into the model's maps."""

    def __init__(self, layers: Mapping[str, Mapping[str, _RawToken]], source: Path) -> None:
        self.layers = layers
        self.source = source
        self.done: dict[tuple[str, str], tuple[str | None, Any]] = {}
        self.namespaces: dict[str, dict[str, _RawToken]] = {}
        self.roles: dict[str, TypeRole] = {}
        self.roles_by_colour: dict[str, ColorRole] = {}

    def build(self, appearances: tuple[str, ...]) -> Tokens:
        colors: dict[str, dict[str, RGBA]] = {}
        scales: dict[ScaleKind, dict[str, float]] = {kind: {} for kind in ScaleKind}
        fonts: dict[str, str] = {}
        for appearance in appearances or (SHARED,):
            for name in self.namespace(appearance):
                token_type, value = self.resolve(name, appearance, ())
                self.sort(name, appearance, token_type, value, colors, scales, fonts)
        return Tokens(
            source=self.source,
            appearances=appearances,
            colors={name: _collapse(values, appearances) for name, values in colors.items()},
            spacing=scales[ScaleKind.SPACING],
            type_scale=scales[ScaleKind.TYPE],
            radii=scales[ScaleKind.RADIUS],
            font_families=fonts,
            format="dtcg",
            type_roles=self.roles,
            color_roles=self.roles_by_colour,
        )

    def namespace(self, appearance: str) -> dict[str, _RawToken]:
        """Shared tokens overlaid by the appearance's own top-level group, if any."""
        if appearance not in self.namespaces:
            merged = {**self.layers[SHARED], **self.layers.get(appearance, {})}
            self.namespaces[appearance] = merged
        return self.namespaces[appearance]

    def resolve(self, name: str, appearance: str, chain: tuple[str, ...]) -> tuple[str | None, Any]:
        """The token's type and fully resolved value in ``appearance``."""
        key = (name, appearance)
        if key in self.done:
            return self.done[key]
        if name in chain:
            cycle = " -> ".join(f"{{{n}}}" for n in (*chain[chain.index(name) :], name))
            raise InputError(f"{self.source}: alias cycle {cycle}")
        token = self.namespace(appearance)[name]
        raw = token.modes.get(appearance, token.value)
        target = _alias_target(raw)
        if target is not None:
            target_type, value = self.resolve_alias(target, name, appearance, (*chain, name))
            resolved = (token.type or target_type, value)
        else:
            resolved = (token.type, self.resolve_inner(raw, name, appearance, (*chain, name)))
        self.done[key] = resolved
        return resolved

    def resolve_alias(
        self, target: str, referrer: str, appearance: str, chain: tuple[str, ...]
    ) -> tuple[str | None, Any]:
        if target not in self.namespace(appearance):
            where = "" if appearance == SHARED else f" in appearance '{appearance}'"
            raise InputError(
                f"{self.source}: token '{referrer}' refers to {{{target}}}, "
                f"which is not defined{where}"
            )
        return self.resolve(target, appearance, chain)

    def resolve_inner(
        self, value: Any, referrer: str, appearance: str, chain: tuple[str, ...]
    ) -> Any:
        """Aliases inside composite values (a typography token's fontSize, say)."""
        if isinstance(value, Mapping):
            return {k: self.resolve_inner(v, referrer, appearance, chain) for k, v in value.items()}
        if isinstance(value, list):
            return [self.resolve_inner(v, referrer, appearance, chain) for v in value]
        target = _alias_target(value)
        if target is not None:
            return self.resolve_alias(target, referrer, appearance, chain)[1]
        return value

    def sort(
        self,
        name: str,
        appearance: str,
        token_type: str | None,
        value: Any,
        colors: dict[str, dict[str, RGBA]],
        scales: dict[ScaleKind, dict[str, float]],
        fonts: dict[str, str],
    ) -> None:
        token_type = token_type or _infer_type(value)
        try:
            if token_type == "color":
                colors.setdefault(name, {})[appearance] = color_value(value)
                extension = self.namespace(appearance)[name].argus
                if extension is not None:
                    self.roles_by_colour[name] = color_role(extension)
            elif token_type in ("fontFamily", "fontFamilies"):
                self.put(fonts, name, font_family(value))
            elif token_type == "typography" and isinstance(value, Mapping):
                if "fontSize" in value:
                    self.put(scales[ScaleKind.TYPE], name, dimension_px(value["fontSize"]))
                    role = type_role(
                        name,
                        value,
                        size_key="fontSize",
                        weight_key="fontWeight",
                        line_key="lineHeight",
                        spacing_key="letterSpacing",
                    )
                    self.put(self.roles, name, role)
                if "fontFamily" in value:
                    self.put(fonts, name, font_family(value["fontFamily"]))
            elif token_type is not None:
                kind = scale_kind(token_type, name)
                if kind is not None:
                    self.put(scales[kind], name, dimension_px(value))
        except ValueError as exc:
            raise InputError(f"{self.source}: token '{name}': {exc}") from exc

    def put(self, scale: dict[str, Any], name: str, value: Any) -> None:
        # Sizes and fonts do not vary by appearance in the model: refuse a file where they do.
        if scale.get(name, value) != value:
            raise InputError(
                f"{self.source}: token '{name}' differs between appearances "
                f"({scale[name]!r} vs {value!r}); only colours may vary by appearance"
            )
        scale[name] = value


def _alias_target(value: Any) -> str | None:
    if isinstance(value, str):
        match = _ALIAS.fullmatch(value.strip())
        if match:
            return match.group(1).strip()
    return None


def _infer_type(value: Any) -> str | None:
    """A type for an untyped token whose value leaves no doubt (a colour or a px/rem size)."""
    for token_type, reader in (("color", color_value), ("dimension", dimension_px)):
        if isinstance(value, str | Mapping):
            try:
                reader(value)
            except ValueError:
                continue
            return token_type
    return None


def _collapse(values: dict[str, RGBA], appearances: tuple[str, ...]) -> dict[str, RGBA]:
    """Store a colour that is the same in every appearance once, under ``"*"``."""
    if SHARED in values:
        return {ALL_APPEARANCES: values[SHARED]}
    if appearances and set(values) == set(appearances) and len(set(values.values())) == 1:
        return {ALL_APPEARANCES: next(iter(values.values()))}
    return values
