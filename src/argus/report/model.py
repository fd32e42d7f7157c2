"""What a report shows, collected from the run store and the run directory, before any HTML.

Everything here is plain data: strings are raw (the page escapes them), images are already
``data:`` URIs. Keeping collection apart from rendering lets the tests check what was found
without parsing HTML, and lets the page treat every string the same way: as untrusted text.
"""

from __future__ import annotations

from dataclasses import dataclass

from argus.spec.model import view_slug


@dataclass(frozen=True)
class Picture:
    """One embedded image (or why there is none)."""

    label: str  # "Render", "Reference", "Diff"
    alt: str
    data_uri: str | None  # None: nothing to show, see ``note``
    width: int = 0  # size of the embedded (possibly downscaled) image
    height: int = 0
    note: str = ""  # "1280×800; shown at 960×600", "no render on disk", ...


@dataclass(frozen=True)
class GateRow:
    name: str
    status: str  # pass, fail, skip, error, diff
    summary: str
    findings: tuple[str, ...] = ()
    more_findings: int = 0  # findings left out to keep the page short

    @property
    def red(self) -> bool:
        return self.status in ("fail", "error", "diff")


@dataclass(frozen=True)
class GateSummary:
    iteration: int | None
    rows: tuple[GateRow, ...]

    @property
    def red(self) -> tuple[str, ...]:
        return tuple(row.name for row in self.rows if row.red)


@dataclass(frozen=True)
class DimensionRow:
    name: str
    status: str  # pass, fail, unverified
    score: float | None
    threshold: float | None
    anchor: str
    evidence: str
    judged_by: str = ""
    frozen: bool = False

    @property
    def abstained(self) -> bool:
        return self.score is None


@dataclass(frozen=True)
class VerdictSummary:
    iteration: int | None
    outcome: str  # pass, fail, unverified, inconclusive
    backend: str
    model: str
    dimensions: tuple[DimensionRow, ...]
    corrections: tuple[str, ...] = ()
    error: str = ""
    notes: str = ""
    reference_source: str = ""


@dataclass(frozen=True)
class IterationRow:
    """One line of a view's timeline."""

    iteration: int
    kind: str  # judged, confirmed, gates_red, sensor_failure, integrity (or "unknown")
    gates: str  # green, red, none
    red_gates: tuple[str, ...]
    verdict: str  # pass, fail, unverified, inconclusive, or "" when not judged
    failed_dimensions: tuple[str, ...]
    unverified_dimensions: tuple[str, ...]
    unchanged: bool | None  # the hash-suppression check; None when not made
    confirmed_unchanged: bool  # counted as a pass without judging (suppressed)
    implementer: str  # its status/outcome, or "" when none ran
    implementer_error: str
    passes: int | None  # the consecutive-pass streak after this iteration
    next_action: str
    newly_frozen: tuple[str, ...]
    error: str = ""
    red_gate_rows: tuple[GateRow, ...] = ()  # what the red gates found, when known
    counted_pass: bool = False  # the loop counted it towards the pass streak
    # What kept the implementer's writes in bounds: "sandboxed: landlock" or "hash-checked
    # only" (argus.confine); "" when no implementer ran or an older run did not say.
    protection: str = ""


@dataclass(frozen=True)
class SpotCheck:
    status: str  # pending, approved, wrong
    wrong_dimension: str = ""
    checked_at: str = ""
    note: str = ""


@dataclass(frozen=True)
class SignoffSummary:
    target: str
    state: str
    appearance: str
    run_id: str
    signed_off_at: str
    iterations: int
    reference_source: str
    snapshot_baseline: str
    concerns: tuple[str, ...]
    spotcheck: SpotCheck
    protection: str = ""  # what confined the implementer; "" when none ran or it was not said

    @property
    def slug(self) -> str:
        return view_slug(self.target, self.state, self.appearance)


@dataclass(frozen=True)
class ViewReport:
    slug: str
    target: str
    state: str
    appearance: str
    status: str  # DONE, DONE_WITH_CONCERNS, FAILED, BLOCKED, NEEDS_CONTEXT, or IN_PROGRESS
    status_detail: str
    pictures: tuple[Picture, ...]
    diff_stats: str
    gates: GateSummary | None
    verdict: VerdictSummary | None
    timeline: tuple[IterationRow, ...]
    signoff: SignoffSummary | None
    frozen: tuple[str, ...]
    unverified: tuple[str, ...]
    concerns: tuple[str, ...] = ()
    snapshot: Picture | None = None  # the render against its snapshot baseline, when one exists
    snapshot_stats: str = ""


@dataclass(frozen=True)
class RunReport:
    feature: str
    run_id: str
    mode: str
    started_at: str
    finished_at: str
    status: str  # the run's final status, or "" while it has none
    run_state: str  # running, paused (waiting for a human), finished
    views: tuple[ViewReport, ...]
    signoffs: tuple[SignoffSummary, ...]  # every record of the feature, newest last
    generated_at: str
    notes: tuple[str, ...] = ()
    ui_url: str = ""  # the review page (argus ui) serving this repository, while it runs
