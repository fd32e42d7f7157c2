"""The HTML page of a merged sharded run: one row per view, its findings, and where it ran.

Rendered from ``templates/merged.html``, with the run report's rules: every string
escaped, no script, a CSP that allows only inline styles.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from argus import __version__
from argus.report.page import CSP, stylesheet
from argus.report.templating import render
from argus.shard.merge import Merged
from argus.shard.results import ViewEntry

FINDINGS_SHOWN = 5


@dataclass(frozen=True)
class _Row:
    entry: ViewEntry
    findings: list[str]


def render_merged_page(merged: Merged) -> str:
    title = f"Argus · {merged.command} · {merged.feature} · {merged.shards} shard(s)"
    rows = [_Row(entry, _findings(entry)) for entry in merged.views]
    return render(
        "merged.html",
        "argus.shard",
        title=title,
        merged=merged,
        rows=rows,
        csp=CSP,
        css=stylesheet(),
        version=__version__,
    )


def _findings(entry: ViewEntry) -> list[str]:
    lines: list[str] = []
    if entry.error:
        lines.append(entry.error)
    details: Any = (entry.gate_result or {}).get("details")
    if isinstance(details, dict):
        for gate in entry.red_gates:
            block = details.get(gate)
            summary = block.get("summary") if isinstance(block, dict) else None
            if isinstance(summary, str):
                lines.append(f"{gate}: {summary[:300]}")
    return lines[:FINDINGS_SHOWN]
