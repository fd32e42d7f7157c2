"""The second half of a view's article: how it got there (the iteration timeline) and how it
ended (the sign-off and its human spot-check)."""

from __future__ import annotations

from argus.report.html import badge, esc, key_values, table, when
from argus.report.model import IterationRow, SignoffSummary, ViewReport
from argus.report.sections import DASH, gate_text

_KINDS = {
    "judged": "judged",
    "confirmed": "confirmed, not re-judged",
    "gates_red": "gates red, judge skipped",
    "sensor_failure": "sensor failed",
    "integrity": "protected files changed",
}
_ACTIONS = {
    "implement": "implement",
    "fix_gates": "fix the red gates",
    "fix_dimensions": "fix the failing dimensions",
    "confirm": "re-render to confirm",
    "retry_judge": "judge again",
    "signoff": "sign off",
    "stop_budget": "stop: budget used",
}


def _timeline_row(row: IterationRow, mode: str) -> tuple[str, ...]:
    result = badge(row.kind if row.kind == "confirmed" else "plain", _KINDS.get(row.kind, row.kind))
    if row.error:
        result += f'<br><span class="subtle">{esc(row.error)}</span>'
    gates = DASH if row.gates == "none" else badge(row.gates)
    if row.red_gate_rows:
        gates += "".join(
            f'<div class="cell-note"><strong>{esc(g.name)}</strong>'
            + (f" ({esc(g.status)})" if g.status != "fail" else "")
            + f": {gate_text(g)}</div>"
            for g in row.red_gate_rows
        )
    elif row.red_gates:
        gates += f'<div class="cell-note">{esc(", ".join(row.red_gates))}</div>'
    verdict = badge(row.verdict) if row.verdict else DASH
    if row.failed_dimensions:
        verdict += f'<div class="cell-note">failed: {esc(", ".join(row.failed_dimensions))}</div>'
    if row.unverified_dimensions:
        names = esc(", ".join(row.unverified_dimensions))
        verdict += f'<div class="cell-note">unverified: {names}</div>'
    if row.counted_pass and row.verdict in ("fail", "unverified"):
        why = "every failure is frozen" if row.verdict == "fail" else "reported as a concern"
        verdict += f'<div class="cell-note">counted as a pass: {why}</div>'
    if row.confirmed_unchanged:
        unchanged = badge("confirmed", "unchanged: suppressed")
    elif row.unchanged is None:
        unchanged = DASH
    else:
        unchanged = "yes" if row.unchanged else "changed"
    implementer = esc(row.implementer) if row.implementer else DASH
    if row.implementer_error:
        implementer += f'<br><span class="subtle">{esc(row.implementer_error)}</span>'
    if row.protection:
        implementer += f'<br><span class="subtle">{esc(row.protection)}</span>'
    if mode == "report-only" and row.next_action == "stop_budget":
        action = "stop: report-only runs one iteration"
    else:
        action = esc(_ACTIONS.get(row.next_action, row.next_action) or DASH)
    if row.newly_frozen:
        action += " " + badge("frozen", "froze " + ", ".join(row.newly_frozen))
    streak = esc(row.passes) if row.passes is not None else DASH
    return (esc(row.iteration), result, gates, verdict, unchanged, implementer, streak, action)


def timeline_section(view: ViewReport, mode: str) -> str:
    if not view.timeline:
        return '<h3>Iterations</h3><p class="subtle">No iteration recorded in this run.</p>'
    return "<h3>Iterations</h3>" + table(
        "One row per iteration, oldest first",
        ("#", "Result", "Gates", "Verdict", "Unchanged", "Implementer", "Passes", "Next"),
        (_timeline_row(r, mode) for r in view.timeline),
        cell_classes=("num",),
    )


def spotcheck_text(record: SignoffSummary) -> str:
    check = record.spotcheck
    text = badge(check.status, f"spot-check {check.status}")
    if check.wrong_dimension:
        text += f" the judge got {esc(check.wrong_dimension)} wrong"
    if check.checked_at:
        text += f' <span class="subtle">{esc(when(check.checked_at))}</span>'
    if check.note:
        text += f"<br>{esc(check.note)}"
    return text


def signoff_section(view: ViewReport, run_id: str, mode: str) -> str:
    record = view.signoff
    if record is None:
        why = "A report-only run never signs off." if mode == "report-only" else "Not signed off."
        return f'<h3>Sign-off</h3><p class="subtle">{esc(why)}</p>'
    in_run = "this run" if record.run_id == run_id else f"an earlier run, {record.run_id or DASH}"
    source = esc(record.reference_source or DASH)
    if record.reference_source == "candidate":
        source = badge("candidate", "candidate") + " an approved Argus render, not a designer's"
    baseline = record.snapshot_baseline
    pairs = [
        ("Signed off", f"{esc(when(record.signed_off_at))} in {esc(in_run)}"),
        ("Iterations", esc(record.iterations)),
        ("Reference", source),
        ("Snapshot baseline", f"<code>{esc(baseline)}</code>" if baseline else "none"),
        ("Concerns", esc("; ".join(record.concerns)) if record.concerns else "none"),
        ("Human spot-check", spotcheck_text(record)),
    ]
    return "<h3>Sign-off</h3>" + key_values(pairs)
