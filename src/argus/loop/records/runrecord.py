"""``.argus-runs/run.json``: the current run of a feature, and each view's place in it.

A run that is still ``running`` (killed) or ``paused`` (waiting for the human spot-check) is
resumed by the next ``argus loop`` with the same mode and target; anything else starts a new
run. The record also tells a report where each view's files are and how each view ended.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from argus.io import atomic_write_json, read_json
from argus.loop.records.signoff import now_iso

RUNNING = "running"
PAUSED = "paused"
FINISHED = "finished"


@dataclass(frozen=True)
class RunRecord:
    run_id: str
    feature: str
    mode: str
    target: str | None
    max_iterations: int
    started_at: str
    status: str = RUNNING
    final_status: str | None = None
    store: str = ""  # the run store's path, relative to the runs directory's feature root
    config_sha256: str | None = None  # the effective config it started with (config_guard)
    protection: str | None = None  # how implementer calls are kept in bounds (argus.confine)
    containment: str | None = None  # what ends the processes they start (argus.confine)
    # the run's settings against the accepted configuration (argus.loop.guard.config_pin)
    config_pin: Mapping[str, Any] | None = None
    views: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    updated_at: str = ""

    @property
    def open(self) -> bool:
        return self.status in (RUNNING, PAUSED)

    def matches(self, mode: str, target: str | None, max_iterations: int) -> bool:
        return (self.mode, self.target, self.max_iterations) == (mode, target, max_iterations)

    def with_view(self, slug: str, data: Mapping[str, Any]) -> RunRecord:
        return replace(self, views={**self.views, slug: dict(data)})

    def to_json(self) -> dict[str, Any]:
        return {
            "version": 1,
            "run_id": self.run_id,
            "feature": self.feature,
            "mode": self.mode,
            "target": self.target,
            "max_iterations": self.max_iterations,
            "started_at": self.started_at,
            "updated_at": self.updated_at,
            "status": self.status,
            "final_status": self.final_status,
            "store": self.store,
            "config_sha256": self.config_sha256,
            "protection": self.protection,
            "containment": self.containment,
            "config_pin": dict(self.config_pin) if self.config_pin is not None else None,
            "views": {slug: dict(v) for slug, v in self.views.items()},
            "notes": list(self.notes),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RunRecord:
        return cls(
            run_id=str(data["run_id"]),
            feature=str(data["feature"]),
            mode=str(data["mode"]),
            target=data.get("target"),
            max_iterations=int(data["max_iterations"]),
            started_at=str(data["started_at"]),
            status=str(data.get("status", RUNNING)),
            final_status=data.get("final_status"),
            store=str(data.get("store", "")),
            config_sha256=data.get("config_sha256"),
            protection=data.get("protection"),
            containment=data.get("containment"),
            config_pin=pin if isinstance(pin := data.get("config_pin"), dict) else None,
            views=dict(data.get("views", {})),
            notes=tuple(data.get("notes", ())),
            updated_at=str(data.get("updated_at", "")),
        )


def load_run(path: Path) -> RunRecord | None:
    if not path.is_file():
        return None
    data = read_json(path, what="run record")
    try:
        return RunRecord.from_json(data)
    except (KeyError, TypeError, ValueError):
        return None  # unreadable leftovers never block a new run


def save_run(path: Path, record: RunRecord) -> RunRecord:
    stamped = replace(record, updated_at=now_iso())
    atomic_write_json(path, stamped.to_json())
    return stamped
