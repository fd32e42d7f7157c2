"""What a pytest report (argus.testing.report) says of a run's tests, and what ``argus merge``
checks of them (argus.shard.pytest_reports): each test's outcome, the failing ones, and the
digest of a collection of node ids."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any

NOT_RUN = "not run"  # selected, but no report said how it went (a -x stop, a lost worker)
OUTCOMES = ("passed", "failed", "error", "skipped", "xfailed", "xpassed", NOT_RUN)
FAILING = frozenset({"failed", "error", NOT_RUN})  # each makes the merge exit 1


def collection(node_ids: Iterable[str]) -> dict[str, Any]:
    """How many distinct node ids, and the SHA-256 of them sorted, one a line."""
    ids = sorted(set(node_ids))
    return {"count": len(ids), "sha256": hashlib.sha256("\n".join(ids).encode()).hexdigest()}
