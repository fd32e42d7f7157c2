"""The human spot-check (HE-2) as the run store holds it.

``argus approve`` and ``argus ui`` write the spot-check into signoff.json and append it to the
run store as a ``human_decision`` event (argus.loop.human.decisions). The loop takes a spot-check
from signoff.json only when the store's latest spot-check decision for that view and sign-off run
says the same: an "approved" written into the file by anything else (the implementer, a
detached process) is read as still pending.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from argus.store.model import ViewKey
from argus.store.runstore import RunStore

DECISION_KIND = "human_decision"  # as argus.loop.human.decisions appends it
PENDING: Mapping[str, Any] = {"status": "pending"}


def verified_spotcheck(
    store: RunStore, feature: str, record: Mapping[str, Any]
) -> Mapping[str, Any]:
    """The record's spot-check when the store holds that decision, else pending."""
    spotcheck = record.get("human_spotcheck")
    if not isinstance(spotcheck, Mapping) or spotcheck.get("status") == "pending":
        return PENDING
    view = ViewKey(str(record["target"]), str(record["state"]), str(record["appearance"]))
    decisions = [
        e.payload
        for e in store.events(feature=feature, kind=DECISION_KIND, view=view)
        if e.payload.get("action") == "spotcheck"
        and e.payload.get("signoff_run") == record.get("run_id")
    ]
    if not decisions:
        return PENDING
    latest = decisions[-1]
    same = latest.get("status") == spotcheck.get("status") and (
        latest.get("wrong_dimension") or None
    ) == (spotcheck.get("wrong_dimension") or None)
    return spotcheck if same else PENDING
