"""The shape of verdict.json: a judge's score per rubric dimension, or its abstention."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field
from pydantic.config import JsonDict

from argus.schemas.models._base import (
    SCORES,
    UNIQUE_ITEMS,
    Absent,
    Anchor,
    Closed,
    Document,
    Score,
)
from argus.schemas.models._generate import Published

Count = Annotated[int, Field(ge=0)]
Names = Annotated[list[str], Field(json_schema_extra=UNIQUE_ITEMS)]

# The "if" of a conditional schema: a key that is present with this value.
_ABSTAINED: JsonDict = {"properties": {"abstained": {"const": True}}, "required": ["abstained"]}
_INCONCLUSIVE: JsonDict = {
    "properties": {"status": {"const": "inconclusive"}},
    "required": ["status"],
}


class Usage(Closed):
    input_tokens: Count | None = None
    output_tokens: Count | None = None
    cost_usd: Annotated[float, Field(ge=0)] | None = None
    cached: bool | Absent = None
    model_requested: str | None = Field(
        default=None, description="The model asked for; null when no call was made (cached)."
    )
    model_actual: str | None = Field(
        default=None,
        description="The model the provider's answer names (a fallback or a dated snapshot may "
        "differ from the one requested); null when it names none. Several: ', '-separated.",
    )


class JudgedDimension(Closed):
    """One dimension's score with its evidence; an abstained dimension has no score."""

    model_config = ConfigDict(
        json_schema_extra={
            "if": _ABSTAINED,
            "then": {"properties": {"score": {"const": None}}},
            "else": {"required": ["score"], "properties": {"score": {"enum": list(SCORES)}}},
        }
    )

    score: Score | None = Field(
        default=None, description="Discrete partial credit; null only when the dimension abstained."
    )
    abstained: bool = Field(
        default=False,
        description="The backend could not measure this dimension (for example a prose-only "
        "contract) and says so instead of guessing.",
    )
    anchor: Anchor
    evidence: str = Field(
        description="The observation behind the score, with the numbers where there are any."
    )
    measurements: dict[str, Any] | Absent = Field(
        default=None, description="Raw measurements behind the score, by name."
    )
    judged_by: str | Absent = Field(
        default=None,
        description="Backend that scored this dimension (useful in a composite verdict).",
    )


class VerdictFile(Document):
    model_config = ConfigDict(
        json_schema_extra={
            "if": _INCONCLUSIVE,
            "then": {"required": ["error"], "properties": {"all_pass": {"const": False}}},
            "else": {"properties": {"dimensions": {"minProperties": 1}}},
        }
    )

    iteration: int = Field(ge=1)
    feature: str = Field(min_length=1)
    target: str = Field(min_length=1)
    state: str | Absent = None
    appearance: str | Absent = None
    status: Literal["scored", "inconclusive"] = Field(
        default="scored",
        description="'inconclusive': the judge could not produce a usable verdict (for example "
        "a malformed answer after its retry). An inconclusive verdict never counts as a pass.",
    )
    error: str | Absent = Field(default=None, description="Why the verdict is inconclusive.")
    reference_source: Literal["human", "candidate"] | Absent = Field(
        default=None,
        description="Where the reference came from. With 'candidate', visual_fidelity only "
        "asserts that the composition is unchanged.",
    )
    backend: str | Absent = Field(
        default=None,
        description="Judge backend that produced the verdict, e.g. 'metric', 'litellm', "
        "'command', 'composite'.",
    )
    model: str | None = Field(
        default=None, description="Model name for a model judge; null for the metric judge."
    )
    usage: Usage | Absent = None
    dimensions: dict[str, JudgedDimension] = Field(
        description="One entry per rubric dimension, each judged on its own."
    )
    closer_to_reference_than_prev: bool | None = Field(
        default=None,
        description="Is this render closer to the reference than the previous iteration's? "
        "null on the first iteration or when the judge could not tell consistently.",
    )
    all_pass: bool = Field(
        description="Every scored dimension reaches its rubric threshold. Recomputed by Argus."
    )
    failed_dimensions: Names = Field(
        description="Scored dimensions below their threshold; the implementer is asked to fix "
        "only these."
    )
    unverified_dimensions: Names | Absent = Field(
        default=None,
        description="Dimensions no backend could measure (abstained). They are reported as "
        "unverified, never as passed.",
    )
    corrections: list[str] | Absent = Field(
        default=None,
        description="Where Argus overrode the judge's own all_pass or failed_dimensions, and why.",
    )
    notes: str | Absent = None


PUBLISHED = Published(
    VerdictFile,
    "Argus judge verdict (verdict.json)",
    "What a judge says about one view in one iteration: a score per rubric dimension with its "
    "evidence, or an explicit abstention. all_pass and failed_dimensions are recomputed from "
    "the scores by Argus; a judge's own values are only a claim.",
)
