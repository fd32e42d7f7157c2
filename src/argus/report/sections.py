"""The first half of a view's article: images, verdict, gates, and the loud call-outs.

What a reader must not miss is loud: an unverified or abstained dimension is never shown as
passed, a frozen dimension says the loop stopped asking for it, an inconclusive verdict says
why, and a sign-off against a candidate reference says it is not a designer's approval.
"""

from __future__ import annotations

from argus.report.html import badge, bullet_list, esc, table
from argus.report.model import DimensionRow, GateRow, Picture, VerdictSummary, ViewReport

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
    html = f'<h3>Render, reference and diff</h3><div class="triptych">{figures}</div>{stats}'
    if view.snapshot is not None:
        html += (
            f'<h3>Snapshot</h3><div class="triptych">{_picture(view.snapshot)}</div>'
            f'<p class="subtle">{esc(view.snapshot_stats)}</p>'
        )
    return html


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


def gate_text(row: GateRow) -> str:
    return esc(row.summary or DASH) + _findings(row)


def gates_section(view: ViewReport) -> str:
    gates = view.gates
    if gates is None:
        return '<h3>Gates</h3><p class="subtle">No gate result recorded for this view.</p>'
    overall = badge("red" if gates.red else "green", "red" if gates.red else "all green")
    at = f"iteration {gates.iteration}" if gates.iteration is not None else "last result"
    rows = [(esc(row.name), badge(row.status), gate_text(row)) for row in gates.rows]
    body = table(
        f"Deterministic gates at {at}",
        ("Gate", "Status", "Summary and findings"),
        rows,
        cell_classes=(None, None, "summary"),
    )
    return f"<h3>Gates</h3><p>{overall} {esc(at)}</p>{body}"


def alerts(view: ViewReport) -> str:
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
