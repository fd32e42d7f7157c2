"""Sign-off records: ``argus/specs/{feature}/.argus-runs/signoff.json``.

The only committed file under ``.argus-runs/``. Each record says which view passed, on what
evidence, in which run, and whether a human spot-checked the judge (HE-2). Every write
replaces the whole file atomically, and a run signs a view off at most once, so a loop killed
and resumed at any point neither loses a sign-off nor writes one twice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from argus.errors import InputError
from argus.io import atomic_write_json, read_json
from argus.schemas import validate
from argus.spec.model import view_slug
from argus.store.model import ViewKey, ViewLike

SIGNOFF_FILE = "signoff.json"
SPOTCHECK_STATES = ("pending", "approved", "wrong")


def now_iso() -> str:
    """Local-independent ISO 8601 with an explicit UTC offset."""
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True)
class SignoffRecord:
    feature: str
    run_id: str
    target: str
    state: str
    appearance: str
    signed_off_at: str
    iterations: int
    reference_source: str | None  # None: the view has no reference of its own
    final_verdict: Mapping[str, Any]
    snapshot_baseline: str | None
    concerns: tuple[str, ...] = ()
    human_spotcheck: Mapping[str, Any] = field(default_factory=lambda: {"status": "pending"})
    protection: str | None = None  # what confined the implementer (argus.confine); None: none ran

    def to_json(self) -> dict[str, Any]:
        return {
            "feature": self.feature,
            "run_id": self.run_id,
            "target": self.target,
            "state": self.state,
            "appearance": self.appearance,
            "signed_off_at": self.signed_off_at,
            "iterations": self.iterations,
            "reference_source": self.reference_source,
            "final_verdict": dict(self.final_verdict),
            "snapshot_baseline": self.snapshot_baseline,
            "concerns": list(self.concerns),
            "human_spotcheck": dict(self.human_spotcheck),
            **({"protection": self.protection} if self.protection else {}),
        }


def _same_view(record: Mapping[str, Any], view: ViewLike) -> bool:
    key: tuple[str, str, str] = (record["target"], record["state"], record["appearance"])
    return key == (view.target, view.state, view.appearance)


def load_records(path: Path) -> list[dict[str, Any]]:
    """The records in ``path`` (none when the file does not exist yet)."""
    if not path.exists():
        return []
    data = read_json(path, what="sign-off record")
    validate("signoff", data, source=path)
    records: list[dict[str, Any]] = data["records"]
    return records


def _save(path: Path, records: Sequence[Mapping[str, Any]]) -> None:
    data = {"version": 1, "records": [dict(r) for r in records]}
    validate("signoff", data, source=path)
    atomic_write_json(path, data)


def find_record(
    records: Sequence[Mapping[str, Any]], view: ViewLike, run_id: str | None = None
) -> Mapping[str, Any] | None:
    """The latest record of ``view`` (in ``run_id`` when given)."""
    for record in reversed(records):
        in_run = run_id is None or str(record.get("run_id")) == run_id
        if in_run and _same_view(record, view):
            found: Mapping[str, Any] = record
            return found
    return None


def append_record(path: Path, record: SignoffRecord) -> bool:
    """Append ``record`` unless its run already signed the view off; True when written."""
    return append_raw(path, record.to_json())


def append_raw(path: Path, record: Mapping[str, Any]) -> bool:
    """Append the JSON ``record`` unless its run already signed the view off; True when
    written."""
    records = load_records(path)
    view = ViewKey(str(record["target"]), str(record["state"]), str(record["appearance"]))
    if find_record(records, view, str(record["run_id"])) is not None:
        return False
    _save(path, [*records, dict(record)])
    return True


def pending_records(
    records: Sequence[Mapping[str, Any]], target: str | None = None
) -> list[Mapping[str, Any]]:
    return [
        r
        for r in records
        if r["human_spotcheck"]["status"] == "pending" and (target is None or r["target"] == target)
    ]


def set_spotcheck(
    path: Path,
    view: ViewLike,
    *,
    wrong_dimension: str | None = None,
    note: str | None = None,
) -> dict[str, Any]:
    """Record the human spot-check on the latest record of ``view``; return that record."""
    records = load_records(path)
    index = next(
        (i for i in range(len(records) - 1, -1, -1) if _same_view(records[i], view)),
        None,
    )
    if index is None:
        slug = view_slug(view.target, view.state, view.appearance)
        raise InputError(f"{path}: view {slug} has no sign-off to spot-check; run argus loop")
    spotcheck: dict[str, Any] = {"status": "wrong" if wrong_dimension else "approved"}
    if wrong_dimension:
        spotcheck["wrong_dimension"] = wrong_dimension
    spotcheck["checked_at"] = now_iso()
    if note:
        spotcheck["note"] = note
    updated = {**records[index], "human_spotcheck": spotcheck}
    records[index] = updated
    _save(path, records)
    return updated
