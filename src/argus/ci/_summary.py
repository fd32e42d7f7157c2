"""A JSON summary of one run's cases, for CI systems without JUnit or GitHub support."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from argus.ci.cases import CaseResult

SUMMARY_VERSION = 1


def json_summary(cases: Sequence[CaseResult], tool: str) -> dict[str, Any]:
    counts = {
        status: sum(c.status == status for c in cases)
        for status in ("passed", "failed", "error", "skipped")
    }
    return {
        "version": SUMMARY_VERSION,
        "tool": tool,
        "ok": counts["failed"] == 0 and counts["error"] == 0,
        "total": len(cases),
        **counts,
        "cases": [case.to_json() for case in cases],
    }
