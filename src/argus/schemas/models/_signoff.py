"""The shape of .argus-runs/signoff.json: one record per signed-off view."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from argus.schemas.models._base import Absent, Closed, Document
from argus.schemas.models._generate import Published

Name = Annotated[str, Field(min_length=1)]


class HumanSpotcheck(Closed):
    """A human's check of the judge: 'wrong' names the dimension it got wrong, and only then."""

    model_config = ConfigDict(
        json_schema_extra={
            "if": {"properties": {"status": {"const": "wrong"}}, "required": ["status"]},
            "then": {"required": ["wrong_dimension"]},
            "else": {"not": {"required": ["wrong_dimension"]}},
        }
    )

    status: Literal["pending", "approved", "wrong"]
    wrong_dimension: Name | Absent = Field(
        default=None, description="The dimension the human says the judge got wrong."
    )
    checked_at: str | Absent = None
    note: str | Absent = None


class FinalVerdict(BaseModel):
    """The normalized verdict of the last judged iteration."""

    model_config = ConfigDict(frozen=True, extra="allow")

    all_pass: Any
    dimensions: Any


class SignoffRecord(Closed):
    feature: Name
    target: Name
    state: Name
    appearance: Name
    signed_off_at: str = Field(
        pattern=r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}",
        description="ISO 8601 date and time of the sign-off, with its offset.",
    )
    iterations: int = Field(ge=1)
    reference_source: Literal["human", "candidate"] | None = Field(
        description="'candidate' marks a sign-off against an approved Argus render, which is "
        "not a designer's approval of the look; null: the view had no reference of its own, or "
        "the spec does not say who made it."
    )
    final_verdict: FinalVerdict
    snapshot_baseline: str | None = Field(
        description="Repository-relative path of the snapshot baseline written at sign-off, or "
        "null when the snapshot gate is off."
    )
    human_spotcheck: HumanSpotcheck
    run_id: Name | Absent = Field(
        default=None,
        description="The loop run that signed the view off; a run signs a view off at most once.",
    )
    concerns: list[str] | Absent = Field(
        default=None,
        description="What keeps this sign-off from being clean: frozen or unverified dimensions.",
    )
    protection: (
        Literal["sandboxed: bubblewrap", "sandboxed: landlock", "hash-checked only"] | Absent
    ) = Field(
        default=None,
        description="What confined the implementer whose edits this sign-off judged "
        "(argus.confine); 'hash-checked only': nothing did, only the protected set's hashes "
        "were checked. Absent when no implementer ran.",
    )


class SignoffFile(Document):
    version: Literal[1]
    records: list[SignoffRecord]


PUBLISHED = Published(
    SignoffFile,
    "Argus sign-off record (.argus-runs/signoff.json)",
    "One entry per signed-off view. This is the only file under .argus-runs/ that is "
    "committed: it says which views passed, on what evidence, and whether a human "
    "spot-checked the judge.",
)
