"""Gate rows from a gate-result.json (from the run directory or a ``gate_result`` event).

The status shown is derived here from the statuses and the id counts, as everywhere in Argus:
a result claiming ``all_green`` is not believed, and an a11y_ids block with missing ids is red
whatever status it carries.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from argus.report.model import GateRow, GateSummary

# A gate can report thousands of findings; the page shows the first ones and a count.
MAX_FINDINGS_SHOWN = 25


def gate_status(value: Any) -> str:
    """The status word of one ``gates`` entry (a word, or the a11y_ids counts block)."""
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        missing = value.get("missing")
        expected, present = value.get("expected"), value.get("present")
        if (isinstance(missing, list) and missing) or (
            isinstance(expected, int) and isinstance(present, int) and present < expected
        ):
            return "fail"
        status = value.get("status")
        return str(status) if isinstance(status, str) else "pass"
    return "error"


def red_gate_names(result: Mapping[str, Any]) -> tuple[str, ...]:
    gates = result.get("gates")
    if not isinstance(gates, Mapping):
        return ()
    return tuple(str(n) for n, v in gates.items() if gate_status(v) in ("fail", "error", "diff"))


def finding_line(finding: Any) -> str:
    """``element · property: value (expected …) — message`` from a gate finding."""
    if not isinstance(finding, Mapping):
        return str(finding)
    head = " · ".join(str(finding[k]) for k in ("element", "property") if finding.get(k))
    value = str(finding.get("value") or "")
    text = f"{head}: {value}" if head and value else head or value
    if finding.get("expected"):
        text += f" (expected {finding['expected']})"
    if finding.get("message"):
        text += f" — {finding['message']}" if text else str(finding["message"])
    return text


def _summary(value: Any, detail: Mapping[str, Any]) -> str:
    summary = detail.get("summary")
    if isinstance(summary, str) and summary:
        return summary
    if isinstance(value, Mapping) and "expected" in value:
        missing = value.get("missing") or []
        text = f"{value.get('present')} of {value.get('expected')} contract ids present"
        return text + (f"; missing: {', '.join(map(str, missing))}" if missing else "")
    return ""


def gate_summary(result: Mapping[str, Any], iteration: int | None) -> GateSummary:
    gates = result.get("gates")
    details = result.get("details")
    if not isinstance(gates, Mapping):
        gates = {}
    if not isinstance(details, Mapping):
        details = {}
    rows: list[GateRow] = []
    for name, value in gates.items():
        detail = details.get(name)
        detail = detail if isinstance(detail, Mapping) else {}
        findings = detail.get("findings")
        findings = findings if isinstance(findings, list) else []
        rows.append(
            GateRow(
                name=str(name),
                status=gate_status(value),
                summary=_summary(value, detail),
                findings=tuple(finding_line(f) for f in findings[:MAX_FINDINGS_SHOWN]),
                more_findings=max(0, len(findings) - MAX_FINDINGS_SHOWN),
            )
        )
    return GateSummary(iteration, tuple(rows))
