"""The PBIR visual-type reference the linter checks ``visualType`` and ``displayOption`` against.

Argus ships its own copy as package data (``pbir-visual-types.json`` beside this module);
``--visual-types PATH`` points at another. A reference that cannot be read or does not have
the expected shape raises ReferenceUnavailable: the PBIR checks that need it could not be
verified (exit 3), which is never a pass and never a failure.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from argus.errors import ArgusError
from argus.io import loads_json


class ReferenceUnavailable(ArgusError):
    """The visual-type reference is absent or unreadable: could not verify."""

    exit_code = 3


@dataclass(frozen=True)
class VisualTypes:
    roles: Mapping[str, tuple[str, ...]]  # visualType -> its query roles (empty: decorative)
    display_options: frozenset[str]
    source: str

    def is_data_visual(self, visual_type: str) -> bool:
        return bool(self.roles.get(visual_type))


def _parse(text: str, source: str) -> VisualTypes:
    try:
        doc = loads_json(text)
    except json.JSONDecodeError as exc:
        raise ReferenceUnavailable(f"{source}: visual-type reference is not JSON") from exc
    types = doc.get("visual_types") if isinstance(doc, dict) else None
    options = doc.get("page_display_options") if isinstance(doc, dict) else None
    if not isinstance(types, dict) or not types or not isinstance(options, list):
        raise ReferenceUnavailable(
            f"{source}: visual-type reference lacks visual_types or page_display_options"
        )
    roles: dict[str, tuple[str, ...]] = {}
    for name, entry in types.items():
        listed = entry.get("query_roles") if isinstance(entry, dict) else None
        if not isinstance(listed, list) or not all(isinstance(r, str) for r in listed):
            raise ReferenceUnavailable(f"{source}: {name}: query_roles must be a list of names")
        roles[str(name)] = tuple(listed)
    return VisualTypes(roles, frozenset(str(o) for o in options), source)


def load_visual_types(path: Path | None = None) -> VisualTypes:
    """The packaged reference, or the one at ``path``."""
    if path is None:
        source = "argus/layout/pbir-visual-types.json"
        try:
            text = resources.files("argus.layout").joinpath("pbir-visual-types.json").read_text()
        except (OSError, UnicodeDecodeError) as exc:
            raise ReferenceUnavailable(f"{source}: packaged reference unreadable") from exc
        return _parse(text, source)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ReferenceUnavailable(f"{path}: visual-type reference unreadable") from exc
    return _parse(text, str(path))
