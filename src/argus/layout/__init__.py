"""The layout linter (``argus layout lint``): deterministic checks over the boxes of a report
page, PBIR or a plain list. See docs/layout.md."""

from argus.layout.checks import CHECKS, Finding, Settings
from argus.layout.lint import SCHEMA_VERSION, LintOptions, LintResult, lint
from argus.layout.reference import ReferenceUnavailable, VisualTypes, load_visual_types

__all__ = [
    "CHECKS",
    "SCHEMA_VERSION",
    "Finding",
    "LintOptions",
    "LintResult",
    "ReferenceUnavailable",
    "Settings",
    "VisualTypes",
    "lint",
    "load_visual_types",
]
