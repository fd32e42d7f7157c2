from __future__ import annotations

import json

import pytest

from argus.schemas import SCHEMA_NAMES, schema
from tests.conftest import RunArgus


@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_schema_prints_each_schema_as_json(run_argus: RunArgus, name: str) -> None:
    result = run_argus("schema", name)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == schema(name)
    assert result.stderr == ""


def test_schema_without_name_lists_the_names(run_argus: RunArgus) -> None:
    result = run_argus("schema")
    assert result.returncode == 0
    assert result.stdout.split() == list(SCHEMA_NAMES)


def test_unknown_schema_exits_2_with_one_line_listing_names(run_argus: RunArgus) -> None:
    result = run_argus("schema", "specification")
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("argus: unknown schema 'specification'")
    assert all(name in lines[0] for name in SCHEMA_NAMES)
    assert "Traceback" not in result.stderr
