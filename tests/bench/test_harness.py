"""The benchmark harness itself: it runs, writes latest.json and the README table.

Nothing here times anything or compares a number against a threshold: speed lives in bench/.
The smoke run uses ``--smoke`` (no npm, no browser, the smallest diff size once).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from bench.summary import Comparison, comparisons, scaling_table
from bench.tables import README_END, README_START, readme_table, replace_between_markers

REPO_ROOT = Path(__file__).resolve().parents[2]
README_BEFORE = f"# Project\n\nintro\n\n{README_START}\nold table\n{README_END}\n\ntail\n"


def _bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bench.run", *args],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


# The smoke run's tests share one worker under ``make test`` (--dist loadgroup): spread over
# both, each worker ran the harness again for its own copy of the module fixture.
ONE_SMOKE_RUN = pytest.mark.xdist_group("tests/bench/test_harness.py::smoke")


@pytest.fixture(scope="module")
def smoke(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, str, str]:
    tmp = tmp_path_factory.mktemp("bench")
    readme = tmp / "README.md"
    readme.write_text(README_BEFORE, encoding="utf-8")
    proc = _bench(
        "--smoke", "--only", "scaling", "--out", str(tmp / "latest.json"), "--readme", str(readme)
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads((tmp / "latest.json").read_text()), readme.read_text(), proc.stdout


@ONE_SMOKE_RUN
def test_latest_json_has_machine_versions_and_areas(smoke: tuple[Any, str, str]) -> None:
    results, _, _ = smoke
    assert results["version"] == 1
    assert results["smoke"] is True and results["quick"] is True
    assert {"cpus", "cpu_model", "memory_bytes", "platform"} <= set(results["machine"])
    assert isinstance(results["machine"]["cpus"], int)
    expected_versions = {"python", "numpy", "playwright", "chromium", "node", "pixelmatch", "odiff"}
    assert expected_versions <= set(results["versions"])
    assert results["versions"]["python"] == ".".join(map(str, sys.version_info[:3]))
    assert set(results["areas"]) == {"scaling"}  # --only
    assert results["areas"]["scaling"]["status"] == "ok"
    assert len(results["source"]["commit"]) == 40
    assert isinstance(results["source"]["local_edits"], list)
    for key in ("comparisons", "targets", "medians", "scaling", "throughput"):
        assert key in results


@ONE_SMOKE_RUN
def test_smoke_run_measures_the_smallest_diff_only(smoke: tuple[Any, str, str]) -> None:
    results, _, stdout = smoke
    row = results["scaling"]["diff"]["720p"]
    assert row["pixels"] == 1280 * 720
    assert row["argus_sparse_ms"] > 0 and row["argus_dense_ms"] > 0
    assert list(results["scaling"]["diff"]) == ["720p"]
    assert results["scaling"]["sense"] == {}  # no browser in a smoke run
    assert results["medians"]["scaling"]["diff"]["720p"]["sparse_mismatch"] > 0
    assert "Scaling, diff" in stdout


@ONE_SMOKE_RUN
def test_readme_table_replaced_between_markers_only(smoke: tuple[Any, str, str]) -> None:
    _, readme, _ = smoke
    assert "old table" not in readme
    assert readme.startswith("# Project\n\nintro\n\n" + README_START + "\n")
    assert readme.endswith(README_END + "\n\ntail\n")
    assert "| area | measure | against | ratio | target |" in readme


def test_readme_without_markers_is_left_alone_with_a_note(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("# No markers here\n", encoding="utf-8")
    proc = _bench(
        "--smoke", "--only", "scaling", "--out", str(tmp_path / "r.json"), "--readme", str(readme)
    )
    assert proc.returncode == 0, proc.stderr
    assert readme.read_text() == "# No markers here\n"
    assert "no <!-- bench:start --> / <!-- bench:end --> markers" in proc.stderr


@ONE_SMOKE_RUN
def test_from_results_rewrites_the_readme_without_measuring(
    smoke: tuple[Any, str, str], tmp_path: Path
) -> None:
    results, _, _ = smoke
    saved = tmp_path / "latest.json"
    saved.write_text(json.dumps({**results, "generated_at": "2001-02-03 04:05 UTC"}))
    readme = tmp_path / "README.md"
    readme.write_text(README_BEFORE, encoding="utf-8")
    proc = _bench("--from-results", "--out", str(saved), "--readme", str(readme))
    assert proc.returncode == 0, proc.stderr
    assert "2001-02-03 04:05 UTC" in readme.read_text()
    assert "bench: scaling" not in proc.stderr  # no area ran
    missing = _bench("--from-results", "--out", str(tmp_path / "none.json"))
    assert missing.returncode == 2
    assert missing.stderr.startswith("bench: ") and "none.json" in missing.stderr


def test_unknown_area_is_a_usage_error(tmp_path: Path) -> None:
    proc = _bench("--only", "nope", "--out", str(tmp_path / "r.json"))
    assert proc.returncode == 2
    assert "unknown area 'nope'" in proc.stderr
    assert not (tmp_path / "r.json").exists()


@pytest.mark.parametrize(
    ("subject", "baseline", "target", "status"),
    [
        (1.0, 2.0, 1.0, "met"),
        (2.0, 2.0, 1.0, "met"),  # the target is inclusive
        (2.2, 2.0, 1.0, "missed"),
        (3.0, 2.0, 1.5, "met"),
        (3.2, 2.0, 1.5, "missed"),
        (9.0, 1.0, None, "no target"),
    ],
)
def test_comparison_status_from_the_medians(
    subject: float, baseline: float, target: float | None, status: str
) -> None:
    row = Comparison("diff", "m", "Argus", subject, "peer", baseline, target, 4)
    assert row.ratio == subject / baseline
    assert row.status == status
    assert row.to_json()["status"] == status


def _diff_report(argus: float, node: float) -> dict[str, Any]:
    med = {
        "argus_count": argus,
        "node_count": node,
        "argus_with_diff": argus,
        "node_with_diff": node,
        "argus_file": argus,
        "odiff_file": node,
    }
    return {
        "pairs": [
            {
                "pair": "sparse-1440x900",
                "group": "headline",
                "medians_ms": med,
                "ratios": {"in_process_count": 0.01},
            },
            {"pair": "dense-1440x900", "group": "headline", "medians_ms": med},
        ],
        "meets_targets": {"sparse_in_process": True},
    }


def test_ratios_are_recomputed_not_taken_from_the_area() -> None:
    rows = comparisons("diff", _diff_report(argus=3.0, node=2.0))
    sparse = next(r for r in rows if r.measure == "sparse 1440x900, arrays, count")
    assert sparse.ratio == 1.5  # not the report's own 0.01
    assert sparse.status == "missed"  # whatever meets_targets claimed
    dense = next(r for r in rows if r.measure == "dense 1440x900, arrays, count")
    assert dense.status == "met"  # 1.5 <= 1.5


def test_diff_rows_say_in_process_and_add_the_command_row_without_a_target() -> None:
    report = _diff_report(argus=3.0, node=2.0)
    assert not any("command" in r.measure for r in comparisons("diff", report))
    for row in report["pairs"]:
        row["medians_ms"] = {**row["medians_ms"], "argus_command": 80.0}
    rows = comparisons("diff", report)
    file_row = next(r for r in rows if r.measure.startswith("sparse 1440x900, file to count"))
    assert "Argus in-process" in file_row.measure and "(process)" in file_row.baseline
    command = next(r for r in rows if r.measure.startswith("sparse 1440x900, `argus diff`"))
    assert command.subject == "`argus diff` (process)" and command.ratio == 40.0
    assert command.status == "no target"


def test_an_area_report_missing_a_median_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        comparisons("gates", {"summary": {"gates_ms_median_with_axe": 1.0}})


def test_scaling_pairs_argus_with_pixelmatch_from_the_same_diff_run() -> None:
    scaling = {
        "diff": {
            "sizes": {
                "1440x900": {
                    "pixels": 1296000,
                    "sparse_ms": 9.0,
                    "dense_ms": 90.0,
                    "dense_file_ms": 120.0,
                }
            }
        }
    }
    table = scaling_table(scaling, _diff_report(argus=3.0, node=2.0))
    row = table["diff"]["1440x900"]
    assert row["argus_sparse_ms"] == 9.0  # this area's own, comparable across sizes
    assert row["diff_area_argus_sparse_ms"] == 3.0
    assert row["diff_area_pixelmatch_sparse_ms"] == 2.0
    assert row["diff_area_ratio_sparse"] == 1.5
    alone = scaling_table(scaling, None)["diff"]["1440x900"]
    assert alone["argus_sparse_ms"] == 9.0 and "diff_area_pixelmatch_sparse_ms" not in alone


def test_replace_between_markers() -> None:
    assert replace_between_markers("no markers", "x") is None
    assert replace_between_markers(f"{README_END} {README_START}", "x") is None
    text = f"a\n{README_START}\nold\n{README_END}\nb"
    assert replace_between_markers(text, "new") == f"a\n{README_START}\nnew\n{README_END}\nb"


def test_readme_table_lists_every_comparison_and_what_was_not_measured() -> None:
    rows = [Comparison("gates", "all gates", "g", 1.0, "sense", 2.0, 0.75, 5).to_json()]
    results = {
        "quick": False,
        "generated_at": "2026-01-01 00:00 UTC",
        "machine": {"cpus": 2, "cpu_model": "CPU"},
        "comparisons": rows,
        "areas": {"gates": {"status": "ok"}, "loop": {"status": "missing"}},
    }
    table = readme_table(results)
    assert "| gates | all gates | sense | 0.50 | ≤ 0.75 (met) |" in table
    assert "Not measured in this run: loop." in table


def test_other_markers_bound_another_table() -> None:
    from bench.refree import MARKERS

    text = f"a\n{MARKERS[0]}\nold\n{MARKERS[1]}\nb\n{README_START}\nkeep\n{README_END}\n"
    updated = replace_between_markers(text, "new", MARKERS)
    assert updated == f"a\n{MARKERS[0]}\nnew\n{MARKERS[1]}\nb\n{README_START}\nkeep\n{README_END}\n"
    assert replace_between_markers("no markers", "new", MARKERS) is None
