from __future__ import annotations

import json

from argus.schemas import validate_errors
from tests.conftest import REPO_ROOT


def test_the_spec_example_in_the_docs_is_valid() -> None:
    text = (REPO_ROOT / "docs" / "spec.md").read_text()
    example = text.split("## spec.json reference", 1)[1].split("```json", 1)[1].split("```", 1)[0]
    assert validate_errors("spec", json.loads(example)) == []
