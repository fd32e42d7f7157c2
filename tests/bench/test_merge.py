"""bench.run --merge: a run of some areas keeps the other areas of the results file, and the
README table says which rows come from the earlier run."""

from __future__ import annotations

from typing import Any

from bench.run import merge
from bench.tables import readme_table

MACHINE = {"cpus": 2, "cpu_model": "x", "load_1min_before": 1.0, "load_1min_after": 2.0}


def _row(area: str, ratio: float) -> dict[str, Any]:
    return {"area": area, "measure": f"{area} m", "baseline": "b", "ratio": ratio,
            "target": 1.0, "status": "met" if ratio <= 1 else "missed"}  # fmt: skip


def _results(when: str, areas: dict[str, float]) -> dict[str, Any]:
    rows = [_row(area, ratio) for area, ratio in areas.items()]
    return {
        "generated_at": when, "command": "python -m bench.run", "quick": True,
        "machine": MACHINE, "comparisons": rows, "targets": rows,
        "medians": {area: {"ms": ratio} for area, ratio in areas.items()},
        "scaling": {"from": when}, "throughput": {"from": when},
        "areas": {area: {"status": "ok"} for area in areas},
    }  # fmt: skip


def test_a_merge_keeps_the_areas_not_run_and_replaces_the_rest() -> None:
    older = _results("then", {"diff": 0.5, "view": 3.0, "scaling": 2.0})
    newer = _results("now", {"view": 0.9})
    merged = merge(older, newer)
    assert [(r["area"], r["ratio"]) for r in merged["comparisons"]] == [
        ("diff", 0.5), ("view", 0.9), ("scaling", 2.0),
    ]  # fmt: skip
    assert merged["medians"]["view"] == {"ms": 0.9} and merged["medians"]["diff"] == {"ms": 0.5}
    # scaling was not run: its tables (by size, and the throughput it measures) are kept.
    assert merged["scaling"] == {"from": "then"} and merged["throughput"] == {"from": "then"}
    assert [(g["areas"], g["from"]) for g in merged["kept"]] == [(["diff", "scaling"], "then")]
    assert "Rows of diff, scaling are from the run of then" in readme_table(merged)
    # scaling in neither run: the newer's tables.
    other = merge(_results("then", {"diff": 0.5, "sense": 2.0}), newer)
    assert other["scaling"] == {"from": "now"} and other["throughput"] == {"from": "now"}
    # Merged again: each kept area still names the run it was measured in.
    later = merge(merged, _results("later", {"scaling": 1.5}))
    assert [(g["areas"], g["from"]) for g in later["kept"]] == [
        (["diff"], "then"), (["view"], "now"),
    ]  # fmt: skip
    # Nothing to keep: the newer run as it is, and no such sentence.
    alone = merge(_results("then", {"view": 3.0}), newer)
    assert alone is newer and "are from the run of" not in readme_table(alone)
