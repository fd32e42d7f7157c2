"""What the loop needs from the rest of Argus, as one narrow protocol.

The loop orchestrates; sensing, gating, judging, the unchanged check and the snapshot baseline
are other parts' work. ``LoopServices`` names exactly the calls the loop makes, so the real
implementation (``argus.loop.engine.web_services``) and the fakes in the tests are interchangeable,
and the loop's own overhead can be measured apart from theirs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from argus.spec.model import View
from argus.verdict import NormalizedVerdict

if TYPE_CHECKING:
    from argus.diff.unchanged import UnchangedResult


@dataclass(frozen=True)
class SenseResult:
    """The sensor wrote render.png and probe.json into the directory, or it failed (data)."""

    ok: bool
    error: str = ""


@dataclass(frozen=True)
class GateReport:
    """The normalized gate result; ``evidence`` holds one line per red gate."""

    all_green: bool
    red_gates: tuple[str, ...]
    evidence: Mapping[str, str]
    data: Mapping[str, Any]  # what gate-result.json holds


@dataclass(frozen=True)
class JudgeInputs:
    iteration: int
    prev_render: Path | None


class LoopServices(Protocol):
    def sense(self, view: View, out_dir: Path) -> SenseResult:
        """Render and probe ``view`` into ``out_dir``; a failure is returned, not raised."""
        ...

    def gates(self, view: View, sensed: Path, *, iteration: int) -> GateReport:
        """Run the view's gates over ``sensed``; write ``sensed/gate-result.json``. Snapshot
        baselines are only compared here, never written: the loop writes them at sign-off."""
        ...

    def probe(self, view: View, sensed: Path) -> None:
        """Collect into ``sensed`` the evidence only the judge reads, which ``sense`` left for
        later (the dead-control probe's controls.json): the loop calls it once the gates are
        green, right before the judge, never on an iteration it does not judge."""
        ...

    def judge(self, view: View, sensed: Path, inputs: JudgeInputs) -> NormalizedVerdict:
        """Judge the render in ``sensed``; write ``sensed/verdict.json``. A judge that could not
        answer yields an inconclusive verdict, never an exception."""
        ...

    def unchanged(self, previous: Path, current: Path) -> bool | UnchangedResult:
        """Does ``current`` render the same as ``previous`` (hash suppression)? An
        UnchangedResult also says how it was decided; the loop records the method and ratio."""
        ...

    def write_baseline(self, view: View, render: Path) -> str | None:
        """Record ``render`` as the view's snapshot baseline; its repo-relative path, or None
        when the project keeps no snapshot baselines."""
        ...
