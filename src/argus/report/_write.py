"""``write_report``: collect a run and write its self-contained HTML file.

By default the file goes beside the run's files, as ``report-{run_id}.html`` in the feature's
``.argus-runs/`` (``.argus-runs/report-only/`` for a report-only run, which writes nothing
outside its own directory), and ``report.html`` there is refreshed to the latest run's report
so a bookmark keeps working.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from argus.errors import InputError
from argus.io import atomic_write_text
from argus.report.collect import collect_report
from argus.report.page import render_page
from argus.report.select import find_run
from argus.spec.paths import SPECS_DIR

LATEST_NAME = "report.html"
_FILE_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]")


def report_name(run_id: str) -> str:
    return f"report-{_FILE_UNSAFE.sub('_', run_id)}.html"


def write_report(
    root: Path, feature: str | None, run_id: str | None = None, out: Path | None = None
) -> Path:
    """Write the report of ``run_id`` (default: the latest run of ``feature``, or of any
    feature when None); return the file written. InputError when there is no such run."""
    found = find_run(root, feature, run_id)
    page = render_page(collect_report(root, found))
    if out is not None:
        _write(out, page)
        return out
    runs_dir = found.source.layout(root / SPECS_DIR / found.run.feature).runs_dir
    path = runs_dir / report_name(found.run.run_id)
    _write(path, page)
    if found.latest:
        _write(runs_dir / LATEST_NAME, page)
    return path


def _write(path: Path, page: str) -> None:
    if path.is_dir():
        raise InputError(f"{path}: is a directory; pass a file name to --out")
    try:
        atomic_write_text(path, page)
        # The atomic writer's temp file is private (0600); a report is for sharing, so it gets
        # the permissions of any file the user creates.
        mask = os.umask(0)
        os.umask(mask)
        path.chmod(0o666 & ~mask)
    except OSError as exc:
        raise InputError(f"{path}: cannot write the report ({exc.strerror or exc})") from exc
