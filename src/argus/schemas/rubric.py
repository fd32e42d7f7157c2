"""The judge rubric: dimensions with their weight, threshold and anchor, plus the loop budget."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Literal, cast

from argus.io import read_json
from argus.schemas._validation import validate

Anchor = Literal["reference", "design-system", "spec-text"]


@dataclass(frozen=True)
class Dimension:
    """One scored aspect of a view; it passes when its score reaches ``threshold``."""

    weight: float
    threshold: float
    anchor: Anchor
    description: str


@dataclass(frozen=True)
class Rubric:
    """A validated rubric. ``dimensions`` keeps the file's order."""

    version: str
    dimensions: Mapping[str, Dimension]
    consecutive_passes_required: int
    max_attempts_per_dimension: int
    max_iterations_default: int
    source: Path | None = None  # None: the rubric shipped with Argus

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.dimensions)


def default_rubric_text() -> str:
    """The shipped rubric.json, verbatim (``argus init --rubric`` copies it into a feature)."""
    files = resources.files("argus.schemas").joinpath("json")
    return files.joinpath("rubric.json").read_text("utf-8")


def rubric_from_data(data: Any, source: Path | None) -> Rubric:
    """Build a Rubric from parsed JSON, validating it against the rubric schema first."""
    validate("rubric", data, source=source or Path("<built-in rubric.json>"))
    dimensions = {
        name: Dimension(
            weight=float(entry["weight"]),
            threshold=float(entry["threshold"]),
            anchor=cast(Anchor, entry["anchor"]),
            description=entry["description"],
        )
        for name, entry in data["dimensions"].items()
    }
    loop = data["loop"]
    return Rubric(
        version=data["version"],
        dimensions=dimensions,
        consecutive_passes_required=loop["consecutive_passes_required"],
        max_attempts_per_dimension=loop["max_attempts_per_dimension"],
        max_iterations_default=loop["max_iterations_default"],
        source=source,
    )


def load_rubric(path: Path | None = None) -> Rubric:
    """Load ``path`` (a feature's rubric.json), or Argus's default rubric when ``path`` is None."""
    if path is None:
        return rubric_from_data(json.loads(default_rubric_text()), None)
    return rubric_from_data(read_json(path, what="rubric"), path)
