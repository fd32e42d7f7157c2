"""A review read back as context for a person: the lines ``argus review`` prints, and the
reviews a person should see where they are asked to approve something (``argus approve``, the
review page). Context only: a review never approves, rejects or weighs on a decision."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from argus.review.record import FiledReview, filed_reviews
from argus.store import db_path

MAX_SHOWN = 3  # the latest reviews of a subject a person is shown beside a decision
ADVICE = "advice only: the decision is the person's, and it stands whatever a review says"


def describe(review_id: int | None, subject: str, payload: Mapping[str, Any]) -> str:
    """A review as a person scans it: the verdict and flag on the first line, then the
    rationale, the unmet clauses and the notes."""
    pr = payload.get("pr", {}).get("number")
    head = f"review {review_id}: {subject}{f' PR #{pr}' if pr is not None else ''}"
    if payload.get("verdict") is None:
        return f"{head}: no answer ({payload.get('error')}); flag {payload['flag']}"
    lines = [
        f"{head}: {payload['verdict']} (confidence {payload['confidence']:.2f}); "
        f"flag {payload['flag']}",
        f"  {payload['rationale']}",
    ]
    lines += [f"  missing: {m}" for m in payload.get("missing_acceptance", [])]
    lines += [f"  note: {n}" for n in payload.get("notes", [])]
    return "\n".join(lines)


@dataclass(frozen=True)
class ReviewContext:
    """One review shown beside a decision."""

    id: int | None
    subject: str
    verdict: str | None  # None: the reviewer gave no acceptable answer
    confidence: float | None
    flag: str
    rationale: str
    missing: tuple[str, ...]
    pr: int | None
    outcome: str | None  # a person's answer to the review, if any
    text: str  # as `argus review list` prints it

    @property
    def attention(self) -> bool:
        return self.outcome is None and self.flag != "info"


def review_context(root: Path, feature: str, limit: int = MAX_SHOWN) -> list[ReviewContext]:
    """The latest reviews of ``feature``, newest first: those filed under its name and those
    of tasks whose acceptance is its spec.md."""
    if not db_path(root).is_file():
        return []  # no run store yet: nothing was reviewed (and nothing is created by asking)
    mine = [f for f in filed_reviews(root) if _about(f, feature)]
    return [_context(f) for f in mine[-limit:][::-1]]


def _about(filed: FiledReview, feature: str) -> bool:
    task = filed.event.payload.get("task")
    named = task.get("feature") if isinstance(task, Mapping) else None
    return filed.event.feature == feature or named == feature


def _context(filed: FiledReview) -> ReviewContext:
    payload = filed.event.payload
    outcome = filed.outcome.payload.get("outcome") if filed.outcome is not None else None
    confidence = payload.get("confidence")
    return ReviewContext(
        id=filed.event.id,
        subject=filed.event.feature,
        verdict=payload.get("verdict"),
        confidence=float(confidence) if isinstance(confidence, int | float) else None,
        flag=str(payload.get("flag", "needs_review")),
        rationale=str(payload.get("rationale") or payload.get("error") or ""),
        missing=tuple(str(m) for m in payload.get("missing_acceptance", [])),
        pr=payload.get("pr", {}).get("number"),
        outcome=str(outcome) if outcome is not None else None,
        text=describe(filed.event.id, filed.event.feature, payload),
    )


def context_lines(feature: str, shown: list[ReviewContext]) -> list[str]:
    """The reviews beside a decision, as lines (none when nothing was reviewed)."""
    if not shown:
        return []
    lines = [f"acceptance-fidelity reviews of {feature} ({ADVICE}):"]
    for review in shown:
        first, *rest = review.text.splitlines()
        answered = f" [{review.outcome}]" if review.outcome else ""
        lines += [f"  {first}{answered}", *(f"  {line}" for line in rest)]
    return lines
