"""Design tokens: one model loaded from the seed's tokens.json shape or a W3C DTCG file.

    tokens = load_tokens(Path("argus/specs/habits/tokens.json"))
    tokens.color("textPrimary", "dark")          # -> RGBA
    tokens.nearest_color(rgba, "light")          # -> ("textPrimary", 0.4)

The format is detected: any object carrying ``$value`` makes the file DTCG; otherwise a
top-level ``colors`` object makes it the seed shape.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from argus.errors import InputError
from argus.io import read_json
from argus.tokens._dtcg import is_dtcg, read_dtcg_tokens
from argus.tokens._seed_format import is_seed_shape, read_seed_tokens
from argus.tokens.model import ALL_APPEARANCES, Tokens

__all__ = ["ALL_APPEARANCES", "Tokens", "load_tokens"]


def load_tokens(path: Path) -> Tokens:
    """Read and validate a tokens file; any problem is one InputError line naming the file."""
    doc = read_json(path, what="tokens file")
    if not isinstance(doc, Mapping):
        raise InputError(f"{path}: tokens file must be a JSON object")
    if is_dtcg(doc):
        return read_dtcg_tokens(doc, path)
    if is_seed_shape(doc):
        return read_seed_tokens(doc, path)
    raise InputError(
        f"{path}: not a tokens file: expected a top-level 'colors' object (Argus shape) "
        f"or design tokens with '$value' (W3C DTCG format)"
    )
