"""The ``runs`` table against the chain: a run's status and finish time are kept in the table
for quick listing, but the chained ``run_finished`` event is the record. The table is not
chained, so a row edited outside Argus (a failed run marked finished, a status rewritten, a
finish moved, a run moved to another feature) is caught only by comparing the two:
``first_disagreement`` names the first run where they differ.

Every field of a row the event records is compared: the status (its payload's), the finish time
(the event's ``created_at``: ``RunStore.finish_run`` writes exactly that) and the feature. The
row's mode and start time are not in the event, so no edit of them can be caught here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from argus.store.model import Run


@dataclass(frozen=True)
class Finished:
    """What a run's chained ``run_finished`` event says: its status, when it was written, and
    the feature it belongs to."""

    status: object
    created_at: str
    feature: str


@dataclass(frozen=True)
class Disagreement:
    run_id: str
    why: str

    def __str__(self) -> str:
        return f"run {self.run_id}: {self.why}"


def first_disagreement(
    runs: Iterable[Run], finished: Mapping[str, Finished]
) -> Disagreement | None:
    """The first run whose row says other than its ``run_finished`` event (``finished``, by run
    id): a status or finish that the chain does not hold, or a finish the row lost."""
    rows = {run.run_id: run for run in runs}
    for run_id in sorted(set(finished) - set(rows)):
        return Disagreement(run_id, "the chain finished it, but the runs table has no such run")
    for run_id, run in sorted(rows.items()):
        said = finished.get(run_id)
        if said is None:
            if run.finished_at is not None or run.status is not None:
                return Disagreement(
                    run_id,
                    f"the runs table says finished ({run.status}) without a run_finished event",
                )
            continue
        if run.finished_at is None:
            return Disagreement(
                run_id, f"the chain finished it ({said.status}), the runs table did not"
            )
        if run.status != said.status:
            return Disagreement(
                run_id, f"the runs table says {run.status}, its run_finished event {said.status}"
            )
        if run.finished_at != said.created_at:
            return Disagreement(
                run_id,
                f"the runs table's finish time {run.finished_at} is not its run_finished "
                f"event's ({said.created_at})",
            )
        if run.feature != said.feature:
            return Disagreement(
                run_id,
                f"the runs table puts it under feature {run.feature!r}, its run_finished event "
                f"under {said.feature!r}",
            )
    return None
