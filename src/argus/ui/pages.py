"""The review page's HTML. Every string from a run, a spec or a page under test goes through
``esc`` (argus.report.html); data for the script travels in escaped ``data-`` attributes, and
the page has no inline script or style (the CSP forbids both)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import quote, urlencode

from argus.report.history import spotcheck_text, timeline_section
from argus.report.html import badge, esc, table, when
from argus.report.sections import DASH, alerts, gates_section, verdict_section
from argus.store import Event, Run
from argus.ui.catalog import FILTERS, FeatureRuns, ViewCard
from argus.ui.marks import Mark

FILTER_LABELS = {
    "all": "All",
    "failed": "Failed",
    "pending": "Waiting for a person",
    "changed": "Changed since baseline",
}
# A pane that scrolls when zoomed: focusable, so it scrolls from the keyboard too.
SCROLLER = '<div class="scroller" tabindex="0"><div class="frame">'
KEYS = (
    ("j / k", "next / previous view"),
    ("m", "next compare mode"),
    ("1 2 3 4", "side by side, overlay, split, diff"),
    ("+ / -", "zoom in / out"),
    ("a", "accept: the render as baseline, or the reference, or the spot-check"),
    ("r", "reject the spot-check (with the dimension and comment filled in)"),
    ("?", "this help"),
)


def file_url(root: Path, path: Path | None) -> str | None:
    if path is None:
        return None
    try:
        relative = path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return None
    return "/file?" + urlencode({"path": relative})


def view_url(feature: str, slug: str, wanted: str = "all") -> str:
    url = f"/view/{quote(feature, safe='')}/{quote(slug, safe='')}"
    return url + (f"?filter={wanted}" if wanted != "all" else "")


def page(title: str, body: str) -> str:
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(title)} · Argus review</title>"
        '<link rel="stylesheet" href="/static/report.css">'
        '<link rel="stylesheet" href="/static/ui.css">'
        '<script src="/static/ui.js" defer></script></head><body>'
        '<header class="ui-bar"><a class="home" href="/">Argus review</a>'
        '<form id="token-form" class="token" autocomplete="off">'
        '<label for="token-input">Launch token</label>'
        '<input id="token-input" type="password" spellcheck="false" autocomplete="off" '
        'placeholder="printed by argus ui">'
        '<button type="submit">Use</button>'
        '<span id="token-state" class="subtle" aria-live="polite"></span></form>'
        '<button type="button" id="help-button" aria-controls="help" '
        'aria-expanded="false">Keys (?)</button></header>'
        f"{_help()}<main>{body}</main>"
        '<div id="toast" role="status" aria-live="polite"></div></body></html>'
    )


def _help() -> str:
    rows = "".join(f"<div><dt><kbd>{esc(k)}</kbd></dt><dd>{esc(v)}</dd></div>" for k, v in KEYS)
    return f'<aside id="help" hidden><h2>Keyboard</h2><dl class="kv">{rows}</dl></aside>'


def _snapshot_badge(card: ViewCard) -> str:
    if card.error:
        return badge("error", "cannot compare")
    if card.snapshot is None:
        return badge("plain", "no baseline" if card.baseline is None else "no render")
    return badge("diff", "changed") if card.changed else badge("pass", "same")


def _gates_badge(card: ViewCard) -> str:
    gates = card.report.gates if card.report is not None else None
    if gates is None:
        return DASH
    return badge("red", "red: " + ", ".join(gates.red)) if gates.red else badge("green", "green")


def _verdict_badge(card: ViewCard) -> str:
    verdict = card.report.verdict if card.report is not None else None
    return badge(verdict.outcome) if verdict is not None else DASH


def _waiting_badge(card: ViewCard) -> str:
    if card.waiting == "HE-1":
        return badge("candidate", "HE-1: approve the reference")
    if card.waiting == "HE-2":
        return badge("pending", "HE-2: spot-check")
    return DASH


def _filters(counts: dict[str, int], wanted: str) -> str:
    links = []
    for name in FILTERS:
        current = ' aria-current="page"' if name == wanted else ""
        href = "/" if name == "all" else f"/?filter={name}"
        links.append(
            f'<a href="{esc(href)}"{current} data-filter="{esc(name)}">'
            f'{esc(FILTER_LABELS[name])} <span class="count">{counts.get(name, 0)}</span></a>'
        )
    return f'<nav class="filters" aria-label="Filter views">{"".join(links)}</nav>'


def _lock_banner(runs: FeatureRuns) -> str:
    if runs.loop_pid is None:
        return ""
    return (
        f'<p class="alert tone-warn" role="note">A loop is running on this feature (pid '
        f"{esc(runs.loop_pid)}): decisions are refused until it stops.</p>"
    )


def _feature_section(runs: FeatureRuns, cards: Sequence[ViewCard], wanted: str) -> str:
    run = runs.run
    if run is not None:
        facts = (
            f"run <code>{esc(run.run_id)}</code> · {esc(run.mode)} · {badge(run.run_state)} "
            f"{badge(run.status) if run.status else ''} · started {esc(when(run.started_at))}"
        )
    else:
        facts = "no run recorded yet"
    notes = "".join(f'<p class="subtle">{esc(n)}</p>' for n in runs.notes[:3])
    if not cards:
        body = '<p class="subtle">No view matches this filter.</p>'
    else:
        rows = [
            (
                f'<a href="{esc(view_url(c.feature, c.slug, wanted))}">{esc(c.slug)}</a>',
                badge(c.status),
                _waiting_badge(c),
                _snapshot_badge(c),
                _gates_badge(c),
                _verdict_badge(c),
            )
            for c in cards
        ]
        body = table(
            f"Views of {runs.feature}",
            ("View", "Status", "Waiting for", "Snapshot", "Gates", "Verdict"),
            rows,
        )
    return (
        f'<section class="feature" aria-labelledby="f-{esc(runs.feature)}">'
        f'<h2 id="f-{esc(runs.feature)}">Feature <code>{esc(runs.feature)}</code></h2>'
        f"<p>{facts}</p>{_lock_banner(runs)}{notes}{body}</section>"
    )


def _batch(cards: Sequence[ViewCard]) -> str:
    items = [
        {"feature": c.feature, "slug": c.slug, "iteration": c.iteration}
        for c in cards
        if c.changed and c.iteration is not None
    ]
    if not items:
        return ""
    data = json.dumps(items, separators=(",", ":"))
    return (
        '<div class="batch"><button type="button" id="batch-accept" class="action" '
        f'data-items="{esc(data)}">Accept {len(items)} changed render(s) as baselines</button>'
        '<span class="subtle"> each through the same code as <code>argus approve '
        "--baseline</code></span></div>"
    )


def list_page(all_runs: Sequence[FeatureRuns], wanted: str, recent: Sequence[Run]) -> str:
    counts = {name: 0 for name in FILTERS}
    for runs in all_runs:
        for card in runs.views:
            for name in FILTERS:
                counts[name] += card.matches(name)
    shown = [(r, [c for c in r.views if c.matches(wanted)]) for r in all_runs]
    sections = "".join(_feature_section(r, cards, wanted) for r, cards in shown)
    if not all_runs:
        sections = '<p class="subtle">No feature here: run <code>argus init FEATURE</code>.</p>'
    batch = _batch([c for _, cards in shown for c in cards]) if wanted == "changed" else ""
    history = _runs_table(recent)
    body = (
        '<header class="page-head"><p class="eyebrow">Runs and views</p>'
        f"<h1>{esc(FILTER_LABELS[wanted])}</h1></header>"
        f"{_filters(counts, wanted)}{batch}{sections}{history}"
    )
    return page(FILTER_LABELS[wanted], body)


def _runs_table(recent: Sequence[Run]) -> str:
    if not recent:
        return ""
    rows = [
        (
            f"<code>{esc(r.run_id)}</code>",
            esc(r.feature),
            esc(r.mode),
            badge(r.status) if r.status else badge("running"),
            esc(when(r.started_at)),
        )
        for r in recent
    ]
    return "<h3>Recent runs</h3>" + table(
        "The latest runs in the run store", ("Run", "Feature", "Mode", "Status", "Started"), rows
    )


def _figure(label: str, url: str | None, alt: str, pane: str) -> str:
    if url is None:
        return (
            f'<figure class="pane" data-pane="{esc(pane)}"><div class="missing" role="img" '
            f'aria-label="{esc(alt)}: not available">not available</div>'
            f"<figcaption>{esc(label)}</figcaption></figure>"
        )
    return (
        f'<figure class="pane" data-pane="{esc(pane)}">{SCROLLER}'
        f'<img src="{esc(url)}" alt="{esc(alt)}"></div></div>'
        f"<figcaption>{esc(label)}</figcaption></figure>"
    )


def _compare(root: Path, card: ViewCard, marks: Sequence[Mark]) -> str:
    render = file_url(root, card.render)
    baseline = file_url(root, card.baseline)
    reference = file_url(root, card.reference)
    diff = (
        f"/diff/{quote(card.feature, safe='')}/{quote(card.slug, safe='')}.png"
        + ("" if card.latest else f"?iteration={card.iteration}")
        if card.snapshot is not None
        else None
    )
    against = baseline or reference
    at = f" (iteration {card.iteration})" if card.iteration is not None else ""
    stage_data = json.dumps([m.to_json() for m in marks if m.boxed], separators=(",", ":"))
    size = (
        f' data-width="{card.snapshot.width}" data-height="{card.snapshot.height}"'
        if card.snapshot is not None
        else ""
    )
    controls = (
        '<div class="controls" role="toolbar" aria-label="Compare">'
        '<div class="modes" role="group" aria-label="Compare mode">'
        '<button type="button" data-mode="side" aria-pressed="true">Side by side</button>'
        '<button type="button" data-mode="overlay" aria-pressed="false">Overlay</button>'
        '<button type="button" data-mode="split" aria-pressed="false">Split</button>'
        f'<button type="button" data-mode="diff" aria-pressed="false"{"" if diff else " disabled"}>'
        "Diff</button></div>"
        '<label class="slider" data-for="overlay">Render opacity '
        '<input type="range" id="opacity" min="0" max="100" value="50"></label>'
        '<label class="slider" data-for="split">Split '
        '<input type="range" id="split" min="0" max="100" value="50"></label>'
        '<label>Zoom <select id="zoom"><option value="0">fit</option><option value="1">1×'
        '</option><option value="2">2×</option><option value="4">4×</option></select></label>'
        '<label><input type="checkbox" id="show-marks" checked> boxes</label></div>'
    )
    side = (
        '<div class="side" data-show="side">'
        + _figure(f"Render{at}", render, f"Render of {card.slug}", "render")
        + _figure("Snapshot baseline", baseline, f"Baseline of {card.slug}", "baseline")
        + _figure(card.reference_label, reference, f"Reference of {card.slug}", "reference")
        + "</div>"
    )
    stack = ""
    if render is not None and against is not None:
        which = "baseline" if baseline else "reference"
        stack = (
            f'<div class="stack" data-show="overlay split">{SCROLLER}'
            f'<img class="under" src="{esc(against)}" alt="{esc(which)} of {esc(card.slug)}">'
            f'<img class="over" src="{esc(render)}" alt="Render of {esc(card.slug)} on top">'
            '<div class="handle" aria-hidden="true"></div></div></div>'
            f'<p class="subtle">Render over the {esc(which)}.</p></div>'
        )
    else:
        stack = (
            '<div class="stack" data-show="overlay split"><p class="subtle">Nothing to overlay: '
            "the view needs a render and a baseline or reference.</p></div>"
        )
    diff_html = ""
    if diff is not None and card.snapshot is not None:
        snap = card.snapshot
        diff_html = (
            f'<div class="diffpane" data-show="diff">{SCROLLER}'
            f'<img src="{esc(diff)}" alt="Differences from the baseline, in red"></div></div>'
            f'<p class="subtle">{esc(snap.summary)}'
            + (f"; {esc(snap.size_note)}" if snap.size_note else "")
            + f"; {len(snap.regions)} changed region(s) boxed.</p></div>"
        )
    return (
        f'<section class="compare" aria-label="Compare"{size} data-marks="{esc(stage_data)}">'
        f"{controls}{side}{stack}{diff_html}</section>"
    )


def _actions(card: ViewCard, rubric: Sequence[str], runs: FeatureRuns) -> str:
    parts: list[str] = []
    data = f'data-feature="{esc(card.feature)}" data-slug="{esc(card.slug)}"'
    if card.render is not None and not card.latest:
        parts.append(
            f'<p class="alert tone-warn" role="note">This is the render of iteration '
            f"{esc(card.iteration)}; a baseline is accepted from the latest render only "
            f"(iteration {esc(card.iterations[-1])}).</p>"
        )
    elif card.render is not None:
        state = "changed since the baseline" if card.changed else "no baseline difference"
        if card.baseline is None:
            state = "no baseline yet"
        parts.append(
            f'<div class="act"><button type="button" class="action primary" id="accept-baseline"'
            f' {data} data-iteration="{esc(card.iteration)}">Accept render as baseline</button>'
            f'<span class="subtle">{esc(state)}</span></div>'
        )
    if card.waiting == "HE-1":
        parts.append(
            f'<div class="act"><button type="button" class="action primary" '
            f'id="approve-reference" {data}>Approve candidate reference (HE-1)</button>'
            '<span class="subtle">the candidate becomes references/ with source: candidate'
            "</span></div>"
        )
    signoff = card.report.signoff if card.report is not None else None
    if signoff is not None:
        options = "".join(f'<option value="{esc(n)}">{esc(n)}</option>' for n in rubric)
        parts.append(
            '<fieldset class="act spotcheck"><legend>Spot-check of the sign-off (HE-2): '
            f"{spotcheck_text(signoff)}</legend>"  # built HTML, its text already escaped
            '<label for="spot-note">Comment</label>'
            '<textarea id="spot-note" rows="2" maxlength="2000"></textarea>'
            f'<button type="button" class="action primary" id="approve-spotcheck" {data}>'
            "Approve: the judge was right</button>"
            '<label for="spot-dimension">Wrong dimension</label>'
            f'<select id="spot-dimension">{options}</select>'
            f'<button type="button" class="action danger" id="reject-spotcheck" {data}>'
            "Reject: the judge got it wrong</button></fieldset>"
        )
    if not parts:
        parts.append('<p class="subtle">Nothing to decide on this view yet.</p>')
    return (
        '<section class="actions" aria-label="Decisions"><h3>Decisions</h3>'
        f"{_lock_banner(runs)}{''.join(parts)}</section>"
    )


def _iteration_nav(card: ViewCard, wanted: str) -> str:
    """Links to the render of each committed iteration; the current one marked."""
    if len(card.iterations) < 2:
        return ""
    links = []
    base = view_url(card.feature, card.slug, wanted)
    for n in card.iterations:
        latest = n == card.iterations[-1]
        href = base if latest else f"{base}{'&' if '?' in base else '?'}iteration={n}"
        label = f"{n} (latest)" if latest else str(n)
        current = ' aria-current="page"' if n == card.iteration else ""
        links.append(f'<a href="{esc(href)}"{current}>{esc(label)}</a>')
    return (
        '<nav class="iterations" aria-label="Render of iteration">Render of iteration: '
        f"{' '.join(links)}</nav>"
    )


def _marks_list(marks: Sequence[Mark]) -> str:
    if not marks:
        return ""
    items = []
    boxed = 0  # the index among the boxed marks: the stage's data-marks holds only those
    for mark in marks:
        label = f"{esc(mark.source)}: {esc(mark.label)}"
        if mark.boxed:
            items.append(
                f'<li><button type="button" class="mark-link" data-mark="{boxed}">'
                f"{label}</button></li>"
            )
            boxed += 1
        else:
            items.append(f'<li>{label} <span class="subtle">(no box)</span></li>')
    return f'<h3>Findings on the render</h3><ul class="marks">{"".join(items)}</ul>'


def _history(events: Sequence[Event]) -> str:
    if not events:
        return ""
    rows = [
        (
            esc(when(e.created_at or "")),
            esc(str(e.payload.get("action", ""))),
            esc(str(e.payload.get("by", ""))),
            esc(str(e.payload.get("via", ""))),
            esc(
                str(
                    e.payload.get("note")
                    or e.payload.get("baseline")
                    or e.payload.get("reference")
                    or e.payload.get("status")
                    or ""
                )
            ),
        )
        for e in events
    ]
    return "<h3>Decisions recorded</h3>" + table(
        "Human decisions in the run store, oldest first",
        ("When", "Action", "By", "Via", "Detail"),
        rows,
    )


def view_page(
    root: Path,
    runs: FeatureRuns,
    card: ViewCard,
    marks: Sequence[Mark],
    rubric: Sequence[str],
    events: Sequence[Event],
    wanted: str,
) -> str:
    order = [c for c in runs.views if c.matches(wanted) or c.slug == card.slug]
    index = next(i for i, c in enumerate(order) if c.slug == card.slug)
    prev_card = order[index - 1] if index > 0 else None
    next_card = order[index + 1] if index + 1 < len(order) else None
    nav = '<nav class="pager" aria-label="Views">'
    if prev_card is not None:
        href = view_url(prev_card.feature, prev_card.slug, wanted)
        nav += f'<a id="prev-view" href="{esc(href)}">← {esc(prev_card.slug)}</a>'
    nav += f'<a href="{esc("/" if wanted == "all" else "/?filter=" + wanted)}">all views</a>'
    if next_card is not None:
        href = view_url(next_card.feature, next_card.slug, wanted)
        nav += f'<a id="next-view" href="{esc(href)}">{esc(next_card.slug)} →</a>'
    nav += "</nav>"
    report = card.report
    head = (
        f'<header class="page-head"><p class="eyebrow">Feature {esc(card.feature)} · '
        f"{esc(card.run_id or 'no run')}</p><h1>{esc(card.slug)}</h1>"
        f"<p>{badge(card.status)} {esc(card.detail)} {_waiting_badge(card) if card.waiting else ''}"
        f" {_snapshot_badge(card)}</p></header>"
    )
    if card.error:
        head += f'<p class="alert tone-warn" role="note">Not compared: {esc(card.error)}</p>'
    body = head + nav + _iteration_nav(card, wanted) + _compare(root, card, marks)
    body += _actions(card, rubric, runs)
    body += _marks_list(marks)
    if report is not None:
        mode = runs.run.mode if runs.run is not None else ""
        body += alerts(report) + verdict_section(report.verdict) + gates_section(report)
        body += timeline_section(report, mode)
    body += _history(events)
    return page(card.slug, body)


def error_page(status: int, message: str) -> str:
    return page(f"{status}", f'<h1>{status}</h1><p>{esc(message)}</p><p><a href="/">back</a></p>')
