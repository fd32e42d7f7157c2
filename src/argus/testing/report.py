"""``--argus-report PATH``: every view assertion of a session, as JSON (``.json``) or as one
self-contained HTML page (any other name) with the render, baseline and diff of each failure."""

from __future__ import annotations

import base64
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from argus.io import atomic_write_json, atomic_write_text
from argus.report.templating import render
from argus.shard.split import Shard

REPORT_VERSION = 1


def write_report(path: Path, records: Sequence[dict[str, Any]], shard: Shard | None = None) -> Path:
    """The report at ``path``; the JSON names the run's ``--argus-shard`` (null: the whole
    run), so ``argus merge`` can tell a missing shard from a smaller run."""
    failed = sum(not r["ok"] for r in records)
    if path.suffix.lower() == ".json":
        atomic_write_json(
            path,
            {
                "version": REPORT_VERSION,
                "shard": None if shard is None else {"index": shard.index, "total": shard.total},
                "total": len(records),
                "failed": failed,
                "assertions": list(records),
            },
        )
    else:
        atomic_write_text(path, _html(records, failed))
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


def _html(records: Sequence[dict[str, Any]], failed: int) -> str:
    rows = [{"record": r, "images": _images(r)} for r in records]
    return render("assertions.html", "argus.testing", records=records, failed=failed, rows=rows)
