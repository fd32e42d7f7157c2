"""The four-state status: how a run ends, and how an implementer reports back.

The same four words serve both: the loop's final status (per the /argus completion states)
and the status line an implementer prints at the end of its output (``STATUS: DONE``). The
exit codes extend the project convention (0 pass, 1 determinate failure, 2 could not run)
with 3 for "a human has to act before this can go on".
"""

from __future__ import annotations

import re
from enum import StrEnum


class Status(StrEnum):
    DONE = "DONE"
    DONE_WITH_CONCERNS = "DONE_WITH_CONCERNS"
    BLOCKED = "BLOCKED"
    NEEDS_CONTEXT = "NEEDS_CONTEXT"
    # report-only: the view's one iteration failed (a red gate, a failing dimension). Only the
    # loop says it, never an implementer: a dry run that found a defect has not "done" anything.
    FAILED = "FAILED"


EXIT_CODES: dict[Status, int] = {
    Status.DONE: 0,
    Status.DONE_WITH_CONCERNS: 1,
    Status.FAILED: 1,
    Status.BLOCKED: 2,
    Status.NEEDS_CONTEXT: 3,
}

# Worst first: the run's status is the worst status of its views.
_SEVERITY: tuple[Status, ...] = (
    Status.BLOCKED,
    Status.NEEDS_CONTEXT,
    Status.FAILED,
    Status.DONE_WITH_CONCERNS,
    Status.DONE,
)


def exit_code(status: Status) -> int:
    return EXIT_CODES[status]


def worst(statuses: list[Status]) -> Status:
    """The most severe of ``statuses`` (DONE when there are none)."""
    for candidate in _SEVERITY:
        if candidate in statuses:
            return candidate
    return Status.DONE


# A status line may be decorated the way agents tend to write it ("**STATUS:** DONE",
# "Status - DONE_WITH_CONCERNS"), so markdown emphasis and separators are tolerated; the
# longest name is tried first so DONE_WITH_CONCERNS is never read as DONE.
_STATUS_LINE = re.compile(
    r"^[\s>*_`#-]*status[\s*_`]*[:=\-–][\s*_`]*"
    r"(DONE_WITH_CONCERNS|NEEDS_CONTEXT|BLOCKED|DONE)\b",
    re.IGNORECASE | re.MULTILINE,
)


def parse_status(output: str) -> Status | None:
    """The last status line in an implementer's output, or None when it printed none."""
    found = _STATUS_LINE.findall(output)
    if not found:
        return None
    return Status(found[-1].upper())
