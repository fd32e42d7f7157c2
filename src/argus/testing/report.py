"""``--argus-report PATH``: every view assertion of a session, as JSON (``.json``) or as one
self-contained HTML page (any other name) with the render, baseline and diff of each failure,
and the session's tests: what it collected and each of its tests' outcome (argus.testing._tally),
the tests that failed or did not run listed in the page."""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from argus.io import atomic_write_json, atomic_write_text
from argus.report.templating import render
from argus.shard.outcomes import FAILING
from argus.shard.split import Shard

REPORT_VERSION = 2  # 2: collected and tests


def write_report(
    path: Path,
    records: Sequence[dict[str, Any]],
    shard: Shard | None,
    collected: Mapping[str, Any] | None,
    tests: Mapping[str, str],
) -> Path:
    """The report at ``path``; the JSON names the run's ``--argus-shard`` (null: the whole
    run), so ``argus merge`` can tell a missing shard from a smaller run, and what the run
    collected before the split (null: not known, a worker that never reported it), so it can
    tell a test that ran in no shard."""
    failed = sum(not r["ok"] for r in records)
    failing = {test: outcome for test, outcome in sorted(tests.items()) if outcome in FAILING}
    if path.suffix.lower() == ".json":
        atomic_write_json(
            path,
            {
                "version": REPORT_VERSION,
                "shard": None if shard is None else {"index": shard.index, "total": shard.total},
                "total": len(records),
                "failed": failed,
                "collected": None if collected is None else dict(collected),
                "tests_failed": len(failing),
                "tests": dict(sorted(tests.items())),
                "assertions": list(records),
            },
        )
    else:
        atomic_write_text(path, _html(records, failed, failing, len(tests)))
    return path


def _images(record: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(label, path, base64 PNG) of the render, baseline and diff of a failed or not-passed
    assertion whose files exist."""
    if record["ok"] and record["status"] == "passed":
        return []
    found = []
    for label in ("render", "baseline", "diff"):
        path = record.get(label)
        if path and Path(path).is_file():
            found.append((label, path, base64.b64encode(Path(path).read_bytes()).decode("ascii")))
    return found


def _html(
    records: Sequence[dict[str, Any]], failed: int, failing: Mapping[str, str], tests: int
) -> str:
    rows = [{"record": r, "images": _images(r)} for r in records]
    return render(
        "assertions.html",
        "argus.testing",
        records=records,
        failed=failed,
        rows=rows,
        failing=failing,
        tests=tests,
    )
