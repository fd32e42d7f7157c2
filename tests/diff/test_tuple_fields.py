"""The records the light ``argus diff`` path builds are NamedTuples to mypy and tuples made by
``collections.namedtuple`` at run time (so the process does not import ``typing``): both
spell the same fields, in the same order."""

from __future__ import annotations

import ast
import importlib
import inspect

import pytest

RECORDS = [
    ("argus.diff.pngcheck", "PngHeader", "_HeaderFields"),
    ("argus.diff.samepixels", "PngParts", "_PartsFields"),
    ("argus.diff._pairrows", "PlainPair", "_PairFields"),
]


def _typed_fields(module_source: str, name: str) -> tuple[str, ...]:
    for node in ast.walk(ast.parse(module_source)):
        if isinstance(node, ast.ClassDef) and node.name == name:
            assert [ast.unparse(base) for base in node.bases] == ["NamedTuple"]
            return tuple(
                item.target.id
                for item in node.body
                if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
            )
    raise AssertionError(f"no class {name}")


@pytest.mark.parametrize(("module_name", "record", "fields"), RECORDS)
def test_the_typed_and_the_run_time_fields_agree(
    module_name: str, record: str, fields: str
) -> None:
    module = importlib.import_module(module_name)
    cls = getattr(module, record)
    assert cls._fields == _typed_fields(inspect.getsource(module), fields)
    assert issubclass(cls, tuple) and cls.__slots__ == ()
    values = tuple(range(len(cls._fields)))
    made = cls(*values)
    assert made == values and repr(made).startswith(f"{record}(")
    assert made._replace(**{cls._fields[0]: 9})[0] == 9
