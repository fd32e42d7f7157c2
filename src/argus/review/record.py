"""Reviews and their human outcomes in the run store, and the notification of a clear "unmet".

A review is an ``acceptance_fidelity_review`` event filed under its feature (or task id); a
person's answer to it is a ``review_outcome`` event naming the review's id: ``dismissed`` (the
flag was noise), ``agreed`` (it was right) or ``follow_up`` (work was filed). Events are
append-only, so a later outcome supersedes an earlier one without erasing it, and the history
of how reviews were received stays available for tuning.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from argus.config import ProjectConfig
from argus.errors import InputError
from argus.evidence.content import clip
from argus.store import Event, RunStore

REVIEW = "acceptance_fidelity_review"
OUTCOME = "review_outcome"
OUTCOMES = ("dismissed", "agreed", "follow_up")
ATTENTION = frozenset({"needs_review", "low_confidence", "notify"})
NOTIFY_TIMEOUT_S = 30.0


@dataclass(frozen=True)
class FiledReview:
    event: Event
    outcome: Event | None  # the latest outcome, if a person answered

    @property
    def open(self) -> bool:
        return self.outcome is None and self.event.payload.get("flag") in ATTENTION


def record_review(root: Path, subject: str, payload: dict[str, Any]) -> Event:
    with RunStore.open(root) as store:
        return store.append(Event(kind=REVIEW, feature=subject, payload=payload))


def record_outcome(root: Path, review_id: int, outcome: str, note: str = "") -> Event:
    if outcome not in OUTCOMES:
        raise InputError(f"outcome {outcome!r}: expected one of {', '.join(OUTCOMES)}")
    with RunStore.open(root) as store:
        reviews = {e.id: e for e in store.events(kind=REVIEW)}
        review = reviews.get(review_id)
        if review is None:
            known = ", ".join(str(i) for i in list(reviews)[-5:]) or "none yet"
            raise InputError(f"no review {review_id} in {store.path} (latest: {known})")
        payload = {"review": review_id, "outcome": outcome, "note": clip(note.strip(), 500)}
        return store.append(Event(kind=OUTCOME, feature=review.feature, payload=payload))


def filed_reviews(root: Path, subject: str | None = None) -> list[FiledReview]:
    with RunStore.open(root) as store:
        reviews = store.events(kind=REVIEW, feature=subject)
        outcomes: dict[int, Event] = {}
        for event in store.events(kind=OUTCOME, feature=subject):
            outcomes[int(event.payload.get("review", -1))] = event
    return [FiledReview(r, outcomes.get(r.id or -1)) for r in reviews]


def notify(config: ProjectConfig, subject: str, payload: dict[str, Any]) -> str | None:
    """Tell a person about a high-confidence "unmet"; returns a warning when that failed.

    With ``[review] notify_command`` the command runs with the message on standard input and
    ARGUS_REVIEW_* variables set; without one the message goes to standard error."""
    pr = payload.get("pr", {}).get("number")
    message = (
        f"{subject}{f' PR #{pr}' if pr is not None else ''}: acceptance unmet "
        f"(confidence {payload.get('confidence')}): {payload.get('rationale')}"
    )
    command = config.review.notify_command.strip()
    if not command:
        print(f"argus: review: {message}", file=sys.stderr)
        return None
    env = {
        **os.environ,
        "ARGUS_REVIEW_SUBJECT": subject,
        "ARGUS_REVIEW_RATIONALE": str(payload.get("rationale") or ""),
        "ARGUS_REVIEW_PR": "" if pr is None else str(pr),
    }
    try:
        done = subprocess.run(
            command,
            shell=True,
            input=message + "\n",
            text=True,
            env=env,
            cwd=config.root,
            capture_output=True,
            timeout=NOTIFY_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"review.notify_command failed: {clip(str(exc), 200)}"
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["no error output"])[-1]
        return f"review.notify_command exited with {done.returncode}: {clip(tail, 200)}"
    return None
