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
import re
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from argus.errors import InputError
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


def _hash(view: View) -> str:
    return hashlib.sha256(view_key(view).encode()).hexdigest()


def assign_shards(
    views: Sequence[View], total: int, durations: Mapping[str, float] | None = None
) -> dict[str, int]:
    """The 1-based shard of every view, by view_key."""
    ordered = sorted(views, key=_hash)
    known = {view_key(v): d for v in ordered if (d := (durations or {}).get(view_key(v)))}
    if not known:
        return {view_key(v): i % total + 1 for i, v in enumerate(ordered)}
    default = statistics.median(known.values())
    weight = {view_key(v): known.get(view_key(v), default) for v in ordered}
    # Longest first; the sort is stable, so equal weights keep the hash order.
    loads = [0.0] * total
    placed: dict[str, int] = {}
    for view in sorted(ordered, key=lambda v: -weight[view_key(v)]):
        slot = min(range(total), key=lambda s: (loads[s], s))
        loads[slot] += weight[view_key(view)]
        placed[view_key(view)] = slot + 1
    return placed


def shard_views(
    views: Sequence[View], shard: Shard | None, durations: Mapping[str, float] | None = None
) -> list[View]:
    """The views this shard runs, in their original order; every view when ``shard`` is None."""
    if shard is None:
        return list(views)
    placed = assign_shards(views, shard.total, durations)
    return [v for v in views if placed[view_key(v)] == shard.index]
