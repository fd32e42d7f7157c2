"""The referee (seed 001): captured evidence merged into one verdict with a next action.
See docs/referee.md."""

import typing as _typing

from argus._lazy import lazy_attributes as _lazy_attributes

if _typing.TYPE_CHECKING:
    from argus.referee.verdict import RefereeVerdict, merge, referee

# The package's face: each name is imported from its module on first use (PEP 562), so
# importing one module of the package loads none of the others.
_SOURCES = {
    "RefereeVerdict": "argus.referee.verdict",
    "merge": "argus.referee.verdict",
    "referee": "argus.referee.verdict",
}

__getattr__ = _lazy_attributes(__name__, _SOURCES, globals())

__all__ = [
    "RefereeVerdict",
    "merge",
    "referee",
]
