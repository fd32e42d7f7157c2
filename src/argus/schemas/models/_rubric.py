"""The shape of rubric.json: the judge's dimensions and the loop's convergence budget."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, StringConstraints

from argus.schemas.models._base import UNIQUE_ITEMS, Absent, Anchor, Closed, Document, Score
from argus.schemas.models._generate import Published

DimensionName = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*$")]

_DESCRIPTION = (
    "The dimensions a judge scores, the threshold each must reach, what each is anchored to, "
    "and the loop's convergence budget. Argus ships a default; a feature may override it "
    "with argus/specs/{feature}/rubric.json."
)


class LoopBudget(Closed):
    consecutive_passes_required: int = Field(
        ge=1, description="All-pass verdicts in a row needed to sign a view off."
    )
    max_attempts_per_dimension: int = Field(
        ge=1,
        description="Failed verdicts a dimension may collect before it is frozen and reported.",
    )
    max_iterations_default: int = Field(
        ge=1, description="Iteration budget per view unless the command line sets another."
    )


class Scoring(Closed):
    scale: Annotated[list[Score], Field(min_length=2, json_schema_extra=UNIQUE_ITEMS)] | Absent = (
        None
    )
    rule: str | Absent = None
    ranking: str | Absent = None


class RubricDimension(Closed):
    weight: float = Field(gt=0)
    threshold: Score = Field(
        description="A dimension passes when its score is at least this value."
    )
    anchor: Anchor = Field(
        description="What the judge compares against: the reference image, the design "
        "tokens, or the spec's text and machine expectations."
    )
    description: str = Field(min_length=1)


class RubricFile(Document):
    version: str = Field(min_length=1)
    description: str | Absent = None
    loop: LoopBudget
    scoring: Scoring | Absent = None
    dimensions: dict[DimensionName, RubricDimension] = Field(min_length=1)


PUBLISHED = Published(RubricFile, "Argus judge rubric (rubric.json)", _DESCRIPTION)
