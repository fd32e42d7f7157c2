"""What every file model shares: frozen, closed to unknown keys, and a ``$schema`` key an
editor may use to find the published schema."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, WithJsonSchema
from pydantic.config import JsonDict
from pydantic.json_schema import SkipJsonSchema

# An optional key that, when present, is never null (absent and null are not the same).
Absent = SkipJsonSchema[None]

# The judge's discrete partial credit. typing's Literal takes no float, so the allowed values
# are one constant that both the model's check and the generated schema's enum come from.
SCORES = (0, 0.5, 1)


def _a_score(value: float) -> float:
    if value not in SCORES:
        raise ValueError(f"{value!r} is not one of {list(SCORES)}")
    return value


Score = Annotated[float, AfterValidator(_a_score), WithJsonSchema({"enum": list(SCORES)})]


# An array whose items are all different (pydantic has no constraint for it on a list).
UNIQUE_ITEMS: JsonDict = {"uniqueItems": True}

Anchor = Literal["reference", "design-system", "spec-text"]


class Closed(BaseModel):
    """A frozen object that refuses keys it does not declare."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Document(Closed):
    """A whole file: an object that may name its schema in ``$schema``."""

    schema_uri: str | Absent = Field(
        default=None, alias="$schema", description="Optional pointer to this schema, for editors."
    )
