"""The Dashboard example app (examples/dashboard) as a test subject, with seeded defects.

    from tests.support.dashboard import DASHBOARD_DIR, copy_dashboard, load_dashboard_defects

Same files and shapes as the Habits example (tests.support.habits): defects.json entries
name the gate that must turn red and the rubric dimension that must fail, plus the ``view``
(target-state-appearance) that shows the defect; refactors.json holds changes that must sign
off.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from tests.support.habits import (
    REPO_ROOT,
    Defect,
    Refactor,
    copy_example,
    load_defects,
    load_refactors,
)

DASHBOARD_DIR = REPO_ROOT / "examples" / "dashboard"
DASHBOARD_SPEC = Path("argus/specs/dashboard/spec.json")  # relative to a copy's root
DASHBOARD_PORT = 8766
CANONICAL_VIEW = "overview-populated-light"


def load_dashboard_defects() -> list[Defect]:
    return load_defects(DASHBOARD_DIR)


def load_dashboard_refactors() -> list[Refactor]:
    return load_refactors(DASHBOARD_DIR)


def copy_dashboard(tmp_path: Path, defects: Iterable[Defect] = ()) -> Path:
    """A working copy of the dashboard at tmp_path/dashboard with ``defects`` applied."""
    return copy_example(DASHBOARD_DIR, tmp_path, defects, example_port=DASHBOARD_PORT)
