"""Sign-off records and their spot-check state, read from ``.argus-runs/signoff.json``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from argus.errors import ArgusError
from argus.loop.signoff import load_records
from argus.report.model import SignoffSummary, SpotCheck


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
    )


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
