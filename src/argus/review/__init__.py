"""The advisory acceptance-fidelity review of merged PRs (seed 002): did the change meet the
task's acceptance? Met / partial / unmet with a confidence, recorded as an event beside the
deterministic evidence; it never blocks and never signs anything off. See docs/review.md.
"""

import typing as _typing

from argus._lazy import lazy_attributes as _lazy_attributes

if _typing.TYPE_CHECKING:
    from argus.review.diff import cut_diff, parse_diff
    from argus.review.inputs import git_diff
    from argus.review.judge import ReviewInputs, review
    from argus.review.record import filed_reviews, record_outcome, record_review

# The package's face: each name is imported from its module on first use (PEP 562), so
# importing one module of the package loads none of the others.
_SOURCES = {
    "cut_diff": "argus.review.diff",
    "parse_diff": "argus.review.diff",
    "ReviewInputs": "argus.review.judge",
    "review": "argus.review.judge",
    "filed_reviews": "argus.review.record",
    "record_outcome": "argus.review.record",
    "record_review": "argus.review.record",
    "git_diff": "argus.review.inputs",
}

__getattr__ = _lazy_attributes(__name__, _SOURCES, globals())

__all__ = [
    "ReviewInputs",
    "cut_diff",
    "filed_reviews",
    "git_diff",
    "parse_diff",
    "record_outcome",
    "record_review",
    "review",
]
