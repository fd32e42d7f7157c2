"""Lighthouse run by Argus (``argus lighthouse`` and the opt-in ``lighthouse`` gate): the real
npm package, found on PATH or installed on demand, against a view's URL with Argus's Chromium.
See docs/gates.md and docs/referee.md."""

import typing as _typing

from argus._lazy import lazy_attributes as _lazy_attributes

if _typing.TYPE_CHECKING:
    from argus.lighthouse._install import lighthouse_command
    from argus.lighthouse.run import run_lighthouse
    from argus.lighthouse.score import (
        CATEGORIES,
        CategoryGrade,
        grade,
        next_action,
        overall,
        overall_of_all,
    )

# The package's face: each name is imported from its module on first use (PEP 562), so
# importing one module of the package loads none of the others.
_SOURCES = {
    "lighthouse_command": "argus.lighthouse._install",
    "run_lighthouse": "argus.lighthouse.run",
    "CATEGORIES": "argus.lighthouse.score",
    "CategoryGrade": "argus.lighthouse.score",
    "grade": "argus.lighthouse.score",
    "next_action": "argus.lighthouse.score",
    "overall": "argus.lighthouse.score",
    "overall_of_all": "argus.lighthouse.score",
}

__getattr__ = _lazy_attributes(__name__, _SOURCES, globals())

__all__ = [
    "CATEGORIES",
    "CategoryGrade",
    "grade",
    "lighthouse_command",
    "next_action",
    "overall",
    "overall_of_all",
    "run_lighthouse",
]
