"""Which scale a size token belongs to: spacing, type or radius.

DTCG has one ``dimension`` type for every size, so the scale is read from the token's name:
the first path segment that is a known word decides (``font.size.body`` is type,
``space.md`` is spacing, ``radius.sm`` is a radius). Types that already say which scale they
are (Tokens Studio's ``spacing``, ``borderRadius``, ``fontSizes``) need no name.
"""

from __future__ import annotations

import enum


class ScaleKind(enum.Enum):
    SPACING = "spacing"
    TYPE = "type"
    RADIUS = "radius"


_BY_TYPE = {
    "spacing": ScaleKind.SPACING,
    "borderRadius": ScaleKind.RADIUS,
    "fontSize": ScaleKind.TYPE,
    "fontSizes": ScaleKind.TYPE,
}
# Types whose scale comes from the name.
_GENERIC_SIZE_TYPES = frozenset({"dimension", "sizing"})

_WORDS = {
    ScaleKind.RADIUS: {
        "radius", "radii", "borderradius", "rounded", "rounding", "corner", "corners",
    },
    ScaleKind.TYPE: {
        "fontsize", "fontsizes", "font", "fonts", "type", "typescale", "typography", "text",
    },
    ScaleKind.SPACING: {
        "spacing", "space", "spaces", "spacer", "spacers", "gap", "gaps", "gutter", "gutters",
        "inset", "margin", "margins", "padding", "paddings",
    },
}  # fmt: skip


def scale_kind(token_type: str, name: str) -> ScaleKind | None:
    """The scale of a size token, or None when it is not a size or the name does not say."""
    if token_type in _BY_TYPE:
        return _BY_TYPE[token_type]
    if token_type not in _GENERIC_SIZE_TYPES:
        return None
    for segment in name.split("."):
        word = segment.lower().replace("-", "").replace("_", "")
        for kind, words in _WORDS.items():
            if word in words:
                return kind
    return None
