"""One review from start to record: a task and a merged PR in, a recorded event out (and a
notification when the flag says so). ``argus review run`` and ``argus review landed`` both
come through here, so a review asked by hand and one triggered by a merge are the same."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from argus.config import ProjectConfig
from argus.review._judge import ReviewInputs, bounded, review, review_payload
from argus.review.diff import cut_diff
from argus.review.record import notify, record_review
from argus.review.tasks import Task
from argus.store import Event


@dataclass(frozen=True)
class PullRequest:
    title: str
    body: str
    diff: str  # unified git diff output, already checked to have file sections
    number: int | None = None
    evidence: Mapping[str, str] = field(default_factory=dict)  # merged commit, CI, deploy


@dataclass(frozen=True)
class Filed:
    event: Event
    payload: dict[str, Any]
    warning: str | None  # a notification that failed


def review_and_record(
    config: ProjectConfig,
    task: Task,
    pr: PullRequest,
    *,
    trigger: Mapping[str, str] | None = None,
) -> Filed:
    """Ask the reviewer about ``pr`` against ``task``, record the answer under the task's id,
    and notify a person when the flag is ``notify``. ``trigger`` says what asked (recorded)."""
    texts, cut = bounded(
        {"acceptance": task.acceptance, "why": task.why, "PR body": pr.body}, config.review
    )
    inputs = ReviewInputs(
        subject=task.id,
        title=task.title,
        acceptance=texts["acceptance"],
        pr_title=pr.title,
        pr_body=texts["PR body"],
        diff=cut_diff(pr.diff, config.review.max_diff_chars),
        pr_number=pr.number,
        evidence={**task.evidence, **pr.evidence},
        cut=cut,
        why=texts["why"],
    )
    result, asked = review(inputs, config)
    payload = review_payload(inputs, result, asked, config.review.backend)
    payload["task"] = {"id": task.id, "source": task.source, "feature": task.feature}
    if trigger:
        payload["trigger"] = dict(trigger)
    event = record_review(config.root, task.id, payload)
    warning = notify(config, task.id, payload) if result.flag == "notify" else None
    return Filed(event, payload, warning)
