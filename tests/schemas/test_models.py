"""Every file's schema comes from its pydantic model, not from a schema file."""

from __future__ import annotations

import importlib
from importlib import resources

import pytest

from argus.schemas import SCHEMA_NAMES, schema
from argus.schemas.models import _MODULES, generated_schema
from tests.schemas.test_schemas import VALID

MODELLED = SCHEMA_NAMES


@pytest.mark.parametrize("name", MODELLED)
def test_the_schema_is_generated_from_the_model(name: str) -> None:
    generated = generated_schema(name)
    assert schema(name) == generated
    assert generated["$id"] == f"urn:argus:schema:{name}"
    assert generated["title"].startswith("Argus ")


def test_no_hand_written_schema_is_left_beside_the_models() -> None:
    files = resources.files("argus.schemas").joinpath("json")
    assert [f.name for f in files.iterdir() if f.name.endswith(".schema.json")] == []


def test_generated_schemas_carry_no_pydantic_titles() -> None:
    def titles(node: object, where: str) -> list[str]:
        if isinstance(node, dict):
            found = [where] if isinstance(node.get("title"), str) and where != "$" else []
            for key, value in node.items():
                if key != "properties":
                    found += titles(value, f"{where}.{key}")
                else:
                    found += [t for k, v in value.items() for t in titles(v, f"{where}.{k}")]
            return found
        if isinstance(node, list):
            return [t for i, v in enumerate(node) for t in titles(v, f"{where}[{i}]")]
        return []

    for name in MODELLED:
        assert titles(schema(name), "$") == []


@pytest.mark.parametrize("name", MODELLED)
def test_the_model_reads_a_valid_document(name: str) -> None:
    model = importlib.import_module(f"argus.schemas.models.{_MODULES[name]}").PUBLISHED.model
    document = VALID[name]()
    read = model.model_validate(document)
    assert read.model_dump(by_alias=True, exclude_unset=True) == document
