"""Pydantic models of the files Argus reads and writes; each file's JSON Schema is generated
from its model here, never written beside it.

Validation has one path: jsonschema against the generated schema (``argus.schemas.validate``),
which holds the rules across keys the models carry only as schema extras (if/then/else, one-of,
unique items, key patterns). ``Model.model_validate`` alone is not that check.

Imported only when a schema is needed (validation or ``argus schema``): pydantic stays off
the path of the light commands.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["generated_schema"]

# Schema name -> the module whose PUBLISHED holds its model.
_MODULES: dict[str, str] = {
    "spec": "_spec",
    "rubric": "_rubric",
    "verdict": "_verdict",
    "gate-result": "_gate_result",
    "loop-state": "_loop_state",
    "signoff": "_signoff",
    "contract": "_contract",
}


def generated_schema(name: str) -> dict[str, Any]:
    """The JSON Schema generated from the model of the file called ``name`` (a SCHEMA_NAMES)."""
    published = importlib.import_module(f"{__name__}.{_MODULES[name]}").PUBLISHED
    schema: dict[str, Any] = published.schema(name)
    return schema
