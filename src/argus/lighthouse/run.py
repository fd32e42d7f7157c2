"""Run the real Lighthouse against one URL with Argus's Chromium; keep its report's own shape.

    report = run_lighthouse(url, browser=discover_browser(), out=entry / "lighthouse.json")

Lighthouse is started in its own process group (argus.proc), with ``CHROME_PATH`` set to the
Chromium Argus discovered and the same container flags Argus launches it with (``--no-sandbox``
as root), headless, desktop preset. The report written is Lighthouse's JSON cut to what Argus
reads (``lighthouseVersion``, URLs, ``fetchTime``, ``runtimeError``, ``categories.*.{id,
title, score}``, ``timing.total``): the full report with every audit is several megabytes.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from argus.errors import SensorError
from argus.io import atomic_write_json, read_json
from argus.lighthouse._install import lighthouse_command
from argus.lighthouse.score import CATEGORIES
from argus.proc import one_line, read_tail, run_in_group

LIGHTHOUSE_TIMEOUT_S = 240.0
REPORT_LIMIT = 64 * 1024 * 1024


def trim_report(report: Any) -> dict[str, Any]:
    if not isinstance(report, dict):
        raise SensorError("Lighthouse wrote a report that is not a JSON object")
    categories = report.get("categories")
    kept: dict[str, Any] = {}
    for name, entry in (categories if isinstance(categories, dict) else {}).items():
        if isinstance(entry, dict):
            kept[str(name)] = {k: entry.get(k) for k in ("id", "title", "score")}
    error = report.get("runtimeError")
    timing = report.get("timing")
    return {
        "lighthouseVersion": report.get("lighthouseVersion"),
        "requestedUrl": report.get("requestedUrl"),
        "finalDisplayedUrl": report.get("finalDisplayedUrl"),
        "fetchTime": report.get("fetchTime"),
        "runtimeError": {"code": error.get("code")} if isinstance(error, dict) else None,
        "categories": kept,
        "timing": {"total": timing.get("total")} if isinstance(timing, dict) else None,
    }


def lighthouse_argv(url: str, report_path: Path, categories: Sequence[str]) -> list[str]:
    from argus.sense.browser import launch_args

    chrome_flags = " ".join(["--headless=new", *launch_args()])
    return [
        *lighthouse_command(),
        url,
        "--output=json",
        f"--output-path={report_path}",
        "--quiet",
        "--preset=desktop",
        f"--only-categories={','.join(categories)}",
        f"--chrome-flags={chrome_flags}",
        "--max-wait-for-load=45000",
    ]


def run_lighthouse(
    url: str,
    *,
    browser: str,
    out: Path,
    categories: Sequence[str] = CATEGORIES,
    timeout_s: float = LIGHTHOUSE_TIMEOUT_S,
) -> dict[str, Any]:
    """Run Lighthouse, write the trimmed report to ``out`` (atomically), return it."""
    with tempfile.TemporaryDirectory(prefix="argus-lighthouse-") as tmp:
        report_path = Path(tmp) / "report.json"
        log_path = Path(tmp) / "lighthouse.log"
        argv = lighthouse_argv(url, report_path, categories)
        env = {**os.environ, "CHROME_PATH": browser}
        try:
            run = run_in_group(argv, cwd=Path(tmp), timeout=timeout_s, log_path=log_path, env=env)
        except OSError as exc:
            raise SensorError(f"cannot start Lighthouse ({argv[0]}): {exc}") from exc
        if run.timed_out:
            raise SensorError(f"Lighthouse did not finish within {timeout_s:g} s on {url}")
        if run.exit_code != 0 or not report_path.is_file():
            tail = one_line(read_tail(log_path))
            raise SensorError(f"Lighthouse exited {run.exit_code} on {url}: {tail}")
        report = trim_report(read_json(report_path, what="Lighthouse report", limit=REPORT_LIMIT))
    atomic_write_json(out, report)
    return report
