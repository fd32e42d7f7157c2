"""Durable per-view loop state: iteration, pass streak, attempts per dimension, freeze, budget.

The loop's counters are arithmetic, so they live here and in ``state.json``, never in the
orchestrator's head. Each step returns a new state; ``save_state`` writes it atomically
(temp file, fsync, rename), so a process killed at any instant leaves the old state or the new
one. Every step counts one iteration:

    record(verdict)   a fresh, normalized judge verdict
    unchanged()       the hash-suppressed confirm: same render, no edit since a passing verdict
    gate_fail(names)  the deterministic floor was red (or the sensor failed); judge skipped

The streak counts consecutive *converged* iterations: a verdict whose every failing dimension
is frozen (usually none fails), or an unchanged confirm of one. A dimension that has failed
``max_attempts_per_dimension`` verdicts is frozen: the implementer stops being asked to fix
it and it is reported as a concern at sign-off instead of blocking the view forever. An
unverified (abstained) dimension converges too, and is likewise reported, never passed. An
inconclusive verdict, a failing unfrozen dimension and a red gate reset the streak.

Unlike the seed's loop_state, nothing is taken on the caller's word: ``unchanged`` is refused
unless the last judged step converged, a verdict must be for this view and for the next
iteration (so replaying one verdict file cannot count two passes), and a finished view (signed
off or out of budget) refuses further steps.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from argus.errors import InputError, StateError
from argus.io import atomic_write_json, read_json
from argus.schemas import Rubric, validate
from argus.spec.model import View
from argus.verdict import NormalizedVerdict, Outcome

STATE_VERSION = 1
Step = Literal["pass", "fail", "gate-fail", "unchanged"]
NextAction = Literal[
    "implement", "fix_gates", "fix_dimensions", "confirm", "retry_judge", "signoff", "stop_budget"
]


@dataclass(frozen=True)
class LoopSettings:
    consecutive_passes_required: int
    max_attempts_per_dimension: int
    max_iterations: int

    @classmethod
    def from_rubric(cls, rubric: Rubric, max_iterations: int | None = None) -> LoopSettings:
        budget = rubric.max_iterations_default if max_iterations is None else max_iterations
        if budget < 1:
            raise InputError(f"max iterations must be at least 1, got {budget}")
        return cls(rubric.consecutive_passes_required, rubric.max_attempts_per_dimension, budget)


@dataclass(frozen=True)
class VerdictSummary:
    """What the state remembers of the last judged verdict."""

    iteration: int
    outcome: Outcome
    failed_dimensions: tuple[str, ...]
    unverified_dimensions: tuple[str, ...]
    # What the verdict said about itself that the scores contradict ("all_pass: reported
    # true, derived false"): kept, so a judge that lies is on the record, not silently fixed.
    corrections: tuple[str, ...] = ()


@dataclass(frozen=True)
class Decision:
    next_action: NextAction
    should_signoff: bool
    budget_exhausted: bool
    fix_dimensions: tuple[str, ...]  # failing and not frozen: what the implementer is asked for
    red_gates: tuple[str, ...]
    frozen: tuple[str, ...]
    newly_frozen: tuple[str, ...]
    unverified: tuple[str, ...]
    concerns: tuple[str, ...]  # what a sign-off now would carry (frozen, unverified)
    consecutive_passes: int
    required_passes: int
    iteration: int
    max_iterations: int

    def to_json(self) -> dict[str, Any]:
        return {
            "next_action": self.next_action,
            "should_signoff": self.should_signoff,
            "budget_exhausted": self.budget_exhausted,
            "fix_dimensions": list(self.fix_dimensions),
            "red_gates": list(self.red_gates),
            "frozen": list(self.frozen),
            "newly_frozen": list(self.newly_frozen),
            "unverified": list(self.unverified),
            "concerns": list(self.concerns),
            "consecutive_passes": self.consecutive_passes,
            "required_passes": self.required_passes,
            "iteration": self.iteration,
            "max_iterations": self.max_iterations,
        }


@dataclass(frozen=True)
class LoopState:
    feature: str
    target: str
    state: str
    appearance: str
    settings: LoopSettings
    reference_source: str | None = None
    iteration: int = 0
    consecutive_passes: int = 0
    attempts: Mapping[str, int] = field(default_factory=dict)
    frozen: tuple[str, ...] = ()
    newly_frozen: tuple[str, ...] = ()  # frozen by the last step
    last_outcome: Step | None = None
    last_verdict: VerdictSummary | None = None
    red_gates: tuple[str, ...] = ()  # of the last step, when it was a gate-fail
    updated_at: str | None = None

    @property
    def view(self) -> View:
        return View(self.feature, self.target, self.state, self.appearance)

    @property
    def should_signoff(self) -> bool:
        return self.consecutive_passes >= self.settings.consecutive_passes_required

    @property
    def budget_exhausted(self) -> bool:
        return self.iteration >= self.settings.max_iterations and not self.should_signoff

    # -- steps ------------------------------------------------------------------------------

    def record(self, verdict: NormalizedVerdict) -> LoopState:
        """Count a fresh judge verdict (already normalized: outcome derived from scores)."""
        self._check_open()
        view = (verdict.feature, verdict.target, verdict.state, verdict.appearance)
        if view != (self.feature, self.target, self.state, self.appearance):
            got = "/".join(str(part) for part in view)
            raise StateError(f"verdict is for {got}, but this state is for {self._name()}")
        if verdict.iteration != self.iteration + 1:
            raise StateError(
                f"verdict is for iteration {verdict.iteration}, but {self._name()} is at "
                f"iteration {self.iteration}; record each verdict once, in order"
            )
        source = verdict.other.get("reference_source")
        if source is not None and self.reference_source not in (None, source):
            raise StateError(
                f"verdict was judged against a {source} reference, but {self._name()} uses a "
                f"{self.reference_source} one; run 'argus state init --reset' after changing it"
            )
        summary = VerdictSummary(
            verdict.iteration,
            verdict.outcome,
            verdict.failed_dimensions,
            verdict.unverified_dimensions,
            tuple(str(c) for c in verdict.corrections),
        )
        base = replace(
            self,
            iteration=self.iteration + 1,
            reference_source=self.reference_source or source,
            last_verdict=summary,
            red_gates=(),
            newly_frozen=(),
        )
        if verdict.outcome == "inconclusive":  # never a pass; its scores are not trusted
            return replace(base, consecutive_passes=0, last_outcome="fail")
        attempts = dict(self.attempts)
        frozen = list(self.frozen)
        newly: list[str] = []
        for name in verdict.failed_dimensions:
            attempts[name] = attempts.get(name, 0) + 1
            limit = self.settings.max_attempts_per_dimension
            if attempts[name] >= limit and name not in frozen:
                frozen.append(name)
                newly.append(name)
        converged = all(name in frozen for name in verdict.failed_dimensions)
        return replace(
            base,
            attempts=attempts,
            frozen=tuple(frozen),
            newly_frozen=tuple(newly),
            consecutive_passes=self.consecutive_passes + 1 if converged else 0,
            last_outcome="pass" if converged else "fail",
        )

    def unchanged(self) -> LoopState:
        """Count a hash-suppressed confirm: allowed only right after a converged step."""
        self._check_open()
        if self.last_outcome not in ("pass", "unchanged"):
            last = self.last_outcome or "nothing recorded yet"
            raise StateError(
                f"{self._name()}: an unchanged render only confirms a passing verdict, and the "
                f"last step was {last}; judge this render instead"
            )
        return replace(
            self,
            iteration=self.iteration + 1,
            consecutive_passes=self.consecutive_passes + 1,
            last_outcome="unchanged",
            newly_frozen=(),
            red_gates=(),
        )

    def gate_fail(self, red_gates: Sequence[str]) -> LoopState:
        """Count an iteration stopped by red gates (or a failed sensor): the streak resets."""
        self._check_open()
        names = tuple(dict.fromkeys(str(name) for name in red_gates))
        if not names:
            raise StateError(f"{self._name()}: a gate-fail needs the names of the red gates")
        return replace(
            self,
            iteration=self.iteration + 1,
            consecutive_passes=0,
            last_outcome="gate-fail",
            red_gates=names,
            newly_frozen=(),
        )

    def _check_open(self) -> None:
        if self.should_signoff:
            raise StateError(
                f"{self._name()} already has {self.consecutive_passes} consecutive passes; "
                "sign it off, or run 'argus state init --reset' to start over"
            )
        if self.budget_exhausted:
            raise StateError(
                f"{self._name()} used its budget of {self.settings.max_iterations} iterations; "
                "run 'argus state init --reset' (optionally with --max-iterations) to start over"
            )

    def _name(self) -> str:
        return f"{self.feature}/{self.target}/{self.state}/{self.appearance}"

    # -- the decision -----------------------------------------------------------------------

    def decision(self) -> Decision:
        last = self.last_verdict
        failing = last.failed_dimensions if last and last.outcome != "inconclusive" else ()
        fix = (
            tuple(d for d in failing if d not in self.frozen) if self.last_outcome == "fail" else ()
        )
        # Only a verdict on the current render speaks for it: after a fail or red gates, none.
        confirmed = self.last_outcome in ("pass", "unchanged")
        unverified = last.unverified_dimensions if last and confirmed else ()
        concerns = tuple(f"frozen: {name}" for name in self.frozen if name in failing) + tuple(
            f"unverified: {name}" for name in unverified
        )
        return Decision(
            next_action=self._next_action(),
            should_signoff=self.should_signoff,
            budget_exhausted=self.budget_exhausted,
            fix_dimensions=fix,
            red_gates=self.red_gates,
            frozen=self.frozen,
            newly_frozen=self.newly_frozen,
            unverified=unverified,
            concerns=concerns,
            consecutive_passes=self.consecutive_passes,
            required_passes=self.settings.consecutive_passes_required,
            iteration=self.iteration,
            max_iterations=self.settings.max_iterations,
        )

    def _next_action(self) -> NextAction:
        if self.should_signoff:
            return "signoff"
        if self.budget_exhausted:
            return "stop_budget"
        if self.last_outcome is None:
            return "implement"
        if self.last_outcome == "gate-fail":
            return "fix_gates"
        if self.last_outcome in ("pass", "unchanged"):
            return "confirm"  # do not edit: re-render and confirm the pass
        if self.last_verdict is not None and self.last_verdict.outcome == "inconclusive":
            return "retry_judge"
        return "fix_dimensions"

    # -- JSON -------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        last = self.last_verdict
        return {
            "version": STATE_VERSION,
            "feature": self.feature,
            "target": self.target,
            "state": self.state,
            "appearance": self.appearance,
            "reference_source": self.reference_source,
            "settings": {
                "consecutive_passes_required": self.settings.consecutive_passes_required,
                "max_attempts_per_dimension": self.settings.max_attempts_per_dimension,
                "max_iterations": self.settings.max_iterations,
            },
            "iteration": self.iteration,
            "consecutive_passes": self.consecutive_passes,
            "attempts": dict(self.attempts),
            "frozen": list(self.frozen),
            "newly_frozen": list(self.newly_frozen),
            "last_outcome": self.last_outcome,
            "last_verdict": None
            if last is None
            else {
                "iteration": last.iteration,
                "outcome": last.outcome,
                "failed_dimensions": list(last.failed_dimensions),
                "unverified_dimensions": list(last.unverified_dimensions),
                "corrections": list(last.corrections),
            },
            "red_gates": list(self.red_gates),
            "updated_at": self.updated_at,
        }


def state_path(root: Path, view: View) -> Path:
    """``argus/specs/{feature}/.argus-runs/{slug}/state.json`` under the repository ``root``."""
    return root / "argus" / "specs" / view.feature / ".argus-runs" / view.slug / "state.json"


def save_state(path: Path, state: LoopState) -> LoopState:
    """Write ``state`` atomically; return it with its new ``updated_at``."""
    stamped = replace(state, updated_at=datetime.now(UTC).isoformat(timespec="microseconds"))
    atomic_write_json(path, stamped.to_json())
    return stamped


def load_state(path: Path) -> LoopState:
    """Read and validate a state file; a missing one is a StateError, a corrupt one InputError."""
    if not path.exists():
        raise StateError(f"{path}: no loop state yet; run 'argus state init' first")
    data = read_json(path, what="loop state")
    validate("loop-state", data, source=path)
    return _state_from_json(data, path)


def init_state(
    path: Path,
    view: View,
    settings: LoopSettings,
    *,
    reference_source: str | None = None,
    reset: bool = False,
) -> LoopState:
    """Create the view's state, or resume the one already there (``reset`` starts over)."""
    if path.exists() and not reset:
        existing = load_state(path)
        if existing.view != view:
            raise StateError(
                f"{path}: holds the state of {existing._name()}, not of "
                f"{view.feature}/{view.target}/{view.state}/{view.appearance}"
            )
        return existing
    fresh = LoopState(
        view.feature,
        view.target,
        view.state,
        view.appearance,
        settings,
        reference_source=reference_source,
    )
    return save_state(path, fresh)


def _state_from_json(data: Mapping[str, Any], path: Path) -> LoopState:
    """Rebuild a LoopState; the schema checked the seed's fields, this checks ours."""

    def corrupt(what: str) -> InputError:
        return InputError(
            f"{path}: corrupt loop state ({what}); run 'argus state init --reset' to start over"
        )

    def texts(key: str) -> tuple[str, ...]:
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise corrupt(f"'{key}' must be a list of names")
        return tuple(value)

    if data.get("version") != STATE_VERSION:
        raise corrupt(f"version {data.get('version')!r}, expected {STATE_VERSION}")
    settings = data.get("settings")
    keys = ("consecutive_passes_required", "max_attempts_per_dimension", "max_iterations")
    if not isinstance(settings, Mapping) or not all(
        isinstance(settings.get(k), int) and settings[k] >= 1 for k in keys
    ):
        raise corrupt("'settings' needs " + ", ".join(keys) + " as whole numbers >= 1")
    for key in ("state", "appearance"):
        if not isinstance(data.get(key), str) or not data[key]:
            raise corrupt(f"'{key}' must be a non-empty string")
    last = data.get("last_verdict")
    summary: VerdictSummary | None = None
    if last is not None:
        outcomes = ("pass", "fail", "unverified", "inconclusive")
        if (
            not isinstance(last, Mapping)
            or not isinstance(last.get("iteration"), int)
            or last.get("outcome") not in outcomes
        ):
            raise corrupt("'last_verdict' needs an iteration and an outcome")
        failed, unverified, corrections = (
            last.get(k, []) for k in ("failed_dimensions", "unverified_dimensions", "corrections")
        )
        if not all(isinstance(v, list) for v in (failed, unverified, corrections)):
            raise corrupt("'last_verdict' dimension lists must be lists")
        summary = VerdictSummary(
            last["iteration"],
            last["outcome"],
            tuple(map(str, failed)),
            tuple(map(str, unverified)),
            tuple(map(str, corrections)),
        )
    return LoopState(
        feature=data["feature"],
        target=data["target"],
        state=data["state"],
        appearance=data["appearance"],
        settings=LoopSettings(*(int(settings[k]) for k in keys)),
        reference_source=data.get("reference_source"),
        iteration=data["iteration"],
        consecutive_passes=data["consecutive_passes"],
        attempts=dict(data["attempts"]),
        frozen=tuple(data["frozen"]),
        newly_frozen=texts("newly_frozen"),
        last_outcome=data.get("last_outcome"),
        last_verdict=summary,
        red_gates=texts("red_gates"),
        updated_at=data.get("updated_at") if isinstance(data.get("updated_at"), str) else None,
    )
