"""The pydantic model of one line of an ``argus diff --pairs`` file (the boundary: what a user
or an agent wrote), loaded only for a line ``argus.diff.pairs.plain_pair`` does not accept."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictStr, ValidationError

from argus.diff.pairs import EXAMPLE, Pair


class PairLine(BaseModel):
    """One line of a pairs file."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    expected: StrictStr = Field(min_length=1)
    actual: StrictStr = Field(min_length=1)
    diff: StrictStr | None = Field(default=None, min_length=1)
    threshold: float | None = Field(default=None, ge=0, le=1, strict=False)
    include_aa: StrictBool | None = None
    window: int | None = Field(default=None, ge=1, strict=True)


def validated_pair(data: dict[str, object]) -> Pair:
    """The pair the model reads from ``data``; a ValueError whose text says what is wrong."""
    try:
        line = PairLine.model_validate(data)
    except ValidationError as exc:
        raise ValueError(_validation_message(exc)) from exc
    return Pair(line.expected, line.actual, line.diff, line.threshold, line.include_aa, line.window)


def _validation_message(exc: ValidationError) -> str:
    err = exc.errors()[0]
    key = ".".join(str(part) for part in err["loc"]) or "line"
    if err["type"] == "extra_forbidden":
        allowed = ", ".join(PairLine.model_fields)
        what = f"unknown key (keys: {allowed})"
    elif err["type"] == "missing":
        what = f"required key is missing; for example {EXAMPLE}"
    else:
        got = repr(err.get("input"))
        what = f"{err['msg']} (got {got if len(got) <= 60 else got[:59] + '…'})"
    return f"{key}: {what}"
