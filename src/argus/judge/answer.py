"""Read a model's answer: one JSON object, checked against the schema it was given.

Models wrap JSON in code fences or add a sentence around it despite being told not to; the
object is dug out once, then validated. Anything else is a MalformedAnswer, which the judge
flow retries once and then records as an inconclusive verdict.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from jsonschema import Draft202012Validator

from argus.evidence.content import clip
from argus.io import loads_json
from argus.judge.base import MalformedAnswer

_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.S)


def parse_json_object(text: str, *, what: str = "answer") -> dict[str, Any]:
    """The JSON object in ``text``; MalformedAnswer when there is none."""
    body = text.strip()
    fenced = _FENCE.match(body)
    if fenced:
        body = fenced.group(1)
    try:
        value = loads_json(body)
    except json.JSONDecodeError:
        start, end = body.find("{"), body.rfind("}")
        try:
            value = loads_json(body[start : end + 1]) if 0 <= start < end else None
        except json.JSONDecodeError:
            value = None
        if value is None:
            raise MalformedAnswer(
                f"the {what} is not JSON: {clip(body or '(empty)', 120)!r}"
            ) from None
    if not isinstance(value, dict):
        raise MalformedAnswer(f"the {what} is JSON but not an object")
    return value


def check_schema(
    value: Mapping[str, Any], schema: Mapping[str, Any], *, what: str = "answer"
) -> None:
    errors = sorted(
        Draft202012Validator(dict(schema)).iter_errors(value), key=lambda e: list(e.path)
    )
    if errors:
        first = errors[0]
        where = "/".join(str(p) for p in first.path) or "(top)"
        raise MalformedAnswer(
            f"the {what} does not fit its schema at {where}: {clip(first.message, 160)}"
        )


def dimension_entries(
    answer: Mapping[str, Any], names: Sequence[str], backend: str
) -> dict[str, Any]:
    """The answer's dimensions as verdict entries (an abstention keeps its evidence as reason)."""
    given = answer.get("dimensions") or {}
    out: dict[str, Any] = {}
    for name in names:
        entry = dict(given.get(name) or {})
        abstained = bool(entry.get("abstained")) or entry.get("score") is None
        out[name] = {
            "score": None if abstained else entry.get("score"),
            "anchor": entry.get("anchor"),
            "evidence": str(entry.get("evidence") or ""),
            "judged_by": backend,
        }
        if abstained:
            out[name]["abstained"] = True
    return out
