"""The feature spec: model, loading, lint and the `argus init` scaffold.

spec = load_spec(Path("argus/specs/habits/spec.json"))
for view in spec.views():
    target = spec.target(view.target)
    target.fixture_for(view.state), target.reference_for(view.state, view.appearance)

Every name loads on first use (PEP 562): a command that needs only ``argus.spec.paths`` (the
repository root, where baselines live) does not pay for the model, the lint and the JSON
Schema validator they import.
"""

import typing as _typing

from argus._lazy import lazy_attributes as _lazy_attributes

if _typing.TYPE_CHECKING:
    from argus.spec._checks import Issue
    from argus.spec._files import png_problem
    from argus.spec._fixtures import fixture_count
    from argus.spec._load import load_spec
    from argus.spec.lint import LintReport, WorklistItem, lint_spec
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

# Each public name and the module it comes from.
_SOURCES = {
    "Issue": "argus.spec._checks",
    "png_problem": "argus.spec._files",
    "fixture_count": "argus.spec._fixtures",
    "LintReport": "argus.spec.lint",
    "WorklistItem": "argus.spec.lint",
    "lint_spec": "argus.spec.lint",
    "load_spec": "argus.spec._load",
    "DEFAULT_VIEWPORT": "argus.spec.model",
    "Canonical": "argus.spec.model",
    "CountExpectation": "argus.spec.model",
    "Expectation": "argus.spec.model",
    "FixtureCount": "argus.spec.model",
    "Reference": "argus.spec.model",
    "SnapshotSettings": "argus.spec.model",
    "Spec": "argus.spec.model",
    "Target": "argus.spec.model",
    "View": "argus.spec.model",
    "Viewport": "argus.spec.model",
    "view_slug": "argus.spec.model",
    "find_repo_root": "argus.spec.paths",
    "find_specs": "argus.spec.paths",
}


__getattr__ = _lazy_attributes(__name__, _SOURCES, globals())


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
