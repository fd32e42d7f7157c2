"""The review page's HTML, rendered from ``templates/`` (Jinja2, autoescape on): every string
from a run, a spec or a page under test is escaped; data for the script travels in escaped
``data-`` attributes, and the page has no inline script or style (the CSP forbids both)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from argus.report.templating import render
from argus.review.context import ReviewContext
from argus.store import Event, Run
from argus.ui._catalog import FILTERS, FeatureRuns, ViewCard
from argus.ui._marks import Mark

FILTER_LABELS = {
    "all": "All",
    "failed": "Failed",
    "pending": "Waiting for a person",
    "changed": "Changed since baseline",
}
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


def _page(template: str, title: str, **context: Any) -> str:
    return render(template, "argus.ui", title=title, keys=KEYS, view_url=view_url, **context)


def list_page(
    all_runs: Sequence[FeatureRuns],
    wanted: str,
    recent: Sequence[Run],
    reviews: Mapping[str, Sequence[ReviewContext]] | None = None,
) -> str:
    """``reviews``: per feature, the acceptance-fidelity reviews still waiting for a look."""
    counts = {name: 0 for name in FILTERS}
    for runs in all_runs:
        for card in runs.views:
            for name in FILTERS:
                counts[name] += card.matches(name)
    shown = [(r, [c for c in r.views if c.matches(wanted)]) for r in all_runs]
    batch = _batch([c for _, cards in shown for c in cards]) if wanted == "changed" else []
    return _page(
        "list.html",
        FILTER_LABELS[wanted],
        wanted=wanted,
        labels=FILTER_LABELS,
        filters=FILTERS,
        counts=counts,
        shown=shown,
        batch=batch,
        batch_json=json.dumps(batch, separators=(",", ":")),
        recent=recent,
        reviews=reviews or {},
    )


def _batch(cards: Sequence[ViewCard]) -> list[dict[str, object]]:
    """The changed renders a batch accept would take as baselines."""
    return [
        {"feature": c.feature, "slug": c.slug, "iteration": c.iteration}
        for c in cards
        if c.changed and c.iteration is not None
    ]


def _urls(root: Path, card: ViewCard) -> dict[str, str | None]:
    diff = None
    if card.snapshot is not None:
        diff = f"/diff/{quote(card.feature, safe='')}/{quote(card.slug, safe='')}.png"
        diff += "" if card.latest else f"?iteration={card.iteration}"
    return {
        "render": file_url(root, card.render),
        "baseline": file_url(root, card.baseline),
        "reference": file_url(root, card.reference),
        "diff": diff,
    }


def _iteration_links(card: ViewCard, wanted: str) -> list[tuple[int, str, bool]]:
    """(iteration, link, latest) for the render of each committed iteration."""
    base = view_url(card.feature, card.slug, wanted)
    links = []
    for n in card.iterations:
        latest = n == card.iterations[-1]
        href = base if latest else f"{base}{'&' if '?' in base else '?'}iteration={n}"
        links.append((n, href, latest))
    return links


def view_page(
    root: Path,
    runs: FeatureRuns,
    card: ViewCard,
    marks: Sequence[Mark],
    rubric: Sequence[str],
    events: Sequence[Event],
    wanted: str,
    reviews: Sequence[ReviewContext] = (),
) -> str:
    order = [c for c in runs.views if c.matches(wanted) or c.slug == card.slug]
    index = next(i for i, c in enumerate(order) if c.slug == card.slug)
    return _page(
        "view.html",
        card.slug,
        card=card,
        runs=runs,
        wanted=wanted,
        prev_card=order[index - 1] if index > 0 else None,
        next_card=order[index + 1] if index + 1 < len(order) else None,
        iteration_links=_iteration_links(card, wanted),
        urls=_urls(root, card),
        marks=marks,
        marks_json=json.dumps([m.to_json() for m in marks if m.boxed], separators=(",", ":")),
        rubric=rubric,
        mode=runs.run.mode if runs.run is not None else "",
        events=events,
        reviews=reviews,
    )


def error_page(status: int, message: str) -> str:
    return _page("error.html", f"{status}", status=status, message=message)
