"""The JSON Schemas of Argus's files, and validating documents against them.

Every schema is generated from its file's pydantic model (``argus.schemas.models``), never
written beside it; ``argus schema NAME`` prints it. A process reads a schema an earlier one
generated from the package's bytecode cache when its key still holds (``_cache``).
"""

from __future__ import annotations

import copy
import functools
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match

from argus.errors import InputError
from argus.schemas._cache import cached_schema

SCHEMA_NAMES: tuple[str, ...] = (
    "spec",
    "rubric",
    "verdict",
    "gate-result",
    "loop-state",
    "signoff",
    "contract",
)

# A message quotes the offending value; a huge object would drown the one line we print.
_MAX_MESSAGE = 200


def _check_name(name: str) -> None:
    if name not in SCHEMA_NAMES:
        raise InputError(f"unknown schema '{name}'; choose one of: {', '.join(SCHEMA_NAMES)}")


@functools.cache
def _schema(name: str) -> dict[str, Any]:
    return cached_schema(name)


@functools.cache
def _validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(_schema(name))


def schema(name: str) -> dict[str, Any]:
    """The schema called ``name`` (one of SCHEMA_NAMES), as a fresh dict the caller may change."""
    _check_name(name)
    return copy.deepcopy(_schema(name))


def _plain_message(error: ValidationError) -> str:
    # `"not": {"required": [key]}` forbids a key; jsonschema's own wording quotes both schemas.
    forbidden = error.validator_value if error.validator == "not" else None
    if isinstance(forbidden, dict) and list(forbidden) == ["required"]:
        keys = ", ".join(repr(k) for k in forbidden["required"])
        return f"{keys} is not allowed here"
    return error.message


def _locate(error: ValidationError) -> tuple[str, str]:
    # Descend into oneOf/anyOf failures to the branch that explains the problem best.
    leaf = best_match([error])
    message = " ".join(_plain_message(leaf).split())
    if len(message) > _MAX_MESSAGE:
        message = message[: _MAX_MESSAGE - 1] + "…"
    return leaf.json_path, message


def _path_key(error: ValidationError) -> list[tuple[int, int, str]]:
    # Array indices sort numerically and before keys, so targets[2] comes before targets[10].
    return [(0, p, "") if isinstance(p, int) else (1, 0, str(p)) for p in error.absolute_path]


def _sorted_errors(name: str, data: Any) -> list[ValidationError]:
    errors = _validator(name).iter_errors(data)
    # Document order, shallow before deep, so "the first error" is stable between runs.
    return sorted(errors, key=lambda e: (_path_key(e), str(e.validator)))


def schema_violations(name: str, data: Any) -> list[tuple[str, str]]:
    """Every schema violation in ``data`` as (JSON path, message) pairs; [] when valid."""
    _check_name(name)
    return [_locate(error) for error in _sorted_errors(name, data)]


def validate_errors(name: str, data: Any) -> list[str]:
    """Every schema violation in ``data``, each as ``$.json.path: message``; [] when valid."""
    return [f"{path}: {message}" for path, message in schema_violations(name, data)]


def validate(name: str, data: Any, source: Path) -> None:
    """Raise InputError naming ``source`` and the JSON path of the first violation."""
    errors = validate_errors(name, data)
    if errors:
        more = f" (+{len(errors) - 1} more)" if len(errors) > 1 else ""
        raise InputError(f"{source}: {errors[0]}{more}; see 'argus schema {name}'")
