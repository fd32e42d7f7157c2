"""What the run store holds: runs and the events appended during them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol


class ViewLike(Protocol):
    """Anything naming a view: argus.spec.View, or the store's own ViewKey."""

    @property
    def target(self) -> str: ...

    @property
    def state(self) -> str: ...

    @property
    def appearance(self) -> str: ...


@dataclass(frozen=True)
class ViewKey:
    target: str
    state: str
    appearance: str


@dataclass(frozen=True)
class Event:
    """One fact about a run. ``id`` and ``created_at`` are set by the store on append."""

    kind: str
    feature: str
    run_id: str | None = None
    target: str | None = None
    state: str | None = None
    appearance: str | None = None
    iteration: int | None = None
    payload: Mapping[str, Any] = field(default_factory=dict)
    id: int | None = None
    created_at: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "run_id": self.run_id,
            "kind": self.kind,
            "feature": self.feature,
            "target": self.target,
            "state": self.state,
            "appearance": self.appearance,
            "iteration": self.iteration,
            "created_at": self.created_at,
            "payload": dict(self.payload),
        }


# A contract run's mode (argus.contract._ledger, feature ``contract/ID``); every other mode is a
# loop run's. A contract run has no views, iterations or report: readers of loop runs skip it.
CONTRACT_MODE = "contract"


@dataclass(frozen=True)
class Run:
    run_id: str
    feature: str
    mode: str
    started_at: str
    finished_at: str | None
    status: str | None

    @property
    def kind(self) -> str:
        """``contract`` for a contract run, ``loop`` for a loop's."""
        return "contract" if self.mode == CONTRACT_MODE else "loop"

    @property
    def shown_status(self) -> str:
        """The status to list: the finished one, else ``running`` (a loop's) or ``open`` (a
        contract run's, whose phase only ``argus contract status`` knows)."""
        if self.status is not None:
            return self.status
        return "open" if self.kind == "contract" else "running"

    def to_json(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "kind": self.kind,
            "feature": self.feature,
            "mode": self.mode,
            "started_at": self.started_at,
            "finished_at": self.finished_at,
            "status": self.status,
        }


# The columns an event's hash covers, in the order the store selects them: everything but its
# id (the chain, not the id, fixes its place) and the chain columns themselves. The payload is
# its stored text, so an old store's rows hash exactly as they are.
CHAINED_COLUMNS = (
    "run_id", "kind", "feature", "target", "state", "appearance", "iteration", "created_at",
    "payload",
)  # fmt: skip


def chain_content(values: tuple[Any, ...]) -> dict[str, Any]:
    """What an event's link in the chain covers: its ``CHAINED_COLUMNS`` values by name."""
    return dict(zip(CHAINED_COLUMNS, values, strict=True))


def utc_now() -> str:
    """ISO 8601 UTC with microseconds and a Z, so that text order is time order."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
