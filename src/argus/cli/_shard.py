"""``--shard i/n``, ``--durations FILE`` and ``--results PATH``: the options that let
``argus sense``, ``argus gates`` and ``argus loop`` split a feature's views across machines,
and the results file each shard leaves for ``argus merge`` (see docs/shard.md).

add_shard_arguments(parser)
views = selected_views(spec, args)                   # the target's views, this shard's share
write_shard_results(args, root, "gates", spec, views, entries)
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from argus.errors import InputError
from argus.io import atomic_write_json
from argus.shard.results import ViewEntry, results_json, results_path
from argus.shard.split import Shard, load_durations, parse_shard, shard_views
from argus.spec import Spec, View


def add_shard_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--shard",
        type=parse_shard,
        metavar="I/N",
        help="run only shard I of N (1-based, as in Playwright): the views are split "
        "deterministically and evenly; merge the shards' results with argus merge",
    )
    parser.add_argument(
        "--durations",
        type=Path,
        metavar="FILE",
        help="with --shard: balance shards by these view durations (the durations.json "
        "argus merge writes); every shard must read the same file",
    )
    parser.add_argument(
        "--results",
        type=Path,
        metavar="PATH",
        help="write this run's per-view results here for argus merge (default with --shard: "
        ".argus/results/COMMAND-FEATURE-shard-I-of-N.json)",
    )


def selected_views(spec: Spec, args: argparse.Namespace) -> list[View]:
    """The views ``--target`` names (default: all), cut to ``--shard`` when given."""
    views = spec.views(args.target)
    shard: Shard | None = args.shard
    if shard is None:
        if args.durations is not None:
            raise InputError("--durations only makes sense with --shard")
        return views
    durations = load_durations(args.durations) if args.durations is not None else None
    return shard_views(views, shard, durations)


def write_shard_results(
    args: argparse.Namespace,
    root: Path,
    command: str,
    spec: Spec,
    views: Sequence[View],
    entries: Mapping[str, ViewEntry],
    *,
    extra: Mapping[str, Any] | None = None,
) -> Path | None:
    """Write the results file when ``--results`` or ``--shard`` asks for one."""
    shard: Shard | None = args.shard
    path: Path | None = args.results
    if path is None and shard is None:
        return None
    target = path if path is not None else results_path(root, command, spec.feature, shard)
    atomic_write_json(
        target, results_json(command, spec, args.target, shard, views, entries, extra)
    )
    return target
