"""Sharding: split a feature's views across machines, and merge what the shards leave.

    split      parse_shard("2/3"), shard_views(views, shard, durations): this machine's views
    results    the per-view results file each shard writes for ``argus merge``
    merge      merge_results(files): the shards checked to fit, re-derived, one exit code
    merge_report   the HTML page of a merged run

The CLI options (``--shard``, ``--durations``, ``--results``) live in ``argus.cli._shard`` and
the pytest side (``--argus-shard``) in ``argus.testing._sharding``; both call ``split``.
"""

import typing as _typing

from argus._lazy import lazy_attributes as _lazy_attributes

if _typing.TYPE_CHECKING:
    from argus.shard.merge import Merged, merge_results
    from argus.shard.merge_report import render_merged_page
    from argus.shard.results import ResultsFile, ViewEntry, parse_results, results_path
    from argus.shard.split import (
        Shard,
        assign_keys,
        load_durations,
        parse_shard,
        shard_views,
        view_key,
    )

# The package's face: each name is imported from its module on first use (PEP 562), so
# importing one module of the package loads none of the others.
_SOURCES = {
    "Shard": "argus.shard.split",
    "assign_keys": "argus.shard.split",
    "load_durations": "argus.shard.split",
    "parse_shard": "argus.shard.split",
    "shard_views": "argus.shard.split",
    "view_key": "argus.shard.split",
    "ResultsFile": "argus.shard.results",
    "ViewEntry": "argus.shard.results",
    "parse_results": "argus.shard.results",
    "results_path": "argus.shard.results",
    "Merged": "argus.shard.merge",
    "merge_results": "argus.shard.merge",
    "render_merged_page": "argus.shard.merge_report",
}

__getattr__ = _lazy_attributes(__name__, _SOURCES, globals())

__all__ = [
    "Merged",
    "ResultsFile",
    "Shard",
    "ViewEntry",
    "assign_keys",
    "load_durations",
    "merge_results",
    "parse_results",
    "parse_shard",
    "render_merged_page",
    "results_path",
    "shard_views",
    "view_key",
]
