"""The issue-17 rows of the side-by-side table: start-up CPU medians against odiff and fixed
budgets, the huge pages against their time budget, the view rows against Playwright."""

from __future__ import annotations

from pathlib import Path

import pytest
from bench.summary import comparisons

REPORT = {
    "medians_ms": {
        "python": 9.0,
        "version": 18.0,
        "hook_stop": 120.0,
        "diff": 150.0,
        "odiff": 25.0,
    },
    "budgets_ms": {"version": 60.0, "hook_stop": 100.0},
    "diff_target": 3.0,
}


def test_each_command_is_compared_with_its_target() -> None:
    rows = {row.subject: row for row in comparisons("startup", REPORT)}
    assert set(rows) == {"`argus --version`", "`argus hook stop`", "`argus diff` (process)"}
    assert rows["`argus --version`"].ratio == pytest.approx(0.3)
    assert rows["`argus --version`"].status == "met"
    assert rows["`argus hook stop`"].ratio == pytest.approx(1.2)
    assert rows["`argus hook stop`"].status == "missed"
    assert rows["`argus diff` (process)"].ratio == pytest.approx(6.0)
    assert rows["`argus diff` (process)"].status == "missed"
    assert {row.issue for row in rows.values()} == {17}


def test_a_report_without_a_median_is_a_key_error() -> None:
    broken = {**REPORT, "medians_ms": {"version": 18.0}}
    with pytest.raises(KeyError):
        comparisons("startup", broken)


def test_the_pairs_rows_are_per_pair_against_an_odiff_process_per_pair() -> None:
    medians = {
        **REPORT["medians_ms"],
        "diff_same_bytes": 40.0,
        "odiff_same_bytes": 20.0,
        "odiff_dense": 60.0,
        "pairs_sparse": 18.0,
        "pairs_dense": 90.0,
    }
    report = {**REPORT, "medians_ms": medians, "pairs": 50, "pairs_target": 1.0}
    rows = {row.measure: row for row in comparisons("startup", report)}
    per_pair = "1440x900, `argus diff --pairs` (50 pairs, one process), CPU time per pair"
    sparse, dense = rows[f"sparse {per_pair}"], rows[f"dense {per_pair}"]
    assert (sparse.ratio, sparse.status, sparse.issue) == (pytest.approx(18 / 25), "met", 28)
    assert sparse.baseline == "odiff binary (a process per pair)"
    assert (dense.ratio, dense.status) == (pytest.approx(1.5), "missed")  # against odiff_dense
    same = rows["byte-identical 1440x900 files, `argus diff` as a process, CPU time"]
    assert (same.ratio, same.target) == (pytest.approx(2.0), None)
    # A report from before the pairs were measured keeps its three rows.
    assert len(comparisons("startup", REPORT)) == 3


def test_the_pixel_twins_row_is_shown_once_measured() -> None:
    medians = {
        **REPORT["medians_ms"],
        "diff_same_bytes": 40.0,
        "odiff_same_bytes": 20.0,
        "odiff_dense": 60.0,
        "pairs_sparse": 18.0,
        "pairs_dense": 90.0,
    }
    report = {**REPORT, "medians_ms": medians, "pairs": 50, "pairs_target": 1.0}
    twins = "the same 1440x900 pixels in other bytes (zlib level 1), `argus diff` as a process"
    assert f"{twins}, CPU time" not in {row.measure for row in comparisons("startup", report)}
    medians.update(diff_same_pixels=44.0, odiff_same_pixels=22.0)
    rows = {row.measure: row for row in comparisons("startup", report)}
    assert (rows[f"{twins}, CPU time"].ratio, rows[f"{twins}, CPU time"].target) == (
        pytest.approx(2.0),
        None,
    )


HUGE = {
    "target_s": 15,
    "sizes": {
        "1000": {"total_s": 2.5, "gates_in_error": []},
        "20000": {"total_s": 12.0, "gates_in_error": []},
        "5000": {"total_s": 4.0, "gates_in_error": ["axe"]},
    },
}


def test_huge_rows_grow_by_size_and_only_the_largest_has_the_target() -> None:
    rows = comparisons("huge", HUGE)
    assert [row.measure for row in rows] == [
        "1,000-row page, sensed and gated",
        "5,000-row page, sensed and gated",
        "20,000-row page, sensed and gated",
    ]
    assert [row.target for row in rows] == [None, None, 1.0]
    assert rows[2].ratio == pytest.approx(0.8)
    assert rows[2].status == "met" and rows[2].issue == 17
    assert rows[1].status == "no target"  # its gate error belongs to no target


def test_the_largest_page_misses_when_a_gate_is_in_error_whatever_its_time() -> None:
    erring = {**HUGE, "sizes": {"20000": {"total_s": 3.0, "gates_in_error": ["axe", "probe"]}}}
    (row,) = comparisons("huge", erring)
    assert row.ratio == pytest.approx(0.2)
    assert row.status == "missed"
    assert row.to_json()["missed_because"] == "gates in error: axe, probe"


def test_the_view_rows_carry_the_issue_17_targets() -> None:
    medians = {
        "argus_sense_gates": 200.0,
        "playwright_assert": 160.0,
        "argus_capture": 100.0,
        "playwright_screenshot": 95.0,
        "argus_whole_run": 3000.0,
        "playwright_whole_run": 2800.0,
    }
    rows = {row.measure: row for row in comparisons("view", {"medians_ms": medians})}
    per_view = rows["one view, per assertion (warm)"]
    capture = rows["capture alone (warm)"]
    assert (per_view.target, per_view.status, per_view.issue) == (1.0, "missed", 17)
    assert (capture.target, capture.status, capture.issue) == (1.1, "met", 17)
    assert rows["one view, whole run (start-up included)"].target is None


def test_the_fair_peer_takes_the_per_view_target_from_the_bare_assertion() -> None:
    medians = {
        "argus_sense_gates": 300.0,
        "playwright_assert": 160.0,
        "playwright_assert_axe": 320.0,
        "argus_capture": 100.0,
        "playwright_screenshot": 95.0,
        "argus_whole_run": 3000.0,
        "playwright_whole_run": 2800.0,
    }
    rows = {row.measure: row for row in comparisons("view", {"medians_ms": medians})}
    fair = rows["one view at equal evidence, per assertion (warm)"]
    assert (fair.target, fair.status, fair.issue) == (1.0, "met", 28)
    assert fair.baseline_ms == 320.0
    bare = rows["one view, per assertion (warm)"]
    assert (bare.target, bare.status) == (None, "no target")
    assert "snapshot only, per assertion (warm)" not in rows  # not measured in this report
    medians["argus_snapshot_only"] = 150.0
    rows = {row.measure: row for row in comparisons("view", {"medians_ms": medians})}
    snapshot = rows["snapshot only, per assertion (warm)"]
    assert (snapshot.target, snapshot.issue, snapshot.status) == (1.0, 28, "met")
    assert snapshot.baseline_ms == 160.0
    assert "snapshot only, each assertion isolated (warm)" not in rows  # no fresh-context peer
    medians["playwright_assert_fresh_context"] = 250.0
    rows = {row.measure: row for row in comparisons("view", {"medians_ms": medians})}
    isolated = rows["snapshot only, each assertion isolated (warm)"]
    assert (isolated.baseline_ms, isolated.target) == (250.0, None)
    assert rows["snapshot only, per assertion (warm)"].target == 1.0  # the target stays there
    assert "capture alone, each capture isolated (warm)" not in rows
    medians["playwright_screenshot_fresh_context"] = 180.0
    rows = {row.measure: row for row in comparisons("view", {"medians_ms": medians})}
    isolated_capture = rows["capture alone, each capture isolated (warm)"]
    assert (isolated_capture.baseline_ms, isolated_capture.target) == (180.0, None)
    assert rows["capture alone (warm)"].target == 1.1  # the target stays there
    slower = {**medians, "playwright_assert_axe": 290.0}
    rows = {row.measure: row for row in comparisons("view", {"medians_ms": slower})}
    assert rows["one view at equal evidence, per assertion (warm)"].status == "missed"


def test_the_plugin_row_against_playwright_test_has_the_issue_28_target() -> None:
    medians = {
        "argus_plugin": 110.0,
        "playwright_to_have_screenshot": 100.0,
        "pytest_playwright_visual": 900.0,
    }
    against_pw, against_visual = comparisons("plugin", {"medians_ms": medians})
    assert (against_pw.target, against_pw.issue, against_pw.status) == (1.0, 28, "missed")
    assert against_visual.target is None


THROUGHPUT = {
    "throughput": {
        "views": 50,
        "pages": {
            "1": {"seconds": 40.0, "views_per_minute": 75.0},
            "2": {"seconds": 25.0, "views_per_minute": 120.0},
            "4": {"seconds": 30.0, "views_per_minute": 100.0},
        },
        "workers_per_shard": 2,
        "shards": {
            "1": {"wall_seconds": 30.0, "views_per_minute": 100.0, "speedup": 1.0},
            "2": {"wall_seconds": 20.0, "views_per_minute": 150.0, "speedup": 1.5},
            "4": {"wall_seconds": 12.0, "views_per_minute": 250.0, "speedup": 2.5},
        },
    }
}


def test_the_throughput_rows_compare_more_pages_and_machines_with_one() -> None:
    rows = comparisons("scaling", THROUGHPUT)
    assert [row.subject for row in rows] == ["2 pages", "4 pages", "2 machines", "4 machines"]
    two_pages, four_pages, two_machines, four_machines = rows
    assert two_pages.ratio == pytest.approx(25 / 40) and four_pages.ratio == pytest.approx(0.75)
    assert "120 views/minute (1 page: 75)" in two_pages.measure
    assert two_machines.ratio == pytest.approx(20 / 30)
    assert four_machines.ratio == pytest.approx(12 / 30)
    assert "250 views/minute (1 machine: 100)" in four_machines.measure
    assert {row.target for row in rows} == {None}
    # Without a browser the area measures no throughput, and so has no such rows.
    assert comparisons("scaling", {"throughput": {"skipped": "--no-browser"}}) == []


def test_the_throughput_table_reads_the_scaling_area() -> None:
    from bench.summary import throughput_table
    from bench.tables import terminal

    table = throughput_table(THROUGHPUT)
    assert table["pages"] == {"1": 75.0, "2": 120.0, "4": 100.0}
    assert table["shards"]["4"] == 250.0 and table["shard_speedup"]["4"] == 2.5
    assert throughput_table(None) == {} and throughput_table({"throughput": {}}) == {}
    results = {
        "quick": True,
        "generated_at": "2026-01-01 00:00 UTC",
        "machine": {"cpus": 2, "cpu_model": "CPU", "memory_gib": 1, "platform": "x"},
        "versions": {},
        "comparisons": [],
        "throughput": table,
        "areas": {},
    }
    text = terminal(results)
    assert "Throughput: a 50-view feature" in text
    assert any(line.split()[:4] == ["4", "100.0", "250.0", "2.50"] for line in text.splitlines())


def test_the_fifty_view_feature_is_a_valid_spec_of_fifty_views(tmp_path: Path) -> None:
    from bench.example import SPEC, copy_example
    from bench.scaling_bench import FEATURE_VIEWS, write_feature_of

    from argus.spec import load_spec

    root = copy_example(tmp_path)
    write_feature_of(root)
    views = load_spec(root / SPEC).views()
    assert len(views) == FEATURE_VIEWS == 50
    assert len({view.slug for view in views}) == 50
    assert {view.target for view in views} >= {"list", "list-13"}


def test_the_gates_only_row_says_what_it_leaves_out_and_meets_no_target_of_its_own() -> None:
    medians = {
        "argus_sense_gates": 300.0,
        "argus_gates_only_no_controls": 120.0,
        "playwright_assert": 160.0,
        "playwright_assert_axe": 320.0,
        "argus_capture": 100.0,
        "playwright_screenshot": 95.0,
        "argus_whole_run": 3000.0,
        "playwright_whole_run": 2800.0,
    }
    rows = {row.measure: row for row in comparisons("view", {"medians_ms": medians})}
    only = rows["one view, gates only (no dead-control probe), per assertion (warm)"]
    assert "without the dead-control probe" in only.subject
    assert (only.subject_ms, only.baseline_ms, only.target) == (120.0, 320.0, None)
    # The default evidence keeps its own row and target: the faster path never stands for it.
    assert rows["one view at equal evidence, per assertion (warm)"].subject_ms == 300.0
    assert rows["one view, per assertion (warm)"].target is None
    del medians["argus_gates_only_no_controls"]  # an older report: no such row
    rows = {row.measure: row for row in comparisons("view", {"medians_ms": medians})}
    assert not any("gates only" in measure for measure in rows)
