"""Sharding: split a feature's views across machines, and merge what the shards leave.

    split      parse_shard("2/3"), shard_views(views, shard, durations): this machine's views
    results    the per-view results file each shard writes for ``argus merge``
    merge      merge_results(files): the shards checked to fit, re-derived, one exit code
    merge_report   the HTML page of a merged run

The CLI options (``--shard``, ``--durations``, ``--results``) live in ``argus.cli._shard`` and
the pytest side (``--argus-shard``) in ``argus.testing.sharding``; both call ``split``.
"""
