"""Evidence reading shared by the gates, the judges and the surfaces above them.

    from argus.evidence.content import clip, fence    # page content held short and fenced
    from argus.evidence.probe import parse_probe      # probe.json as a read-only view
    from argus.evidence.a11y_ids import harvest_ids   # every id the render exposes
    from argus.evidence.attempt import require_fresh  # the files are the last good sense's

This package sits below both ``argus.gates`` and ``argus.judge`` (docs/internals.md): it reads what
a sensor recorded and never decides a gate or a score. The package imports none of its modules
itself (its face below is lazy), so a light command that needs one reader loads only that reader.
"""

import typing as _typing

from argus._lazy import lazy_attributes as _lazy_attributes

if _typing.TYPE_CHECKING:
    from argus.evidence.a11y_ids import IdReport, check_ids, harvest_ids
    from argus.evidence.attempt import require_fresh, stale_reason
    from argus.evidence.content import (
        FENCE_TAG,
        MAX_PAGE_CHARS,
        cap_page,
        clip,
        clip_page_data,
        defuse,
        fence,
    )
    from argus.evidence.probe import Element, Probe, parse_probe, parse_px

# The package's face: each name is imported from its module on first use (PEP 562), so
# importing one module of the package loads none of the others.
_SOURCES = {
    "FENCE_TAG": "argus.evidence.content",
    "MAX_PAGE_CHARS": "argus.evidence.content",
    "cap_page": "argus.evidence.content",
    "clip": "argus.evidence.content",
    "clip_page_data": "argus.evidence.content",
    "defuse": "argus.evidence.content",
    "fence": "argus.evidence.content",
    "Element": "argus.evidence.probe",
    "Probe": "argus.evidence.probe",
    "parse_probe": "argus.evidence.probe",
    "parse_px": "argus.evidence.probe",
    "IdReport": "argus.evidence.a11y_ids",
    "check_ids": "argus.evidence.a11y_ids",
    "harvest_ids": "argus.evidence.a11y_ids",
    "require_fresh": "argus.evidence.attempt",
    "stale_reason": "argus.evidence.attempt",
}

__getattr__ = _lazy_attributes(__name__, _SOURCES, globals())

__all__ = [
    "FENCE_TAG",
    "MAX_PAGE_CHARS",
    "Element",
    "IdReport",
    "Probe",
    "cap_page",
    "check_ids",
    "clip",
    "clip_page_data",
    "defuse",
    "fence",
    "harvest_ids",
    "parse_probe",
    "parse_px",
    "require_fresh",
    "stale_reason",
]
