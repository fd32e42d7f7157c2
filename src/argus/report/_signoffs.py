"""Sign-off records and their spot-check state, read from ``.argus-runs/signoff.json``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from argus.errors import ArgusError
from argus.loop.records.signoff import load_records
from argus.report.model import SignoffSummary, SpotCheck
from argus.store import Event


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def summarize(record: Mapping[str, Any]) -> SignoffSummary:
    check = record.get("human_spotcheck")
    check = check if isinstance(check, Mapping) else {}
    concerns = record.get("concerns")
    iterations = record.get("iterations")
    return SignoffSummary(
        target=_text(record.get("target")),
        state=_text(record.get("state")),
        appearance=_text(record.get("appearance")),
        run_id=_text(record.get("run_id")),
        signed_off_at=_text(record.get("signed_off_at")),
        iterations=iterations if isinstance(iterations, int) else 0,
        reference_source=_text(record.get("reference_source")),
        snapshot_baseline=_text(record.get("snapshot_baseline")),
        concerns=tuple(map(str, concerns)) if isinstance(concerns, list) else (),
        spotcheck=SpotCheck(
            status=_text(check.get("status")) or "pending",
            wrong_dimension=_text(check.get("wrong_dimension")),
            checked_at=_text(check.get("checked_at")),
            note=_text(check.get("note")),
        ),
        protection=_text(record.get("protection")),
    )


def checked_spotcheck(
    summary: SignoffSummary, events: Sequence[Event], run_id: str
) -> SignoffSummary:
    """A spot-check of this run's sign-off is shown only when the run store holds that decision
    (as the loop reads it, argus.loop.records.spotchecks); one written into signoff.json by anything
    else reads as pending."""
    if summary.run_id != run_id or summary.spotcheck.status == "pending":
        return summary
    decisions = [
        e.payload
        for e in events
        if e.kind == "human_decision"
        and (e.target, e.state, e.appearance) == (summary.target, summary.state, summary.appearance)
        and e.payload.get("action") == "spotcheck"
        and e.payload.get("signoff_run") == run_id
    ]
    latest = decisions[-1] if decisions else {}
    same = (
        latest.get("status") == summary.spotcheck.status
        and (latest.get("wrong_dimension") or "") == summary.spotcheck.wrong_dimension
    )
    return summary if same else replace(summary, spotcheck=SpotCheck(status="pending"))


def read_signoffs(path: Path, notes: list[str]) -> tuple[SignoffSummary, ...]:
    """Every record in ``path``, oldest first; a broken file becomes a note, not a failure."""
    try:
        records = load_records(path)
    except ArgusError as exc:
        notes.append(f"sign-off records not shown: {exc}")
        return ()
    return tuple(summarize(r) for r in records)


def signoff_for(
    records: Sequence[SignoffSummary], slug: str, run_id: str, started_at: str = ""
) -> SignoffSummary | None:
    """The record this run wrote for the view, else the view's latest one from a run that
    signed it off before this run started (a later run's sign-off says nothing about this
    one: an old report must not show a spot-check for a view that run left BLOCKED)."""
    mine = [r for r in records if r.slug == slug and r.run_id == run_id]
    if mine:
        return mine[-1]
    earlier = [
        r
        for r in records
        if r.slug == slug and started_at and r.signed_off_at and r.signed_off_at < started_at
    ]
    return earlier[-1] if earlier else None
