"""Colour roles: which uses a colour token serves, and in which appearances.

A palette check asks "is this colour a token?"; a role asks "is it this token's place?". The
danger red on a discount and a dark view painted with the light surface are both on the
palette, and both wrong.

Seed shape, a ``color_roles`` section keyed by colour token::

    "color_roles": {"danger": {"only": ["role=alert", "[data-testid=cart.remove]"]},
                    "surface-light": {"appearances": ["light"]}}

DTCG: the same object under a colour token's ``$extensions.argus``.

``only`` lists where the colour may be shown: ``#id``, ``[data-testid=x]``, a bare id, test
id or tag, or ``role=NAME`` (an ARIA role); the element showing it or one of its ancestors must
match. ``appearances`` lists the appearances the token belongs to; without it, a token that has
one value for every appearance and whose name has a ``light`` or ``dark`` segment
(``surface-dark``, ``dark.bg``) belongs to that appearance alone.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

_SEGMENTS = re.compile(r"[-_.\s/]+")


@dataclass(frozen=True)
class ColorRole:
    only: tuple[str, ...] = ()  # where the colour may be shown; empty: anywhere
    appearances: tuple[str, ...] = ()  # the appearances it belongs to; empty: all


def color_role(value: Any) -> ColorRole:
    """A role from its JSON object; ValueError with the reason otherwise."""
    if not isinstance(value, Mapping):
        raise ValueError("a colour role is an object with 'only' and/or 'appearances'")
    unknown = [k for k in value if k not in ("only", "appearances") and not k.startswith("_")]
    if unknown:
        raise ValueError(f"unknown colour-role key '{unknown[0]}' (use only, appearances)")
    return ColorRole(_strings(value, "only"), _strings(value, "appearances"))


def _strings(value: Mapping[str, Any], key: str) -> tuple[str, ...]:
    raw = value.get(key, [])
    if not isinstance(raw, list) or not all(isinstance(v, str) and v.strip() for v in raw):
        raise ValueError(f"'{key}' must be a list of non-empty strings")
    return tuple(v.strip() for v in raw)


def inferred_appearance(name: str, known: tuple[str, ...]) -> str | None:
    """``light`` or ``dark`` when a segment of the token's name says so (and the file does not
    split that token by appearance)."""
    segments = {s.lower() for s in _SEGMENTS.split(name) if s}
    found = [a for a in ("light", "dark") if a in segments and (not known or a in known)]
    return found[0] if len(found) == 1 else None
