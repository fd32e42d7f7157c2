"""The advisory acceptance-fidelity review of merged PRs (seed 002): did the change meet the
task's acceptance? Met / partial / unmet with a confidence, recorded as an event beside the
deterministic evidence; it never blocks and never signs anything off. See docs/review.md.
"""

import typing as _typing

from argus._lazy import lazy_attributes as _lazy_attributes

if _typing.TYPE_CHECKING:
    from argus.review._judge import ReviewInputs, review
    from argus.review.context import describe, review_context
    from argus.review.diff import cut_diff, parse_diff
    from argus.review.flow import PullRequest, review_and_record
    from argus.review.inputs import git_diff
    from argus.review.record import filed_reviews, record_outcome, record_review
    from argus.review.refs import closing_references
    from argus.review.tasks import Task, find_task

# The package's face: each name is imported from its module on first use (PEP 562), so
# importing one module of the package loads none of the others.
_SOURCES = {
    "cut_diff": "argus.review.diff",
    "parse_diff": "argus.review.diff",
    "ReviewInputs": "argus.review._judge",
    "review": "argus.review._judge",
    "filed_reviews": "argus.review.record",
    "record_outcome": "argus.review.record",
    "record_review": "argus.review.record",
    "git_diff": "argus.review.inputs",
    "describe": "argus.review.context",
    "review_context": "argus.review.context",
    "PullRequest": "argus.review.flow",
    "review_and_record": "argus.review.flow",
    "closing_references": "argus.review.refs",
    "Task": "argus.review.tasks",
    "find_task": "argus.review.tasks",
}

__getattr__ = _lazy_attributes(__name__, _SOURCES, globals())

__all__ = [
    "PullRequest",
    "ReviewInputs",
    "Task",
    "closing_references",
    "cut_diff",
    "describe",
    "filed_reviews",
    "find_task",
    "git_diff",
    "parse_diff",
    "record_outcome",
    "record_review",
    "review",
    "review_and_record",
    "review_context",
]
