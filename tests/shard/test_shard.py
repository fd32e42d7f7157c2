from __future__ import annotations

import pytest

from argus.errors import InputError
from argus.shard.split import Shard, assign_shards, parse_shard, shard_views, view_key
from argus.spec.model import View


def views(n: int) -> list[View]:
    return [
        View("f", f"t{i // 4}", f"s{i % 2}", "light" if i % 4 < 2 else "dark") for i in range(n)
    ]


@pytest.mark.parametrize(
    ("text", "shard"), [("1/1", Shard(1, 1)), ("2/3", Shard(2, 3)), (" 3/3 ", Shard(3, 3))]
)
def test_parse_shard(text: str, shard: Shard) -> None:
    assert parse_shard(text) == shard


@pytest.mark.parametrize("text", ["0/3", "4/3", "1/0", "a/b", "1", "1/2/3", "-1/2", "1/ 2", ""])
def test_parse_shard_refuses_what_is_not_i_of_n(text: str) -> None:
    with pytest.raises(InputError, match="--shard"):
        parse_shard(text)


@pytest.mark.parametrize(("count", "total"), [(1, 3), (4, 3), (10, 3), (12, 4), (7, 7), (5, 1)])
def test_shards_cover_every_view_once_and_evenly(count: int, total: int) -> None:
    all_views = views(count)
    parts = [shard_views(all_views, Shard(i, total)) for i in range(1, total + 1)]
    flat = [v for part in parts for v in part]
    assert sorted(flat, key=view_key) == sorted(all_views, key=view_key)
    assert len(flat) == len(set(flat))
    sizes = [len(p) for p in parts]
    assert max(sizes) - min(sizes) <= 1
    for part in parts:  # each shard keeps the spec's order
        assert part == [v for v in all_views if v in part]


def test_split_is_deterministic_and_independent_of_input_order() -> None:
    all_views = views(9)
    first = assign_shards(all_views, 3)
    assert assign_shards(list(reversed(all_views)), 3) == first
    assert assign_shards(all_views, 3) == first


def test_no_shard_means_every_view() -> None:
    assert shard_views(views(5), None) == views(5)


def test_durations_balance_the_longest_first() -> None:
    all_views = views(4)
    keys = [view_key(v) for v in all_views]
    durations = {keys[0]: 900.0, keys[1]: 300.0, keys[2]: 300.0, keys[3]: 300.0}
    placed = assign_shards(all_views, 2, durations)
    # 900 alone on one shard, the three 300s on the other: totals 900 / 900.
    assert placed[keys[0]] == 1
    assert {placed[k] for k in keys[1:]} == {2}


def test_view_without_duration_counts_as_the_median() -> None:
    all_views = views(3)
    keys = [view_key(v) for v in all_views]
    # Known: 100 and 500 (median 300); the third weighs 300: 500 | 300 + 100.
    placed = assign_shards(all_views, 2, {keys[0]: 100.0, keys[1]: 500.0})
    assert placed[keys[1]] == 1
    assert placed[keys[0]] == placed[keys[2]] == 2
