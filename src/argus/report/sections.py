"""One view's article: images, verdict, gates, iteration timeline, sign-off.

What a reader must not miss is loud: an unverified or abstained dimension is never shown as
passed, a frozen dimension says the loop stopped asking for it, an inconclusive verdict says
why, and a sign-off against a candidate reference says it is not a designer's approval.
"""

from __future__ import annotations

from argus.report.html import anchor_id, badge, bullet_list, esc, key_values, table, tag, when
from argus.report.model import (
    DimensionRow,
    GateRow,
    IterationRow,
    Picture,
    SignoffSummary,
    VerdictSummary,
    ViewReport,
)

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
DASH = "—"


def score_text(score: float | None) -> str:
    if score is None:
        return DASH
    return str(int(score)) if score.is_integer() else f"{score:g}"


def _picture(picture: Picture) -> str:
    caption = f"<strong>{esc(picture.label)}</strong>"
    if picture.note and picture.data_uri is not None:  # a missing image says why in its box
        caption += f'<span class="subtle">{esc(picture.note)}</span>'
    if picture.data_uri is None:
        body = f'<div class="missing" role="img" aria-label="{esc(picture.alt)}: not available">'
        body += f"{esc(picture.note or 'not available')}</div>"
    else:
        body = (
            f'<img src="{esc(picture.data_uri)}" alt="{esc(picture.alt)}" '
            f'width="{picture.width}" height="{picture.height}">'
        )
    return f"<figure>{body}<figcaption>{caption}</figcaption></figure>"


def pictures_section(view: ViewReport) -> str:
    figures = "".join(_picture(p) for p in view.pictures)
    stats = f'<p class="subtle">{esc(view.diff_stats)}</p>' if view.diff_stats else ""
    return f'<h3>Render, reference and diff</h3><div class="triptych">{figures}</div>{stats}'


def _dimension_result(row: DimensionRow) -> str:
    parts = [badge(row.status, "UNVERIFIED" if row.status == "unverified" else row.status)]
    if row.abstained:
        parts.append(badge("unverified", "abstained"))
    if row.frozen:
        parts.append(badge("frozen", "FROZEN"))
    return " ".join(parts)


def verdict_section(verdict: VerdictSummary | None) -> str:
    if verdict is None:
        return '<h3>Verdict</h3><p class="subtle">The judge did not run for this view.</p>'
    by = ", ".join(x for x in (verdict.backend, verdict.model) if x) or "unknown judge"
    head = (
        f"<h3>Verdict</h3><p>{badge(verdict.outcome)} iteration "
        f"{esc(verdict.iteration if verdict.iteration is not None else DASH)}, by {esc(by)}"
    )
    if verdict.reference_source:
        head += f", against a {esc(verdict.reference_source)} reference"
    head += "</p>"
    if verdict.error:
        head += f"<p>Inconclusive: {esc(verdict.error)}</p>"
    rows = [
        (
            esc(d.name),
            _dimension_result(d),
            esc(f"{score_text(d.score)} / {score_text(d.threshold)}"),
            esc(d.anchor or DASH),
            esc(d.evidence or DASH)
            + (f'<br><span class="subtle">by {esc(d.judged_by)}</span>' if d.judged_by else ""),
        )
        for d in verdict.dimensions
    ]
    body = table(
        "Score per rubric dimension (score / threshold); pass and fail derived from the scores",
        ("Dimension", "Result", "Score", "Anchor", "Evidence"),
        rows,
        cell_classes=(None, None, "num", None, "evidence"),
    )
    if verdict.corrections:
        body += "<p>Argus corrected the judge's own claims:</p>"
        body += bullet_list(esc(c) for c in verdict.corrections)
    if verdict.notes:
        body += f'<p class="subtle">Judge notes: {esc(verdict.notes)}</p>'
    return head + body


def _findings(row: GateRow) -> str:
    if not row.findings:
        return ""
    more = f"<li>… and {row.more_findings} more</li>" if row.more_findings else ""
    items = "".join(f"<li>{esc(f)}</li>" for f in row.findings) + more
    count = len(row.findings) + row.more_findings
    return f"<details><summary>{count} finding(s)</summary><ul>{items}</ul></details>"


def _gate_text(row: GateRow) -> str:
    return esc(row.summary or DASH) + _findings(row)


def gates_section(view: ViewReport) -> str:
    gates = view.gates
    if gates is None:
        return '<h3>Gates</h3><p class="subtle">No gate result recorded for this view.</p>'
    overall = badge("red" if gates.red else "green", "red" if gates.red else "all green")
    at = f"iteration {gates.iteration}" if gates.iteration is not None else "last result"
    rows = [(esc(row.name), badge(row.status), _gate_text(row)) for row in gates.rows]
    body = table(
        f"Deterministic gates at {at}",
        ("Gate", "Status", "Summary and findings"),
        rows,
        cell_classes=(None, None, "summary"),
    )
    return f"<h3>Gates</h3><p>{overall} {esc(at)}</p>{body}"


def _timeline_row(row: IterationRow) -> tuple[str, ...]:
    result = badge(row.kind if row.kind == "confirmed" else "plain", _KINDS.get(row.kind, row.kind))
    if row.error:
        result += f'<br><span class="subtle">{esc(row.error)}</span>'
    gates = DASH if row.gates == "none" else badge(row.gates)
    if row.red_gate_rows:
        gates += "".join(
            f'<div class="cell-note"><strong>{esc(g.name)}</strong>'
            + (f" ({esc(g.status)})" if g.status != "fail" else "")
            + f": {_gate_text(g)}</div>"
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
    action = esc(_ACTIONS.get(row.next_action, row.next_action) or DASH)
    if row.newly_frozen:
        action += " " + badge("frozen", "froze " + ", ".join(row.newly_frozen))
    streak = esc(row.passes) if row.passes is not None else DASH
    return (esc(row.iteration), result, gates, verdict, unchanged, implementer, streak, action)


def timeline_section(view: ViewReport) -> str:
    if not view.timeline:
        return '<h3>Iterations</h3><p class="subtle">No iteration recorded in this run.</p>'
    return "<h3>Iterations</h3>" + table(
        "One row per iteration, oldest first",
        ("#", "Result", "Gates", "Verdict", "Unchanged", "Implementer", "Passes", "Next"),
        (_timeline_row(r) for r in view.timeline),
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


def _alerts(view: ViewReport) -> str:
    items: list[str] = []
    if view.unverified:
        items.append(
            f"<strong>Unverified:</strong> {esc(', '.join(view.unverified))}: no backend could "
            "measure it; this is not a pass."
        )
    if view.frozen:
        items.append(
            f"<strong>Frozen:</strong> {esc(', '.join(view.frozen))}: failed its attempts; the "
            "loop stopped asking the implementer to fix it."
        )
    if view.verdict is not None and view.verdict.outcome == "inconclusive":
        items.append("<strong>Inconclusive verdict:</strong> it never counts as a pass.")
    # Frozen and unverified concerns are already called out above.
    covered = {f"frozen: {n}" for n in view.frozen} | {f"unverified: {n}" for n in view.unverified}
    items.extend(f"<strong>Concern:</strong> {esc(c)}" for c in view.concerns if c not in covered)
    if not items:
        return ""
    return f'<div class="alert tone-warn" role="note">{bullet_list(items)}</div>'


def view_article(view: ViewReport, run_id: str, mode: str) -> str:
    heading = anchor_id("h", view.slug)
    head = (
        f'<div class="view-head"><h2 id="{heading}">{esc(view.slug)}</h2>'
        f"{badge(view.status)}</div>"
        f'<p class="subtle">target {esc(view.target)} · state {esc(view.state)} · '
        f"appearance {esc(view.appearance)}"
        + (f" · {esc(view.status_detail)}" if view.status_detail else "")
        + "</p>"
    )
    body = (
        head
        + _alerts(view)
        + pictures_section(view)
        + verdict_section(view.verdict)
        + gates_section(view)
        + timeline_section(view)
        + signoff_section(view, run_id, mode)
    )
    return tag(
        "article",
        body,
        class_="card view",
        id=anchor_id("view", view.slug),
        aria_labelledby=heading,
    )
