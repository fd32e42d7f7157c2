"""Verdict and gate-result builders shared by the verdict, loop and CLI tests."""

from __future__ import annotations

import copy
from typing import Any

from argus.schemas import load_rubric

RUBRIC = load_rubric(None)


def dimension(name: str, score: float | None = 1) -> dict[str, Any]:
    return {"score": score, "anchor": RUBRIC.dimensions[name].anchor, "evidence": f"{name} ok"}


def verdict(
    scores: dict[str, float | None] | None = None,
    *,
    iteration: int = 1,
    view: tuple[str, str, str] = ("list", "populated", "light"),
    **extra: Any,
) -> dict[str, Any]:
    """A raw verdict scoring every default-rubric dimension 1 unless ``scores`` says otherwise.

    A None score makes that dimension abstain with a reason.
    """
    scores = scores or {}
    dims: dict[str, Any] = {}
    for name in RUBRIC.dimensions:
        score = scores.get(name, 1)
        entry = dimension(name, score)
        if score is None:
            entry.update(abstained=True, evidence="prose-only contract; nothing to measure")
        dims[name] = entry
    target, state, appearance = view
    raw: dict[str, Any] = {
        "iteration": iteration,
        "feature": "habits",
        "target": target,
        "state": state,
        "appearance": appearance,
        "dimensions": dims,
    }
    raw.update(copy.deepcopy(extra))
    return raw


def gate_result(gates: dict[str, Any], **extra: Any) -> dict[str, Any]:
    raw: dict[str, Any] = {"feature": "habits", "target": "list", "gates": gates}
    raw.update(extra)
    return raw
