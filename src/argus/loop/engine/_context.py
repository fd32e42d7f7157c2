"""What one run shares across its views, and how a view's loop ended."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from argus.confine import Confinement
from argus.confine.detection import NONE
from argus.loop.engine.modes import Mode
from argus.loop.engine.progress import Progress
from argus.loop.engine.services import LoopServices
from argus.loop.guard.manifest import Guard, Verified
from argus.loop.records.events import EventLog
from argus.loop.records.layout import RunLayout
from argus.loop.records.outcome import IterationOutcome
from argus.loop.records.state import LoopSettings
from argus.loop.records.status import Status
from argus.schemas import Rubric
from argus.spec.model import Spec, View

# How a view's loop ended.
SIGNED_OFF = "signed_off"
SIGNOFF_REFUSED = "signoff_refused"  # the committed records do not support a sign-off
BUDGET = "budget"
REPORTED = "reported"  # report-only: its one iteration
NO_IMPLEMENTER = "no_implementer"
STAGNANT = "stagnant"  # two edits in a row left the render byte-identical
STALE_BASELINE = "stale_baseline"  # the snapshot baseline, not the render, breaks the tokens
IMPLEMENTER_STOPPED = "implementer_stopped"  # it reported BLOCKED or NEEDS_CONTEXT
NEEDS_REFERENCE = "needs_reference"  # HE-1: its target has no approved reference
WAITING = "waiting_for_spotcheck"  # HE-2: not started until the first sign-off is checked
INTEGRITY_UNRESTORED = "integrity_unrestored"  # protected files changed and cannot be put back


@dataclass(frozen=True)
class ImplementerSettings:
    command: str
    timeout: float
    model: str = ""  # [implementer] model: fills {model}; a judge on it is refused


@dataclass
class LoopContext:
    """Everything one run shares across its views."""

    spec: Spec
    mode: Mode
    layout: RunLayout
    services: LoopServices
    events: EventLog
    run_id: str
    progress: Progress
    settings: LoopSettings
    implementer: ImplementerSettings | None
    protected: Callable[[], list[str]]  # the protected set, recomputed around every edit
    rubric: Rubric
    config_sha256: str  # the effective config the run started with (argus.loop.guard.config_guard)
    guard: Guard  # the protected set's manifests in the run store (argus.loop.guard.manifest)
    spec_md: str = ""
    tokens_text: str = ""
    sandbox: Confinement = NONE
    # An edit the resume check caught, per view slug: (iteration, what it changed).
    resumed_edits: dict[str, tuple[int, Verified]] = field(default_factory=dict)

    @property
    def root(self) -> Path:
        return self.spec.root


@dataclass(frozen=True)
class ViewResult:
    view: View
    end: str  # signed_off, budget, reported, no_implementer, implementer_stopped
    status: Status
    iterations: int
    concerns: tuple[str, ...] = ()
    detail: str = ""
    signoff: Mapping[str, Any] | None = None
    last: IterationOutcome | None = None
    timings: Mapping[str, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "end": self.end,
            "status": self.status.value,
            "iterations": self.iterations,
            "concerns": list(self.concerns),
            "detail": self.detail,
            "signed_off": self.signoff is not None,
            "last": self.last.kind if self.last else None,
        }
