"""Counts tied to fixture data: the length of an array inside a fixture JSON file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from argus.errors import InputError
from argus.io import read_json


def fixture_count(path: Path, pointer: str) -> int:
    """Length of the array at JSON Pointer (RFC 6901) ``pointer`` in the JSON file ``path``."""
    node: Any = read_json(path, what="fixture file")
    if pointer and not pointer.startswith("/"):
        raise InputError(f"{path}: JSON Pointer '{pointer}' must be empty or start with '/'")
    for raw in pointer.split("/")[1:]:
        key = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and key in node:
            node = node[key]
        elif isinstance(node, list) and key.isdigit() and int(key) < len(node):
            node = node[int(key)]
        else:
            raise InputError(f"{path}: JSON Pointer '{pointer}' finds nothing at '{key}'")
    if not isinstance(node, list):
        raise InputError(
            f"{path}: JSON Pointer '{pointer}' points at {type(node).__name__}, not an array"
        )
    return len(node)
