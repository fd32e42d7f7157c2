"""Pydantic models of the files Argus reads and writes; each file's JSON Schema is generated
from its model here, never written beside it.

Imported only when a schema is needed (validation or ``argus schema``): pydantic stays off
the path of the light commands.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["generated_schema"]

# Schema name -> the module whose PUBLISHED holds its model.
_MODULES: dict[str, str] = {
    "rubric": "rubric",
    "verdict": "verdict",
    "gate-result": "gate_result",
    "loop-state": "loop_state",
    "signoff": "signoff",
    "contract": "contract",
}


def generated_schema(name: str) -> dict[str, Any] | None:
    """The schema generated from ``name``'s model, or None when ``name`` has no model yet."""
    module = _MODULES.get(name)
    if module is None:
        return None
    published = importlib.import_module(f"{__name__}.{module}").PUBLISHED
    schema: dict[str, Any] = published.schema(name)
    return schema
