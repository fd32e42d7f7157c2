"""The HTML page of a merged sharded run: one row per view, its findings, and where it ran.

Same rules as the run report (argus.report.page): every string escaped, no script, a CSP that
allows only inline styles.
"""

from __future__ import annotations

from typing import Any

from argus import __version__
from argus.report.html import badge, bullet_list, esc, table
from argus.report.page import CSP, stylesheet
from argus.shard.merge import Merged
from argus.shard.results import ViewEntry

FINDINGS_SHOWN = 5


def render_merged_page(merged: Merged) -> str:
    title = f"Argus · {merged.command} · {merged.feature} · {merged.shards} shard(s)"
    rows = (_row(entry) for entry in merged.views)
    summary = table(
        "Status per view, re-derived from each view's evidence",
        ("View", "Status", "Red gates", "Duration (ms)", "Findings"),
        rows,
    )
    corrected = ""
    if merged.corrected:
        items = (
            f"{esc(slug)}: recorded status replaced by the re-derived one"
            for slug in merged.corrected
        )
        corrected = (
            f'<section class="card notes"><h2>Corrections</h2>{bullet_list(items)}</section>'
        )
    return (
        "<!doctype html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{esc(CSP)}">'
        f"<title>{esc(title)}</title><style>{stylesheet()}</style></head><body>"
        f"<header><h1>{esc(title)}</h1><p>exit code {merged.exit_code}</p></header><main>"
        f'<section class="card"><h2>Views</h2>{summary}</section>{corrected}</main>'
        f"<footer>Merged by argus {esc(__version__)}.</footer></body></html>\n"
    )


def _row(entry: ViewEntry) -> tuple[str, ...]:
    return (
        esc(entry.view.slug),
        badge(entry.status),
        esc(", ".join(entry.red_gates) or "—"),
        esc(f"{entry.duration_ms:.0f}"),
        _findings(entry),
    )


def _findings(entry: ViewEntry) -> str:
    lines: list[str] = []
    if entry.error:
        lines.append(esc(entry.error))
    details: Any = (entry.gate_result or {}).get("details")
    if isinstance(details, dict):
        for gate in entry.red_gates:
            block = details.get(gate)
            summary = block.get("summary") if isinstance(block, dict) else None
            if isinstance(summary, str):
                lines.append(f"{esc(gate)}: {esc(summary[:300])}")
    return bullet_list(lines[:FINDINGS_SHOWN]) if lines else "—"
