"""Split a feature's views across machines, as Playwright's ``--shard i/n`` splits tests.

parse_shard("2/3") -> Shard(index=2, total=3)       1-based, like Playwright
shard_views(views, shard, durations=None) -> list    this shard's views, in spec order

Every machine of a CI matrix must compute the same split without talking to the others, so
the split depends only on the views and on a durations file every shard reads (the one
``argus merge`` writes), never on a machine's own run store: two machines with different
histories would otherwise skip or repeat views.

- Without durations the views are ordered by a hash of their id and dealt round-robin, so
  shard sizes differ by at most one and adding a view moves few others.
- With durations, views are placed longest first onto the shard with the least total time
  (ties: the lower shard); a view without a recorded duration counts as the median of those
  with one.
"""

from __future__ import annotations

import hashlib
import math
import re
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from argus.errors import InputError
from argus.io import read_json
from argus.spec.model import View

_SHARD = re.compile(r"(\d{1,6})/(\d{1,6})")


@dataclass(frozen=True)
class Shard:
    index: int  # 1-based
    total: int

    def __str__(self) -> str:
        return f"{self.index}/{self.total}"


def parse_shard(text: str) -> Shard:
    """``i/n`` with 1 <= i <= n; anything else is bad input naming the option."""
    match = _SHARD.fullmatch(text.strip())
    if match is None:
        raise InputError(f"--shard: expected i/n such as 2/3, got {text!r}")
    index, total = int(match.group(1)), int(match.group(2))
    if total < 1 or not 1 <= index <= total:
        raise InputError(f"--shard: {text!r} is not a shard of 1..n (i must be from 1 to n)")
    return Shard(index, total)


def view_key(view: View) -> str:
    """The id a view is split by: feature and slug, stable across machines and runs."""
    return f"{view.feature}/{view.slug}"


def _hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def assign_shards(
    views: Sequence[View], total: int, durations: Mapping[str, float] | None = None
) -> dict[str, int]:
    """The 1-based shard of every view, by view_key."""
    return assign_keys([view_key(v) for v in views], total, durations)


def assign_keys(
    keys: Sequence[str], total: int, durations: Mapping[str, float] | None = None
) -> dict[str, int]:
    """The 1-based shard of every key (a view's key, a test's node id): the split above."""
    ordered = sorted(dict.fromkeys(keys), key=_hash)
    known = {k: d for k in ordered if (d := (durations or {}).get(k))}
    if not known:
        return {k: i % total + 1 for i, k in enumerate(ordered)}
    default = statistics.median(known.values())
    weight = {k: known.get(k, default) for k in ordered}
    # Longest first; the sort is stable, so equal weights keep the hash order.
    loads = [0.0] * total
    placed: dict[str, int] = {}
    for key in sorted(ordered, key=lambda k: -weight[k]):
        slot = min(range(total), key=lambda s: (loads[s], s))
        loads[slot] += weight[key]
        placed[key] = slot + 1
    return placed


def shard_views(
    views: Sequence[View], shard: Shard | None, durations: Mapping[str, float] | None = None
) -> list[View]:
    """The views this shard runs, in their original order; every view when ``shard`` is None."""
    if shard is None:
        return list(views)
    placed = assign_shards(views, shard.total, durations)
    return [v for v in views if placed[view_key(v)] == shard.index]


def load_durations(path: Path) -> dict[str, float]:
    """``{"durations_ms": {key: ms}}`` (a view's ``feature/slug``, a test's node id): finite,
    non-negative numbers only."""
    raw = read_json(path, what="durations file")
    table = raw.get("durations_ms") if isinstance(raw, dict) else None
    if not isinstance(table, dict):
        raise InputError(f"{path}: durations file needs a 'durations_ms' object of key -> ms")
    durations: dict[str, float] = {}
    for key, value in table.items():
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        if not ok or not math.isfinite(value) or value < 0:
            raise InputError(f"{path}: duration of {key!r} must be a finite number >= 0")
        durations[str(key)] = float(value)
    return durations
