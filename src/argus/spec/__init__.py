"""The feature spec: model, loading, lint and the `argus init` scaffold.

spec = load_spec(Path("argus/specs/habits/spec.json"))
for view in spec.views():
    target = spec.target(view.target)
    target.fixture_for(view.state), target.reference_for(view.state, view.appearance)
"""

from __future__ import annotations

from argus.spec.checks import Issue
from argus.spec.files import png_problem
from argus.spec.fixtures import fixture_count
from argus.spec.lint import LintReport, WorklistItem, lint_spec
from argus.spec.load import load_spec
from argus.spec.model import (
    DEFAULT_VIEWPORT,
    Canonical,
    CountExpectation,
    Expectation,
    FixtureCount,
    Reference,
    SnapshotSettings,
    Spec,
    Target,
    View,
    Viewport,
    view_slug,
)
from argus.spec.paths import find_repo_root, find_specs

__all__ = [
    "DEFAULT_VIEWPORT",
    "Canonical",
    "CountExpectation",
    "Expectation",
    "FixtureCount",
    "Issue",
    "LintReport",
    "Reference",
    "SnapshotSettings",
    "Spec",
    "Target",
    "View",
    "Viewport",
    "WorklistItem",
    "find_repo_root",
    "find_specs",
    "fixture_count",
    "lint_spec",
    "load_spec",
    "png_problem",
    "view_slug",
]
