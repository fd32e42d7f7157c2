"""Argus's file contracts: JSON Schemas (draft 2020-12) shipped with the package, and loaders.

Every JSON file Argus reads from a user or from a judge is checked here first, so the rest of
the code can rely on its shape. Errors name the file and the JSON path of the offending value.
"""

from __future__ import annotations

from argus.contracts.rubric import Dimension, Rubric, load_rubric
from argus.contracts.validation import (
    SCHEMA_NAMES,
    schema,
    schema_violations,
    validate,
    validate_errors,
)

__all__ = [
    "SCHEMA_NAMES",
    "Dimension",
    "Rubric",
    "load_rubric",
    "schema",
    "schema_violations",
    "validate",
    "validate_errors",
]
