"""View assertions for Playwright pages, in tests: the pytest plugin and the check behind it.

With pytest, use the ``argus_snapshot`` fixture (argus.testing.plugin, loaded automatically).
Elsewhere, call ``check_view`` with a page, a name, where its baseline lives and the settings.
"""

from __future__ import annotations

from argus.gates.comparison import Comparison, Overrides, comparison_for
from argus.testing._assertion import (
    Settings,
    SpecView,
    ViewAssertionError,
    ViewResult,
    Where,
    check_view,
)
from argus.testing._browser import context_options, launch_options

__all__ = [
    "Comparison",
    "Overrides",
    "Settings",
    "SpecView",
    "ViewAssertionError",
    "ViewResult",
    "Where",
    "check_view",
    "comparison_for",
    "context_options",
    "launch_options",
]
