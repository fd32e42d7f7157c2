"""What a pytest session's tests did, for its ``--argus-report``: the run's collection (how many
tests and a digest of their node ids, taken before ``--argus-shard`` kept this machine's share)
and each of this machine's tests with its outcome. ``argus merge`` then sees a test that ran in
no shard, one that failed without a view assertion of its own, and one that never finished (a
``-x`` stop, a crashed worker), none of which the assertions alone show.

    Tally                    the session's tests and outcomes, fed pytest's reports
    phase_outcome(report)    what one phase's report says of its test

The outcomes and the collection's digest are the report's format: argus.shard.outcomes.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from argus.shard.outcomes import NOT_RUN

# The key under which an xdist worker hands the controller its collection (workeroutput).
WORKER_KEY = "argus_collection"


def phase_outcome(report: pytest.TestReport) -> str | None:
    """What one phase's report says of its test; None when it says nothing (a setup or
    teardown that passed, a rerun another report will replace)."""
    if report.outcome not in ("passed", "failed", "skipped"):
        return None  # pytest-rerunfailures' "rerun": the test's last attempt reports again
    expected_failure = hasattr(report, "wasxfail")
    if report.when == "call":
        if report.passed:
            return "xpassed" if expected_failure else "passed"
        if report.failed:
            return "failed"
        return "xfailed" if expected_failure else "skipped"
    if report.failed:
        return "error"
    if report.skipped and report.when == "setup":
        return "xfailed" if expected_failure else "skipped"
    return None


class Tally:
    """This machine's tests, each ``not run`` until a report says otherwise; a failure or an
    error, once reported, stays (a teardown error after a passed call is an error)."""

    def __init__(self) -> None:
        self.outcomes: dict[str, str] = {}
        self.collected: dict[str, Any] | None = None

    def select(self, node_ids: Iterable[str]) -> None:
        for node_id in node_ids:
            self.outcomes.setdefault(node_id, NOT_RUN)

    def record(self, report: pytest.TestReport) -> None:
        outcome = phase_outcome(report)
        if outcome is None:
            return
        if self.outcomes.get(report.nodeid) in ("failed", "error"):
            return
        self.outcomes[report.nodeid] = outcome
