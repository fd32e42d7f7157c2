from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from argus.errors import InputError
from argus.schemas import Dimension, load_rubric
from argus.schemas.rubric import default_rubric_text

DEFAULT_DIMENSIONS = {
    "visual_fidelity": (2.0, "reference"),
    "token_compliance": (1.0, "design-system"),
    "layout_spacing": (1.0, "design-system"),
    "typography": (1.0, "design-system"),
    "hierarchy": (1.0, "design-system"),
    "functional_correctness": (2.0, "spec-text"),
    "accessibility": (1.0, "spec-text"),
}


def test_default_rubric_has_the_seven_dimensions_in_order() -> None:
    rubric = load_rubric(None)
    assert rubric.names == tuple(DEFAULT_DIMENSIONS)
    for name, (weight, anchor) in DEFAULT_DIMENSIONS.items():
        dim = rubric.dimensions[name]
        assert (dim.weight, dim.anchor, dim.threshold) == (weight, anchor, 1.0)
        assert dim.description
    assert rubric.source is None


def test_default_rubric_loop_budget() -> None:
    rubric = load_rubric()
    assert rubric.consecutive_passes_required == 2
    assert rubric.max_attempts_per_dimension == 3
    assert rubric.max_iterations_default == 12


def test_rubric_is_frozen() -> None:
    rubric = load_rubric()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rubric.version = "2"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        rubric.dimensions["typography"].threshold = 0  # type: ignore[misc]


def test_feature_rubric_file_replaces_the_default(tmp_path: Path) -> None:
    data = json.loads(default_rubric_text())
    data["loop"]["max_iterations_default"] = 5
    data["dimensions"] = {
        "typography": {
            "weight": 3,
            "threshold": 0.5,
            "anchor": "design-system",
            "description": "sizes",
        }
    }
    path = tmp_path / "rubric.json"
    path.write_text(json.dumps(data))
    rubric = load_rubric(path)
    assert rubric.names == ("typography",)
    assert rubric.dimensions["typography"] == Dimension(3.0, 0.5, "design-system", "sizes")
    assert rubric.max_iterations_default == 5
    assert rubric.source == path


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            lambda d: d["dimensions"]["typography"].update(threshold=0.7),
            "$.dimensions.typography.threshold",
        ),
        (
            lambda d: d["dimensions"]["typography"].update(anchor="vibes"),
            "$.dimensions.typography.anchor",
        ),
        (
            lambda d: d["loop"].update(consecutive_passes_required=0),
            "$.loop.consecutive_passes_required",
        ),
        (lambda d: d.update(dimensions={}), "$.dimensions"),
        (
            lambda d: d["dimensions"].update({"Bad Name": d["dimensions"]["typography"]}),
            "$.dimensions",
        ),
    ],
)
def test_invalid_rubric_names_file_and_path(tmp_path: Path, change: object, expected: str) -> None:
    data = json.loads(default_rubric_text())
    change(data)  # type: ignore[operator]
    path = tmp_path / "rubric.json"
    path.write_text(json.dumps(data))
    with pytest.raises(InputError) as info:
        load_rubric(path)
    assert str(info.value).startswith(f"{path}: {expected}")


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (None, "rubric not found"),
        (b"{nope", "not valid JSON"),
        (b"[1, 2]", "is not of type 'object'"),
    ],
)
def test_unreadable_rubric_is_an_input_error(
    tmp_path: Path, content: bytes | None, expected: str
) -> None:
    path = tmp_path / "rubric.json"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(InputError, match=expected):
        load_rubric(path)
