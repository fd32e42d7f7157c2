"""Helpers for token tests: write a document to a temporary tokens.json."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

WriteTokens = Callable[[Any], Path]


@pytest.fixture
def write_tokens(tmp_path: Path) -> WriteTokens:
    def write(doc: Any, name: str = "tokens.json") -> Path:
        path = tmp_path / name
        path.write_text(json.dumps(doc) if not isinstance(doc, str) else doc, encoding="utf-8")
        return path

    return write
