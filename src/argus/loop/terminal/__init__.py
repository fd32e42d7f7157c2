"""What a run shows on a terminal: live progress while it runs, one summary when it ends."""

import typing as _typing

from argus._lazy import lazy_attributes as _lazy_attributes

if _typing.TYPE_CHECKING:
    from argus.loop.terminal.progress import LiveProgress, PlainProgress, make_progress
    from argus.loop.terminal.summary import render_summary

# The package's face: each name is imported from its module on first use (PEP 562), so
# importing one module of the package loads none of the others.
_SOURCES = {
    "LiveProgress": "argus.loop.terminal.progress",
    "PlainProgress": "argus.loop.terminal.progress",
    "make_progress": "argus.loop.terminal.progress",
    "render_summary": "argus.loop.terminal.summary",
}

__getattr__ = _lazy_attributes(__name__, _SOURCES, globals())

__all__ = [
    "LiveProgress",
    "PlainProgress",
    "make_progress",
    "render_summary",
]
