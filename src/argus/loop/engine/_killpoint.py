"""A test hook that kills the loop at a named point, to prove it resumes from anywhere.

``ARGUS_TEST_KILL_AT=after_gates:2`` makes the process SIGKILL itself (no cleanup, no
atexit, exactly like ``kill -9``) when it reaches the point ``after_gates`` in iteration 2.
``after_gates`` alone matches the first time the point is reached. Unset, it costs one
environment lookup per point.
"""

from __future__ import annotations

import os
import signal

ENV_VAR = "ARGUS_TEST_KILL_AT"

# Every point the loop announces, in the order a view passes them.
POINTS = (
    "store_run_started",
    "run_started",
    "before_implement",
    "after_implement",
    "after_sense",
    "after_gates",
    "after_judge",
    "before_commit",
    "after_commit",
    "after_events",
    "after_baseline",
    "after_signoff_record",
    "after_signoff_event",
    "before_finish",
)


def _wanted() -> tuple[str, int | None] | None:
    raw = os.environ.get(ENV_VAR, "").strip()
    if not raw:
        return None
    name, _, number = raw.partition(":")
    return name, int(number) if number.isdigit() else None


def killpoint(name: str, iteration: int | None = None) -> None:
    """SIGKILL this process when ``ARGUS_TEST_KILL_AT`` names this point (and iteration)."""
    wanted = _wanted()
    if wanted is None:
        return
    point, number = wanted
    if point == name and (number is None or number == iteration):
        os.kill(os.getpid(), signal.SIGKILL)
