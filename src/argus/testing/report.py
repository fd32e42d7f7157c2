"""``--argus-report PATH``: every view assertion of a session, as JSON (``.json``) or as one
self-contained HTML page (any other name) with the render, baseline and diff of each failure."""

from __future__ import annotations

import base64
import html
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from argus.io import atomic_write_json, atomic_write_text

REPORT_VERSION = 1


def write_report(path: Path, records: Sequence[dict[str, Any]]) -> Path:
    failed = sum(not r["ok"] for r in records)
    if path.suffix.lower() == ".json":
        atomic_write_json(
            path,
            {
                "version": REPORT_VERSION,
                "total": len(records),
                "failed": failed,
                "assertions": list(records),
            },
        )
    else:
        atomic_write_text(path, _html(records, failed))
    return path


def _image(path: str | None, label: str) -> str:
    if not path or not Path(path).is_file():
        return ""
    data = base64.b64encode(Path(path).read_bytes()).decode("ascii")
    return (
        f'<figure><img alt="{label}" src="data:image/png;base64,{data}">'
        f"<figcaption>{label}: {html.escape(path)}</figcaption></figure>"
    )


def _row(record: dict[str, Any]) -> str:
    images = ""
    if not record["ok"] or record["status"] != "passed":
        images = "".join(
            _image(record.get(label), label) for label in ("render", "baseline", "diff")
        )
    status = html.escape(record["status"] if record["ok"] else f"{record['status']} ✗")
    return (
        f'<tr class="{"ok" if record["ok"] else "bad"}"><td>{html.escape(record["test"])}</td>'
        f"<td>{html.escape(record['name'])}</td><td>{status}</td>"
        f"<td><pre>{html.escape(record['message'])}</pre>{images}</td></tr>"
    )


def _html(records: Sequence[dict[str, Any]], failed: int) -> str:
    rows = "\n".join(_row(r) for r in records)
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Argus view assertions</title>
<style>
 body {{ font: 14px system-ui, sans-serif; margin: 24px; }}
 table {{ border-collapse: collapse; width: 100%; }}
 td, th {{ border-bottom: 1px solid #ddd; padding: 6px; vertical-align: top; text-align: left; }}
 tr.bad td:nth-child(3) {{ color: #b3261e; font-weight: 600; }}
 pre {{ white-space: pre-wrap; margin: 0; }}
 figure {{ display: inline-block; margin: 8px 8px 0 0; }} img {{ max-width: 400px; }}
</style></head><body>
<h1>Argus view assertions</h1>
<p>{len(records)} assertion(s), {failed} failed.</p>
<table><tr><th>test</th><th>view</th><th>result</th><th>details</th></tr>
{rows}
</table></body></html>
"""
