"""View assertions for Playwright pages, in tests: the pytest plugin and the check behind it.

With pytest, use the ``argus_snapshot`` fixture (argus.testing.plugin, loaded automatically).
Elsewhere, call ``check_view`` with a page, a name, where its baseline lives and the settings.
"""

from __future__ import annotations

from argus.testing.assertion import (
    Settings,
    SpecView,
    ViewAssertionError,
    ViewResult,
    Where,
    check_view,
    tolerance_for,
)
from argus.testing.browser import context_options, launch_options

__all__ = [
    "Settings",
    "SpecView",
    "ViewAssertionError",
    "ViewResult",
    "Where",
    "check_view",
    "context_options",
    "launch_options",
    "tolerance_for",
]
