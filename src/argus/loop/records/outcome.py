"""What one committed iteration found: ``iteration-N/outcome.json``.

The outcome is written just before the view's state counts the iteration, and it is what a
resumed loop reads back: whether the last iteration passed (so the next one is a confirm, not
an edit), what the implementer must fix next, and the decision the state took. The run store's
events for the iteration are derived from it, so a kill between the commit and the store
append is repaired by appending what is missing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from argus.io import atomic_write_json, read_json

# How an iteration ended.
JUDGED = "judged"  # the judge scored the render
CONFIRMED = "confirmed"  # hash-suppressed confirm: unchanged render after a pass
GATES_RED = "gates_red"  # the deterministic floor failed; the judge did not run
SENSOR_FAILURE = "sensor_failure"  # no render: recorded as the failed pseudo-gate below
# The name a sensor failure is recorded under in gate-result.json and red_gates: not a gate a
# project configures (a user's `build` command gate is one), so it cannot be mistaken for one.
RENDER_GATE = "render"
INTEGRITY = "integrity"  # the implementer changed a protected file
KINDS = (JUDGED, CONFIRMED, GATES_RED, SENSOR_FAILURE, INTEGRITY)


@dataclass(frozen=True)
class Finding:
    """One item to fix: a failing rubric dimension or a red gate, with its evidence."""

    kind: str  # "dimension" or "gate"
    name: str
    evidence: str


@dataclass(frozen=True)
class IterationOutcome:
    iteration: int
    kind: str
    passed: bool  # counted as a pass by the loop state
    decision: Mapping[str, Any]
    findings: tuple[Finding, ...] = ()  # what the next edit must fix
    verdict_outcome: str | None = None  # pass, fail, unverified, inconclusive
    red_gates: tuple[str, ...] = ()
    failed_dimensions: tuple[str, ...] = ()
    unverified_dimensions: tuple[str, ...] = ()
    unchanged: bool | None = None
    # How the unchanged check decided (argus.diff.is_unchanged: identical-bytes, pixelmatch,
    # size-changed, no-previous) and the share of differing pixels it measured.
    unchanged_method: str | None = None
    unchanged_ratio: float | None = None
    implementer: Mapping[str, Any] | None = None
    # An edit ran before this iteration and the render came out byte-identical to the one
    # before it (None: no edit, or nothing to compare with).
    render_identical_after_edit: bool | None = None
    # The snapshot gate's word that the baseline, not the render, breaks the tokens ("": no).
    stale_baseline: str = ""
    integrity: Mapping[str, Any] | None = None
    error: str = ""
    timings: Mapping[str, float] = field(default_factory=dict)

    @property
    def has_render(self) -> bool:
        return self.kind in (JUDGED, CONFIRMED, GATES_RED)

    def summary(self) -> str:
        """One line for progress output."""
        if self.kind == JUDGED:
            text = f"judged {self.verdict_outcome}"
            if self.failed_dimensions:
                text += f" ({', '.join(self.failed_dimensions)})"
            elif self.unverified_dimensions:
                text += f" (unverified: {', '.join(self.unverified_dimensions)})"
            return text
        if self.kind == CONFIRMED:
            return "confirmed: unchanged since the pass"
        if self.kind == GATES_RED:
            return f"gates red ({', '.join(self.red_gates)})"
        if self.kind == SENSOR_FAILURE:
            return f"sensor failed: {self.error}"
        return f"implementer changed protected files: {self.error}"

    def to_json(self) -> dict[str, Any]:
        return {
            "iteration": self.iteration,
            "kind": self.kind,
            "passed": self.passed,
            "decision": dict(self.decision),
            "findings": [
                {"kind": f.kind, "name": f.name, "evidence": f.evidence} for f in self.findings
            ],
            "verdict_outcome": self.verdict_outcome,
            "red_gates": list(self.red_gates),
            "failed_dimensions": list(self.failed_dimensions),
            "unverified_dimensions": list(self.unverified_dimensions),
            "unchanged": self.unchanged,
            "unchanged_method": self.unchanged_method,
            "unchanged_ratio": self.unchanged_ratio,
            "implementer": dict(self.implementer) if self.implementer is not None else None,
            "render_identical_after_edit": self.render_identical_after_edit,
            "stale_baseline": self.stale_baseline,
            "integrity": dict(self.integrity) if self.integrity is not None else None,
            "error": self.error,
            "timings": {k: round(v, 4) for k, v in self.timings.items()},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> IterationOutcome:
        return cls(
            iteration=int(data["iteration"]),
            kind=str(data["kind"]),
            passed=bool(data["passed"]),
            decision=dict(data["decision"]),
            findings=tuple(
                Finding(str(f["kind"]), str(f["name"]), str(f["evidence"]))
                for f in data.get("findings", [])
            ),
            verdict_outcome=data.get("verdict_outcome"),
            red_gates=tuple(data.get("red_gates", [])),
            failed_dimensions=tuple(data.get("failed_dimensions", [])),
            unverified_dimensions=tuple(data.get("unverified_dimensions", [])),
            unchanged=data.get("unchanged"),
            unchanged_method=data.get("unchanged_method"),
            unchanged_ratio=data.get("unchanged_ratio"),
            implementer=data.get("implementer"),
            render_identical_after_edit=data.get("render_identical_after_edit"),
            stale_baseline=str(data.get("stale_baseline") or ""),
            integrity=data.get("integrity"),
            error=str(data.get("error", "")),
            timings=dict(data.get("timings", {})),
        )


def save_outcome(path: Path, outcome: IterationOutcome) -> None:
    atomic_write_json(path, outcome.to_json())


def load_outcome(path: Path) -> IterationOutcome:
    return IterationOutcome.from_json(read_json(path, what="iteration outcome"))
