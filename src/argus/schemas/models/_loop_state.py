"""The shape of a view's loop state (state-{view}.json): the convergence loop's counters."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field

from argus.schemas.models._base import UNIQUE_ITEMS, Absent, Document
from argus.schemas.models._generate import Published


class LoopStateFile(Document):
    # The loop may record extra bookkeeping beside the counters.
    model_config = ConfigDict(extra="allow")

    version: Annotated[int, Field(ge=1)] | Absent = None
    feature: str = Field(min_length=1)
    target: str = Field(min_length=1)
    state: str | Absent = None
    appearance: str | Absent = None
    iteration: int = Field(
        ge=0,
        description="Iterations recorded so far (judged, confirmed unchanged or stopped by a "
        "red gate).",
    )
    consecutive_passes: int = Field(
        ge=0,
        description="All-pass iterations in a row; a failing verdict or a red gate resets it.",
    )
    attempts: dict[str, Annotated[int, Field(ge=0)]] = Field(
        description="Dimension name -> failing verdicts recorded for it."
    )
    frozen: list[str] = Field(
        json_schema_extra=UNIQUE_ITEMS,
        description="Dimensions that used up their attempts; the loop stops asking for them to "
        "be fixed and reports them.",
    )
    reference_source: Literal["human", "candidate"] | None = None
    last_outcome: Literal["pass", "fail", "gate-fail", "unchanged"] | None = Field(
        default=None,
        description="What the last recorded step was. A hash-suppressed 'unchanged' confirm "
        "only counts after a pass.",
    )
    updated_at: str | Absent = Field(default=None, description="ISO 8601 time of the last write.")


PUBLISHED = Published(
    LoopStateFile,
    "Argus loop state (state-{view}.json)",
    "The durable counters of one view's convergence loop: iteration, pass streak, failed "
    "attempts per dimension and frozen dimensions. Written atomically after every step so an "
    "interrupted loop resumes where it stopped. Fields not listed here are allowed so the loop "
    "can record extra bookkeeping.",
)
