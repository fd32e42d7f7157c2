"""The schemas of the files Argus reads: JSON Schemas (draft 2020-12) shipped with the package
(``json/``), their loaders and validation, and the rubric.

Every JSON file Argus reads from a user or from a judge is checked here first, so the rest of
the code can rely on its shape. Errors name the file and the JSON path of the offending value.
"""

from __future__ import annotations

from argus.schemas._validation import (
    SCHEMA_NAMES,
    schema,
    schema_violations,
    validate,
    validate_errors,
)
from argus.schemas.rubric import Dimension, Rubric, load_rubric

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
