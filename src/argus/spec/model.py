"""The spec model: frozen dataclasses built from a validated spec.json.

Paths in the model are absolute (repository root joined with the spec's repo-relative text) and
were checked to stay inside the repository when the spec was loaded.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from argus.errors import InputError
from argus.spec._fixtures import fixture_count
from argus.spec.steps import Step
from argus.spec.typed import TypedChecks

ReferenceStatus = Literal["present", "needed", "candidate"]
ReferenceSource = Literal["human", "candidate"]


@dataclass(frozen=True)
class Viewport:
    width: int
    height: int


DEFAULT_VIEWPORT = Viewport(1280, 800)


def view_slug(target: str, state: str, appearance: str) -> str:
    """``{target}-{state}-{appearance}``: names a view's reference, snapshot baseline and run
    directory."""
    return f"{target}-{state}-{appearance}"


@dataclass(frozen=True)
class View:
    """One thing the loop signs off: a target in one state and one appearance."""

    feature: str
    target: str
    state: str
    appearance: str

    @property
    def slug(self) -> str:
        return view_slug(self.target, self.state, self.appearance)


@dataclass(frozen=True)
class Canonical:
    """The state and appearance of a target that gets the reference image."""

    state: str
    appearance: str


@dataclass(frozen=True)
class Reference:
    state: str
    appearance: str
    status: ReferenceStatus
    source: ReferenceSource | None
    file: Path | None


@dataclass(frozen=True)
class SnapshotSettings:
    """Per-target snapshot options; None means "use the project config"."""

    masks: tuple[str, ...] = ()  # CSS selectors, resolved in the page (argus.diff.masks)
    max_diff_pixels: int | None = None
    max_diff_pixel_ratio: float | None = None
    max_window_density: float | None = None
    threshold: float | None = None


@dataclass(frozen=True)
class FixtureCount:
    """The expected count is the length of the array at ``pointer`` in the JSON ``file``."""

    file: Path
    pointer: str

    def expected(self) -> int:
        """Read the fixture now; InputError when the pointer does not find an array."""
        return fixture_count(self.file, self.pointer)


@dataclass(frozen=True)
class CountExpectation:
    """Elements with ``role`` (and accessible ``name`` when given) the page must show."""

    role: str
    name: str | None
    equals: int | None
    equals_fixture: FixtureCount | None


@dataclass(frozen=True)
class Expectation:
    aria_snapshot: str | None = None
    counts: tuple[CountExpectation, ...] = ()
    focus_order: tuple[str, ...] = ()  # ids focus visits: the focused one, then Tab, Tab ...
    # Text the page must show: Jinja2 templates over the fixture (argus.spec.texts).
    texts: tuple[str, ...] = ()
    texts_fixture: Path | None = None
    # Alignment, formats, sort order, shown elements, a focus trap (argus.spec.typed).
    typed: TypedChecks = field(default_factory=TypedChecks)


@dataclass(frozen=True)
class HierarchyOptions:
    """What the hierarchy check measures as headings or as figures (data), by element selector
    (argus.spec.selectors), over its own reading of the page (argus.judge.metric.figures)."""

    headings: tuple[str, ...] = ()
    figures: tuple[str, ...] = ()

    def to_contract(self) -> dict[str, list[str]]:
        return {"headings": list(self.headings), "figures": list(self.figures)}


@dataclass(frozen=True)
class Target:
    id: str
    route: str
    states: tuple[str, ...]
    appearances: tuple[str, ...]
    fixtures: Mapping[str, str]
    canonical: Canonical
    a11y_contract: tuple[str, ...]
    references: tuple[Reference, ...]
    component_contracts: tuple[Mapping[str, Any], ...]
    viewport: Viewport | None
    full_page: bool
    primary_action: str | None
    snapshot: SnapshotSettings
    expectations: Mapping[str, Expectation]
    gates: tuple[str, ...] | None  # None: the project's gate list applies
    # State -> interaction steps run after load, before capture (argus.spec.steps).
    steps: Mapping[str, tuple[Step, ...]] = field(default_factory=dict)
    # Elements whose text may be cut short (element selectors: argus.spec.selectors).
    allow_truncation: tuple[str, ...] = ()
    # The author declares the expectations check what the prose criteria say about function.
    expectations_cover_prose: bool = False
    # State -> that state's primary action over ``primary_action`` (None: the state has none).
    primary_actions: Mapping[str, str | None] = field(default_factory=dict)
    hierarchy: HierarchyOptions = field(default_factory=HierarchyOptions)

    def primary_action_for(self, state: str) -> str | None:
        """The state's primary action: its own entry in ``primary_actions`` (None: it has
        none), else the target's ``primary_action``."""
        if state in self.primary_actions:
            return self.primary_actions[state]
        return self.primary_action

    def no_primary_action(self, state: str) -> bool:
        """Whether the spec declares that ``state`` has no primary action."""
        return state in self.primary_actions and self.primary_actions[state] is None

    # Controls meant to do nothing when activated, per state ("*": every state).
    inert: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def fixture_for(self, state: str) -> str:
        return self.fixtures.get(state, state)

    def inert_for(self, state: str) -> tuple[str, ...]:
        """Selectors of the controls declared inert in ``state``."""
        return tuple(dict.fromkeys((*self.inert.get("*", ()), *self.inert.get(state, ()))))

    def steps_for(self, state: str) -> tuple[Step, ...]:
        return self.steps.get(state, ())

    def reference_for(self, state: str, appearance: str) -> Reference | None:
        for reference in self.references:
            if reference.state == state and reference.appearance == appearance:
                return reference
        return None


@dataclass(frozen=True)
class Spec:
    feature: str
    adapter: str
    path: Path
    root: Path
    tokens_path: Path
    contrast_pairs_path: Path | None
    viewport: Viewport | None
    targets: tuple[Target, ...]
    rubric_path: Path | None
    raw: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)
    # charts.series: a chart series (data-series) -> the colour token its marks must show.
    chart_series: Mapping[str, str] = field(default_factory=dict)

    @property
    def spec_dir(self) -> Path:
        return self.path.parent

    def target(self, target_id: str) -> Target:
        for target in self.targets:
            if target.id == target_id:
                return target
        known = ", ".join(t.id for t in self.targets)
        raise InputError(f"{self.path}: no target '{target_id}' (targets: {known})")

    def viewport_for(self, target_id: str, default: Viewport = DEFAULT_VIEWPORT) -> Viewport:
        """The target's viewport, else the spec's, else ``default`` (the project's or 1280x800)."""
        return self.target(target_id).viewport or self.viewport or default

    def views(self, target_id: str | None = None) -> list[View]:
        """Every view of one target (or of all targets): states x appearances, in spec order."""
        targets = self.targets if target_id is None else (self.target(target_id),)
        return [
            View(self.feature, target.id, state, appearance)
            for target in targets
            for state in target.states
            for appearance in target.appearances
        ]

    def canonical_view(self, target_id: str) -> View:
        canonical = self.target(target_id).canonical
        return View(self.feature, target_id, canonical.state, canonical.appearance)
