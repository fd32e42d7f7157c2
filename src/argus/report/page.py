"""The whole report page: head, run summary, one article per view, sign-off records.

The page has no script and makes no request: its Content-Security-Policy allows only inline
styles and ``data:`` images, so even a string that slipped past escaping could not run or
fetch anything.
"""

from __future__ import annotations

from importlib import resources
from urllib.parse import quote

from argus import __version__
from argus.report.history import signoff_section, spotcheck_text, timeline_section
from argus.report.html import anchor_id, badge, bullet_list, esc, table, tag, when
from argus.report.model import RunReport, ViewReport
from argus.report.sections import DASH, alerts, gates_section, pictures_section, verdict_section

CSP = (
    "default-src 'none'; img-src data:; style-src 'unsafe-inline'; "
    "base-uri 'none'; form-action 'none'"
)


def stylesheet() -> str:
    return resources.files("argus.report").joinpath("report.css").read_text("utf-8")


def _summary_row(view: ViewReport, report_run_id: str) -> tuple[str, ...]:
    link = f'<a href="#{anchor_id("view", view.slug)}">{esc(view.slug)}</a>'
    gates = DASH
    if view.gates is not None:
        gates = badge("red", "red") if view.gates.red else badge("green", "green")
    verdict = badge(view.verdict.outcome) if view.verdict is not None else DASH
    marks = []
    if view.unverified:
        marks.append(badge("unverified", f"unverified: {', '.join(view.unverified)}"))
    if view.frozen:
        marks.append(badge("frozen", f"frozen: {', '.join(view.frozen)}"))
    if marks:
        verdict += " " + " ".join(marks)
    signoff = DASH
    if view.signoff is not None and view.signoff.run_id == report_run_id:
        signoff = spotcheck_text(view.signoff)
    elif view.signoff is not None:
        signoff = esc(f"signed off in an earlier run, {view.signoff.run_id or DASH}")
    return (link, badge(view.status), esc(len(view.timeline)), gates, verdict, signoff)


def _header(report: RunReport) -> str:
    status = report.status or "no final status yet"
    facts = [
        ("Run", f"<code>{esc(report.run_id)}</code>"),
        ("Mode", esc(report.mode)),
        ("Started", esc(when(report.started_at))),
        ("Finished", esc(when(report.finished_at) if report.finished_at else DASH)),
        ("Views", esc(len(report.views))),
    ]
    items = "".join(f"<div><dt>{esc(k)}</dt><dd>{v}</dd></div>" for k, v in facts)
    return (
        '<header class="page-head">'
        '<p class="eyebrow">Argus report</p>'
        f"<h1>Feature <code>{esc(report.feature)}</code></h1>"
        f'<p class="status-line">{badge(report.status or "running", status)}'
        f"{badge(report.run_state)}</p>"
        f'<dl class="facts">{items}</dl>'
        "</header>"
    )


def _signoff_table(report: RunReport) -> str:
    if not report.signoffs:
        return '<p class="subtle">No sign-off recorded for this feature yet.</p>'
    rows = [
        (
            esc(r.slug),
            esc(r.run_id or DASH) + (" (this run)" if r.run_id == report.run_id else ""),
            esc(when(r.signed_off_at)),
            esc(r.iterations),
            esc(r.reference_source or DASH),
            esc("; ".join(r.concerns) or "none"),
            spotcheck_text(r),
        )
        for r in report.signoffs
    ]
    return table(
        "Every record in signoff.json, oldest first",
        ("View", "Run", "Signed off", "Iterations", "Reference", "Concerns", "Spot-check"),
        rows,
    )


def ui_link(ui_url: str, feature: str, slug: str) -> str:
    """A link to the view's page on the running review page (argus ui); "" when none runs."""
    if not ui_url:
        return ""
    href = f"{ui_url}/view/{quote(feature, safe='')}/{quote(slug, safe='')}"
    return f' <a class="ui-link" href="{esc(href)}">open in the review page</a>'


def view_article(view: ViewReport, run_id: str, mode: str, link: str = "") -> str:
    heading = anchor_id("h", view.slug)
    head = (
        f'<div class="view-head"><h2 id="{heading}">{esc(view.slug)}</h2>'
        f"{badge(view.status)}{link}</div>"
        f'<p class="subtle">target {esc(view.target)} · state {esc(view.state)} · '
        f"appearance {esc(view.appearance)}"
        + (f" · {esc(view.status_detail)}" if view.status_detail else "")
        + "</p>"
    )
    body = (
        head
        + alerts(view)
        + pictures_section(view)
        + verdict_section(view.verdict)
        + gates_section(view)
        + timeline_section(view, mode)
        + signoff_section(view, run_id, mode)
    )
    return tag(
        "article",
        body,
        class_="card view",
        id=anchor_id("view", view.slug),
        aria_labelledby=heading,
    )


def render_page(report: RunReport) -> str:
    title = f"Argus report · {report.feature} · {report.run_id}"
    summary = table(
        "Final status per view; follow a name to its details",
        ("View", "Status", "Iterations", "Gates", "Verdict", "Sign-off"),
        (_summary_row(v, report.run_id) for v in report.views),
    )
    notes = ""
    if report.notes:
        notes = (
            '<section class="card notes" aria-labelledby="notes-h">'
            '<h2 id="notes-h">Notes</h2>'
            f"{bullet_list(esc(n) for n in report.notes)}</section>"
        )
    views = "".join(
        view_article(v, report.run_id, report.mode, ui_link(report.ui_url, report.feature, v.slug))
        for v in report.views
    )
    if not views:
        views = '<p class="card subtle">This run recorded no view.</p>'
    return (
        "<!doctype html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta http-equiv="Content-Security-Policy" content="{esc(CSP)}">'
        '<meta name="color-scheme" content="light dark">'
        f"<title>{esc(title)}</title><style>{stylesheet()}</style></head><body>"
        f"{_header(report)}<main>"
        '<section class="card" aria-labelledby="summary-h">'
        f'<h2 id="summary-h">Views</h2>{summary}</section>'
        f"{notes}{views}"
        '<section class="card" aria-labelledby="signoffs-h">'
        f'<h2 id="signoffs-h">Sign-off records</h2>{_signoff_table(report)}</section>'
        "</main>"
        f"<footer>Written {esc(when(report.generated_at))} by argus {esc(__version__)}. "
        "Self-contained: images are embedded and the page loads nothing else.</footer>"
        "</body></html>\n"
    )
