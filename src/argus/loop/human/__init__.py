"""The decisions a person makes: references (HE-1), spot-checks (HE-2) and baselines.

``decisions`` is the one code path for ``argus approve`` and ``argus ui``; ``references``
bootstraps a missing reference from a candidate render; ``baseline`` writes a view's snapshot
baseline, for the loop at sign-off and for a person accepting a render.
"""

import typing as _typing

from argus._lazy import lazy_attributes as _lazy_attributes

if _typing.TYPE_CHECKING:
    from argus.loop.human.baseline import view_baseline, write_baseline
    from argus.loop.human.decisions import (
        DECISION_KIND,
        Decision,
        accept_baseline,
        accept_config,
        approve_reference,
        committed_renders,
        has_candidate,
        record_spotcheck,
    )
    from argus.loop.human.references import candidate_path, default_reference_file, mark_reference

# The package's face: each name is imported from its module on first use (PEP 562), so
# importing one module of the package loads none of the others.
_SOURCES = {
    "DECISION_KIND": "argus.loop.human.decisions",
    "Decision": "argus.loop.human.decisions",
    "accept_baseline": "argus.loop.human.decisions",
    "accept_config": "argus.loop.human.decisions",
    "approve_reference": "argus.loop.human.decisions",
    "committed_renders": "argus.loop.human.decisions",
    "has_candidate": "argus.loop.human.decisions",
    "record_spotcheck": "argus.loop.human.decisions",
    "candidate_path": "argus.loop.human.references",
    "default_reference_file": "argus.loop.human.references",
    "mark_reference": "argus.loop.human.references",
    "view_baseline": "argus.loop.human.baseline",
    "write_baseline": "argus.loop.human.baseline",
}

__getattr__ = _lazy_attributes(__name__, _SOURCES, globals())

__all__ = [
    "DECISION_KIND",
    "Decision",
    "accept_baseline",
    "accept_config",
    "approve_reference",
    "candidate_path",
    "committed_renders",
    "default_reference_file",
    "has_candidate",
    "mark_reference",
    "record_spotcheck",
    "view_baseline",
    "write_baseline",
]
