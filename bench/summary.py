"""Turn each area's report into side-by-side comparisons with the targets from the issues.

Every ratio here is recomputed from the two medians an area measured in the same run
(derive, don't trust: an area's own ``ratios`` or ``meets_targets`` are not read). A ratio is
``subject / baseline``: below 1.0 the subject is faster. A target is a maximum ratio.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

Report = Mapping[str, Any]


@dataclass(frozen=True)
class Comparison:
    area: str
    measure: str
    subject: str
    subject_ms: float
    baseline: str
    baseline_ms: float
    target: float | None = None  # the ratio must be at most this
    issue: int | None = None  # the issue the target comes from
    missed_because: str | None = None  # a condition besides the ratio that the target needs

    @property
    def ratio(self) -> float:
        return self.subject_ms / self.baseline_ms

    @property
    def status(self) -> str:
        if self.target is None:
            return "no target"
        if self.missed_because is not None:
            return "missed"
        return "met" if self.ratio <= self.target else "missed"

    def to_json(self) -> dict[str, Any]:
        return {
            "area": self.area,
            "measure": self.measure,
            "subject": self.subject,
            "subject_ms": round(self.subject_ms, 3),
            "baseline": self.baseline,
            "baseline_ms": round(self.baseline_ms, 3),
            "ratio": round(self.ratio, 3),
            "target": self.target,
            "issue": self.issue,
            "status": self.status,
            **({"missed_because": self.missed_because} if self.missed_because else {}),
        }


PIXELMATCH = "pixelmatch 7.2.0 (Node)"


def diff_comparisons(report: Report) -> list[Comparison]:
    pairs = {row["pair"]: row["medians_ms"] for row in report["pairs"]}
    rows: list[Comparison] = []
    for kind, in_process_target in (("sparse", 1.0), ("dense", 1.5)):
        med = pairs[f"{kind}-1440x900"]
        rows += [
            Comparison(
                "diff", f"{kind} 1440x900, arrays, count", "Argus", med["argus_count"],
                PIXELMATCH, med["node_count"], in_process_target, 4,
            ),
            Comparison(
                "diff", f"{kind} 1440x900, arrays, with diff image", "Argus",
                med["argus_with_diff"], PIXELMATCH, med["node_with_diff"],
            ),
            Comparison(
                "diff", f"{kind} 1440x900, file to count, Argus in-process (decode + kernel)",
                "Argus in-process (decode + kernel)",
                med["argus_file"], "odiff binary (process)", med["odiff_file"], 1.0, 4,
            ),
        ]  # fmt: skip
        if "argus_command" in med:  # reports from before it was measured have no such row
            rows.append(
                Comparison(
                    "diff", f"{kind} 1440x900, `argus diff` command (start-up included)",
                    "`argus diff` (process)",
                    med["argus_command"], "odiff binary (process)", med["odiff_file"],
                )
            )  # fmt: skip
    fixtures = [row["medians_ms"] for row in report["pairs"] if row["group"] == "conformance"]
    if fixtures:
        rows.append(
            Comparison(
                "diff",
                f"conformance fixtures ({len(fixtures)} cases, total)",
                "Argus",
                sum(m["argus_count"] for m in fixtures),
                PIXELMATCH,
                sum(m["node_count"] for m in fixtures),
            )
        )
    return rows


def view_comparisons(report: Report) -> list[Comparison]:
    med = report["medians_ms"]
    rows: list[Comparison] = []
    if "playwright_assert_axe" in med:  # reports from before issue 28 have no fair peer
        rows.append(
            Comparison(
                "view", "one view at equal evidence, per assertion (warm)",
                "Argus sense + gates (default evidence)", med["argus_sense_gates"],
                "Playwright Test goto + toHaveScreenshot + AxeBuilder.analyze",
                med["playwright_assert_axe"], 1.0, 28,
            )
        )  # fmt: skip
    if "argus_gates_only_no_controls" in med:
        # Named for what it leaves out: the dead-control probe, which only the judge reads;
        # the paths that only gate take it (argus gates --sense, the pytest plugin, shards).
        rows.append(
            Comparison(
                "view", "one view, gates only (no dead-control probe), per assertion (warm)",
                "Argus sense without the dead-control probe + gates",
                med["argus_gates_only_no_controls"],
                "Playwright Test goto + toHaveScreenshot + AxeBuilder.analyze",
                med["playwright_assert_axe"],
            )
        )  # fmt: skip
    # Against the bare assertion the default evidence has no target since issue 28 (the
    # snapshot-only paths do); before it, issue 17 set 1.0.
    bare = (None, None) if "playwright_assert_axe" in med else (1.0, 17)
    return [
        *rows,
        Comparison(
            "view", "one view, per assertion (warm)", "Argus sense + gates",
            med["argus_sense_gates"], "Playwright Test goto + toHaveScreenshot",
            med["playwright_assert"], *bare,
        ),
        *(
            [
                Comparison(
                    "view", "snapshot only, per assertion (warm)",
                    "argus sense --snapshot-only + snapshot gate", med["argus_snapshot_only"],
                    "Playwright Test goto + toHaveScreenshot", med["playwright_assert"], 1.0, 28,
                )
            ]
            if "argus_snapshot_only" in med
            else []
        ),
        # The same, against a peer as isolated as Argus: each of Argus's views starts on a page
        # whose cookies, storage, cache and history were cleared, and the peer's equal is a new
        # context per assertion. Beside the row above, which keeps the target.
        *(
            [
                Comparison(
                    "view", "snapshot only, each assertion isolated (warm)",
                    "argus sense --snapshot-only + snapshot gate", med["argus_snapshot_only"],
                    "Playwright Test, a new context per assertion: goto + toHaveScreenshot",
                    med["playwright_assert_fresh_context"],
                )
            ]
            if "argus_snapshot_only" in med and "playwright_assert_fresh_context" in med
            else []
        ),
        Comparison(
            "view", "capture alone (warm)", "Argus stable capture, no probe",
            med["argus_capture"], "Playwright goto + page.screenshot",
            med["playwright_screenshot"], 1.1, 17,
        ),
        # Likewise the capture against a new context per capture; the target stays above.
        *(
            [
                Comparison(
                    "view", "capture alone, each capture isolated (warm)",
                    "Argus stable capture, no probe", med["argus_capture"],
                    "Playwright, a new context per capture: goto + page.screenshot",
                    med["playwright_screenshot_fresh_context"],
                )
            ]
            if "playwright_screenshot_fresh_context" in med
            else []
        ),
        Comparison(
            "view", "one view, whole run (start-up included)", "argus gates --sense",
            med["argus_whole_run"], "playwright test (1 assertion)", med["playwright_whole_run"],
        ),
    ]  # fmt: skip


def plugin_comparisons(report: Report) -> list[Comparison]:
    med = report["medians_ms"]
    return [
        Comparison(
            "plugin", "pytest plugin, goto + one assertion (warm)", "argus_snapshot",
            med["argus_plugin"], "Playwright Test goto + toHaveScreenshot",
            med["playwright_to_have_screenshot"], 1.0, 28,
        ),
        Comparison(
            "plugin", "pytest plugin, goto + one assertion (warm)", "argus_snapshot",
            med["argus_plugin"], "pytest-playwright-visual 2.1.2 assert_snapshot",
            med["pytest_playwright_visual"],
        ),
    ]  # fmt: skip


def gates_comparisons(report: Report) -> list[Comparison]:
    summary = report["summary"]
    return [
        Comparison(
            "gates", "all gates for one view (axe included)", "all gates",
            summary["gates_ms_median_with_axe"], "sensing that view (axe excluded)",
            summary["sense_ms_median_without_axe"], 0.75, 5,
        )
    ]  # fmt: skip


def sense_comparisons(report: Report) -> list[Comparison]:
    probe = report["probe"]
    return [
        Comparison(
            "sense", "probe added to the stable capture", "probe (with - without)",
            probe["added_ms"], "stable capture phase",
            probe["stable_capture_phase_ms"], 0.3, 3,
        )
    ]  # fmt: skip


def loop_comparisons(report: Report) -> list[Comparison]:
    summary = report["summary"]
    return [
        Comparison(
            "loop", "loop overhead per iteration", "loop overhead",
            summary["overhead_ms_median"], "sense + gates of that view",
            summary["sense_gates_ms_median"], 1.2, 7,
        )
    ]  # fmt: skip


def startup_comparisons(report: Report) -> list[Comparison]:
    """CPU time of each process; the absolute targets are ratios to their budget."""
    med = report["medians_ms"]
    budgets = report["budgets_ms"]
    return [
        Comparison(
            "startup", "`argus --version` as a process, CPU time", "`argus --version`",
            med["version"], f"budget {budgets['version']:g} ms", budgets["version"], 1.0, 17,
        ),
        Comparison(
            "startup", "`argus hook stop`, no open run, as a process, CPU time",
            "`argus hook stop`", med["hook_stop"], f"budget {budgets['hook_stop']:g} ms",
            budgets["hook_stop"], 1.0, 17,
        ),
        Comparison(
            "startup", "sparse 1440x900, `argus diff` file to count as a process, CPU time",
            "`argus diff` (process)", med["diff"], "odiff binary (process)", med["odiff"],
            report["diff_target"], 17,
        ),
        *_pairs_comparisons(report),
    ]  # fmt: skip


def _pairs_comparisons(report: Report) -> list[Comparison]:
    """Issue 28's rows: many pairs in one process against a process per pair. Reports from
    before they were measured have none."""
    med = report["medians_ms"]
    if "pairs_sparse" not in med:
        return []
    count = report["pairs"]
    return [
        Comparison(
            "startup", "byte-identical 1440x900 files, `argus diff` as a process, CPU time",
            "`argus diff` (process)", med["diff_same_bytes"], "odiff binary (process)",
            med["odiff_same_bytes"],
        ),
        *_same_pixels_comparisons(report),
        Comparison(
            "startup", f"sparse 1440x900, `argus diff --pairs` ({count} pairs, one process), "
            "CPU time per pair", "`argus diff --pairs`", med["pairs_sparse"],
            "odiff binary (a process per pair)", med["odiff"], report["pairs_target"], 28,
        ),
        Comparison(
            "startup", f"dense 1440x900, `argus diff --pairs` ({count} pairs, one process), "
            "CPU time per pair", "`argus diff --pairs`", med["pairs_dense"],
            "odiff binary (a process per pair)", med["odiff_dense"], report["pairs_target"], 28,
        ),
    ]  # fmt: skip


def _same_pixels_comparisons(report: Report) -> list[Comparison]:
    """The pixel twins' row (two files of the same pixels, other bytes); reports from before
    it was measured have none."""
    med = report["medians_ms"]
    if "diff_same_pixels" not in med:
        return []
    return [
        Comparison(
            "startup", "the same 1440x900 pixels in other bytes (zlib level 1), `argus diff` "
            "as a process, CPU time", "`argus diff` (process)", med["diff_same_pixels"],
            "odiff binary (process)", med["odiff_same_pixels"],
        ),
    ]  # fmt: skip


def huge_comparisons(report: Report) -> list[Comparison]:
    """Each row count sensed and gated against the issue's time budget for the largest page;
    the target also needs every gate to have run (none in error)."""
    budget_ms = report["target_s"] * 1000
    sizes = report["sizes"]
    largest = max(sizes, key=int)
    rows: list[Comparison] = []
    for count in sorted(sizes, key=int):
        size = sizes[count]
        errors = size["gates_in_error"]
        target = count == largest
        rows.append(
            Comparison(
                "huge",
                f"{int(count):,}-row page, sensed and gated",
                "sense + gates",
                size["total_s"] * 1000,
                f"budget {report['target_s']:g} s",
                budget_ms,
                1.0 if target else None,
                17 if target else None,
                f"gates in error: {', '.join(errors)}" if target and errors else None,
            )
        )
    return rows


def scaling_comparisons(report: Report) -> list[Comparison]:
    """Issue 28's throughput rows: the feature's wall time with more pages, and with more
    (simulated) machines, each against one; views per minute in the measure. None when the
    area ran without a browser."""
    part = report.get("throughput", {})
    if "pages" not in part:
        return []
    views = part["views"]
    pages, shards = part["pages"], part["shards"]
    rows = []
    for n in sorted(pages, key=int)[1:]:
        rows.append(
            Comparison(
                "scaling", f"{views}-view feature sensed, {n} pages at once: "
                f"{pages[n]['views_per_minute']:g} views/minute (1 page: "
                f"{pages['1']['views_per_minute']:g})", f"{n} pages",
                pages[n]["seconds"] * 1000, "1 page", pages["1"]["seconds"] * 1000,
            )
        )  # fmt: skip
    for n in sorted(shards, key=int)[1:]:
        rows.append(
            Comparison(
                "scaling", f"{views}-view feature, --shard across {n} machines (simulated, "
                f"merged): {shards[n]['views_per_minute']:g} views/minute (1 machine: "
                f"{shards['1']['views_per_minute']:g})", f"{n} machines",
                shards[n]["wall_seconds"] * 1000, "1 machine", shards["1"]["wall_seconds"] * 1000,
            )
        )  # fmt: skip
    return rows


EXTRACTORS: dict[str, Callable[[Report], list[Comparison]]] = {
    "diff": diff_comparisons,
    "view": view_comparisons,
    "plugin": plugin_comparisons,
    "sense": sense_comparisons,
    "gates": gates_comparisons,
    "loop": loop_comparisons,
    "startup": startup_comparisons,
    "scaling": scaling_comparisons,
    "huge": huge_comparisons,
}


def comparisons(area: str, report: Report) -> list[Comparison]:
    """The area's comparisons; KeyError when its report lacks a median this needs."""
    extract = EXTRACTORS.get(area)
    return extract(report) if extract is not None else []


def scaling_table(scaling: Report | None, diff: Report | None) -> dict[str, Any]:
    """Per size: Argus diff and sense times, pixelmatch beside them when the diff area ran."""
    table: dict[str, Any] = {"diff": {}, "sense": {}}
    node: dict[str, Mapping[str, float]] = {}
    if diff is not None:
        node = {row["pair"]: row["medians_ms"] for row in diff["pairs"]}
    for size, row in ((scaling or {}).get("diff", {}).get("sizes", {})).items():
        entry: dict[str, Any] = {
            "pixels": row["pixels"],
            "argus_sparse_ms": row["sparse_ms"],
            "argus_dense_ms": row["dense_ms"],
            "argus_dense_file_ms": row["dense_file_ms"],
            "time_vs_1440x900_dense": row.get("dense_ms_vs_1440x900"),
            "pixels_vs_1440x900": row.get("pixels_vs_1440x900"),
        }
        for kind in ("sparse", "dense"):
            peer = node.get(f"{kind}-{size}")
            if peer is not None:
                # Argus's columns stay this area's (one method across sizes, so growth reads
                # straight); the peer and the ratio are the diff area's pair, timed together.
                entry[f"diff_area_argus_{kind}_ms"] = peer["argus_count"]
                entry[f"diff_area_pixelmatch_{kind}_ms"] = peer["node_count"]
                entry[f"diff_area_ratio_{kind}"] = round(
                    peer["argus_count"] / peer["node_count"], 3
                )
        table["diff"][size] = entry
    for size, row in ((scaling or {}).get("sense", {}).get("sizes", {})).items():
        table["sense"][size] = {
            "render": row["render"],
            "pixels": row["pixels"],
            "sense_ms": row["sense_ms"],
            "capture_and_probe_ms": row["capture_and_probe_ms"],
            "time_vs_1440x900": row.get("sense_ms_vs_1440x900"),
            "pixels_vs_1440x900": row.get("pixels_vs_1440x900"),
        }
    return table


def throughput_table(scaling: Report | None) -> dict[str, Any]:
    """Views per minute of the 50-view feature by pages at once and by shard machines, from
    the scaling area (empty when it ran without a browser)."""
    part = (scaling or {}).get("throughput", {})
    if "pages" not in part:
        return {}
    return {
        "views": part["views"],
        "pages": {n: row["views_per_minute"] for n, row in part["pages"].items()},
        "shards": {n: row["views_per_minute"] for n, row in part["shards"].items()},
        "shard_speedup": {n: row["speedup"] for n, row in part["shards"].items()},
    }
