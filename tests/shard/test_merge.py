from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from argus.errors import InputError
from argus.shard.merge import merge_results
from argus.shard.results import RESULTS_SCHEMA, parse_results
from argus.shard.split import Shard, shard_views, view_key
from argus.spec.model import View

VIEWS = [View("habits", "list", s, a) for s in ("populated", "empty") for a in ("light", "dark")]
PLANNED = [view_key(v) for v in VIEWS]


def gate_result(view: View, console: str = "pass") -> dict[str, Any]:
    return {
        "feature": view.feature,
        "target": view.target,
        "state": view.state,
        "appearance": view.appearance,
        "gates": {"console": console, "axe": "pass"},
        "all_green": console == "pass",
    }


def entry(view: View, status: str = "green", **extra: Any) -> dict[str, Any]:
    fields = ("feature", "target", "state", "appearance")
    return {
        "view": {k: getattr(view, k) for k in fields},
        "slug": view.slug,
        "status": status,
        "duration_ms": 100.0,
        "red_gates": [],
        "gate_result": gate_result(view),
        **extra,
    }


def results(
    entries: list[dict[str, Any]], shard: Shard | None, command: str = "gates"
) -> dict[str, Any]:
    return {
        "schema": RESULTS_SCHEMA,
        "command": command,
        "feature": "habits",
        "target": None,
        "shard": None if shard is None else {"index": shard.index, "total": shard.total},
        "planned": PLANNED,
        "views": entries,
    }


def sharded(total: int, make: Any = entry) -> list[Any]:
    files = []
    for i in range(1, total + 1):
        part = shard_views(VIEWS, Shard(i, total))
        raw = results([make(v) for v in part], Shard(i, total))
        files.append(parse_results(raw, Path(f"shard-{i}.json")))
    return files


def test_shards_merge_into_the_plan_order_with_one_exit_code() -> None:
    merged = merge_results(sharded(3))
    assert [v.view for v in merged.views] == VIEWS
    assert merged.exit_code == 0 and merged.shards == 3 and merged.corrected == ()
    assert merged.durations_ms == {key: 100.0 for key in PLANNED}


def test_a_red_view_in_any_shard_makes_the_merge_exit_1() -> None:
    red = VIEWS[2]

    def make(v: View) -> dict[str, Any]:
        if v == red:
            return entry(v, "red", gate_result=gate_result(v, "fail"), red_gates=["console"])
        return entry(v)

    merged = merge_results(sharded(2, make))
    assert merged.exit_code == 1
    assert [(v.view, v.red_gates) for v in merged.views if v.status == "red"] == [
        (red, ("console",))
    ]


def test_a_green_word_over_a_red_gate_result_is_re_derived() -> None:
    forged = VIEWS[1]

    def make(v: View) -> dict[str, Any]:
        return entry(v, gate_result=gate_result(v, "fail")) if v == forged else entry(v)

    merged = merge_results(sharded(2, make))
    assert merged.exit_code == 1 and merged.corrected == (forged.slug,)


def test_missing_gate_result_is_red_not_green() -> None:
    merged = merge_results(sharded(1, lambda v: entry(v, gate_result=None)))
    assert merged.exit_code == 1
    assert {v.status for v in merged.views} == {"red"}


def test_a_gate_result_about_another_view_is_refused() -> None:
    def make(v: View) -> dict[str, Any]:
        return entry(v, gate_result=gate_result(VIEWS[0]))

    with pytest.raises(InputError, match="another view"):
        merge_results(sharded(1, make))


def test_a_missing_shard_is_bad_input_never_a_smaller_green_run() -> None:
    files = sharded(3)
    with pytest.raises(InputError, match="shard 2/3 missing"):
        merge_results([files[0], files[2]])


def test_a_shard_given_twice_is_refused() -> None:
    files = sharded(2)
    with pytest.raises(InputError, match="given twice"):
        merge_results([files[0], files[0], files[1]])


def test_a_view_run_by_two_shards_is_refused() -> None:
    files = sharded(2)
    raw = results([entry(v) for v in VIEWS[:2]] + [entry(VIEWS[0])], Shard(1, 2))
    dup = parse_results(raw, Path("dup.json"))
    with pytest.raises(InputError, match="two shards"):
        merge_results([dup, files[1]])


def test_a_planned_view_without_result_is_refused() -> None:
    files = [parse_results(results([entry(v) for v in VIEWS[:3]], None), Path("one.json"))]
    with pytest.raises(InputError, match="1 planned view"):
        merge_results(files)


def test_shards_of_different_runs_do_not_merge() -> None:
    a = sharded(2)
    other = results([entry(v) for v in shard_views(VIEWS, Shard(2, 2))], Shard(2, 2), "sense")
    with pytest.raises(InputError, match="command differs"):
        merge_results([a[0], parse_results(other, Path("other.json"))])


@pytest.mark.parametrize(
    ("statuses", "code"),
    [
        (["DONE"] * 4, 0),
        (["DONE", "BLOCKED", "DONE", "NEEDS_CONTEXT"], 2),
        (["DONE"] * 3 + ["NEEDS_CONTEXT"], 3),
    ],
)
def test_loop_merge_exits_with_the_worst_status(statuses: list[str], code: int) -> None:
    raw = results(
        [entry(v, s, gate_result=None) for v, s in zip(VIEWS, statuses, strict=True)], None, "loop"
    )
    assert merge_results([parse_results(raw, Path("loop.json"))]).exit_code == code


@pytest.mark.parametrize(
    ("mutate", "match"),
    [
        (lambda r: r.update(schema="argus-results/0"), "schema"),
        (lambda r: r.update(command="deploy"), "command"),
        (lambda r: r.update(shard={"index": 3, "total": 2}), "shard"),
        (lambda r: r.update(planned=PLANNED + PLANNED[:1]), "twice"),
        (lambda r: r["views"][0].update(duration_ms=float("nan")), "finite"),
        (lambda r: r["views"][0].update(view={"feature": "habits"}), "view"),
        (lambda r: r["views"][0].update(status=""), "status"),
    ],
)
def test_malformed_results_are_one_line_naming_the_field(mutate: Any, match: str) -> None:
    raw = results([entry(v) for v in VIEWS], None)
    mutate(raw)
    with pytest.raises(InputError, match=match):
        parse_results(raw, Path("bad.json"))
