"""argus.io.loads_json: the one JSON parser for everything Argus reads (issue 12)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from argus.errors import InputError
from argus.io import loads_json, read_json


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ('{"a": {"b": 1, "b": 2}}', "duplicate key 'b'"),
        ('[{"x": 1, "y": 2, "x": 1}]', "duplicate key 'x'"),
        ("1" * 5000, "more than 100 digits"),
        ('{"n": -' + "9" * 101 + "}", "more than 100 digits"),
        ('{"n": NaN}', "NaN"),
        ("[Infinity]", "Infinity"),
        ("[-Infinity]", "-Infinity"),
        ("[1e999]", "too large"),
    ],
)
def test_the_json_seam_refuses_what_would_pass_or_crash(
    tmp_path: Path, text: str, needle: str
) -> None:
    with pytest.raises(json.JSONDecodeError, match=needle):
        loads_json(text)
    path = _write(tmp_path, "doc.json", text)
    with pytest.raises(InputError, match=needle) as info:
        read_json(path, what="doc")
    assert "\n" not in str(info.value)


def test_the_json_seam_keeps_ordinary_json(tmp_path: Path) -> None:
    text = '{"a": [1, -2, 3.5, "x", null, true], "b": {"c": "9' + "9" * 99 + '"}}'
    assert loads_json(text) == json.loads(text)
    assert loads_json("9" * 100) == int("9" * 100)
