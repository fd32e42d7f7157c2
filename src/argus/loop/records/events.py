"""The run's events in the run store, appended exactly once however often the loop resumes.

The files in the run directory are the record; the store is an index of them. Events are
appended only after the iteration they describe is committed, and each is keyed by (run,
view, iteration, kind): on resume every committed iteration's events are compared with the
store and only the missing ones are appended, in their usual order.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from argus.io import read_json
from argus.loop.records.outcome import CONFIRMED, JUDGED, SENSOR_FAILURE, IterationOutcome
from argus.spec.model import View
from argus.store.model import Event
from argus.store.runstore import RunStore

GATE_RESULT_FILE = "gate-result.json"
VERDICT_FILE = "verdict.json"


class EventLog:
    """Idempotent appends for one run."""

    def __init__(self, store: RunStore, feature: str, run_id: str) -> None:
        self.store = store
        self.feature = feature
        self.run_id = run_id
        self._seen: dict[str | None, set[tuple[str, int | None]]] = {}

    def _keys(self, view: View | None) -> set[tuple[str, int | None]]:
        slug = view.slug if view is not None else None
        if slug not in self._seen:
            if view is None:
                events = [e for e in self.store.events(run_id=self.run_id) if e.target is None]
            else:
                events = self.store.events(run_id=self.run_id, view=view)
            self._seen[slug] = {(e.kind, e.iteration) for e in events}
        return self._seen[slug]

    def ensure(
        self,
        kind: str,
        payload: Mapping[str, Any],
        *,
        view: View | None = None,
        iteration: int | None = None,
    ) -> bool:
        """Append the event unless this run already has it; True when appended."""
        keys = self._keys(view)
        if (kind, iteration) in keys:
            return False
        self.store.append(
            Event(
                kind=kind,
                feature=self.feature,
                run_id=self.run_id,
                target=view.target if view else None,
                state=view.state if view else None,
                appearance=view.appearance if view else None,
                iteration=iteration,
                payload=payload,
            )
        )
        keys.add((kind, iteration))
        return True

    def ensure_iteration(self, view: View, outcome: IterationOutcome, directory: Path) -> None:
        """The events of one committed iteration: implementer, sensor failure or gate result,
        verdict, decision."""
        n = outcome.iteration
        if outcome.implementer is not None or outcome.integrity is not None:
            self.ensure(
                "implementer",
                {"implementer": outcome.implementer, "integrity": outcome.integrity},
                view=view,
                iteration=n,
            )
        if outcome.kind == SENSOR_FAILURE:
            self.ensure("sensor_failure", {"error": outcome.error}, view=view, iteration=n)
        gate_file = directory / GATE_RESULT_FILE
        if gate_file.is_file():
            self.ensure("gate_result", _json(gate_file), view=view, iteration=n)
        verdict_file = directory / VERDICT_FILE
        if outcome.kind == JUDGED and verdict_file.is_file():
            self.ensure("verdict", _json(verdict_file), view=view, iteration=n)
        self.ensure(
            "decision",
            {
                "kind": outcome.kind,
                "passed": outcome.passed,
                "confirmed_unchanged": outcome.kind == CONFIRMED,
                "unchanged": outcome.unchanged,
                "unchanged_method": outcome.unchanged_method,
                "unchanged_ratio": outcome.unchanged_ratio,
                "decision": dict(outcome.decision),
                "findings": [f.name for f in outcome.findings],
            },
            view=view,
            iteration=n,
        )


def _json(path: Path) -> dict[str, Any]:
    data = read_json(path, what=path.name)
    return data if isinstance(data, dict) else {"value": data}
