"""The bench results as text: tables for the terminal and the short table in README.md."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

README_START = "<!-- bench:start -->"
README_END = "<!-- bench:end -->"


def _num(value: Any, digits: int = 1) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def _target(row: Mapping[str, Any]) -> str:
    if row["target"] is None:
        return "-"
    return f"<= {row['target']:g} (#{row['issue']}) {row['status']}"


def text_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True))]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows]
    return "\n".join(line.rstrip() for line in lines)


def _heading(results: Mapping[str, Any]) -> list[str]:
    machine, v = results["machine"], results["versions"]
    mode = "smoke" if results.get("smoke") else "quick" if results["quick"] else "full"
    return [
        f"Argus benchmarks ({mode} run, {results['generated_at']})",
        f"machine: {machine['cpus']} CPUs ({machine['cpu_model']}), "
        f"{machine['memory_gib']} GiB, {machine['platform']}; load average (1 min) "
        f"{machine.get('load_1min_before')} before, {machine.get('load_1min_after')} after",
        "versions: "
        + ", ".join(f"{name} {value}" for name, value in v.items() if value and name != "argus"),
    ]


def terminal(results: Mapping[str, Any]) -> str:
    out = _heading(results)
    rows = results["comparisons"]
    if rows:
        out += ["", "Side by side: medians of repeated runs; ratio = left / right (< 1: faster)"]
        out.append(
            text_table(
                ["area", "measure", "left", "ms", "right", "ms", "ratio", "target"],
                [
                    [
                        r["area"], r["measure"], r["subject"], _num(r["subject_ms"], 2),
                        r["baseline"], _num(r["baseline_ms"], 2), _num(r["ratio"], 2), _target(r),
                    ]
                    for r in rows
                ],
            )
        )  # fmt: skip
    scaling = results.get("scaling", {})
    if scaling.get("diff"):
        out += [
            "",
            "Scaling, diff: Argus in-process count (ms) by size; pixelmatch and the ratio are "
            "the diff area's pair, timed together",
        ]
        out.append(
            text_table(
                ["size", "pixels x", "sparse", "dense", "dense x", "dense file",
                 "pixelmatch dense", "ratio dense"],
                [
                    [
                        size, _num(r["pixels_vs_1440x900"], 2), _num(r["argus_sparse_ms"], 2),
                        _num(r["argus_dense_ms"], 2), _num(r["time_vs_1440x900_dense"], 2),
                        _num(r["argus_dense_file_ms"], 2),
                        _num(r.get("diff_area_pixelmatch_dense_ms"), 2),
                        _num(r.get("diff_area_ratio_dense"), 2),
                    ]
                    for size, r in scaling["diff"].items()
                ],
            )
        )  # fmt: skip
    if scaling.get("sense"):
        out += ["", "Scaling, sense: warm browser, ms; x = relative to 1440x900"]
        out.append(
            text_table(
                ["size", "render", "pixels x", "sense", "sense x", "capture + probe"],
                [
                    [size, "x".join(map(str, r["render"])), _num(r["pixels_vs_1440x900"], 2),
                     _num(r["sense_ms"]), _num(r["time_vs_1440x900"], 2),
                     _num(r["capture_and_probe_ms"])]
                    for size, r in scaling["sense"].items()
                ],
            )
        )  # fmt: skip
    throughput = results.get("throughput", {})
    if throughput.get("pages"):
        out += [
            "",
            f"Throughput: a {throughput['views']}-view feature, views per minute by pages at "
            "once (one process) and by --shard machines (simulated: shards one after another, "
            "slowest shard + merge)",
        ]
        out.append(
            text_table(
                ["n", "pages: views/minute", "machines: views/minute", "machines: speedup"],
                [
                    [n, _num(throughput["pages"].get(n)), _num(throughput["shards"].get(n)),
                     _num(throughput["shard_speedup"].get(n), 2)]
                    for n in sorted({*throughput["pages"], *throughput["shards"]}, key=int)
                ],
            )
        )  # fmt: skip
    notes = [
        f"{name}: {area['status']}" + (f" ({area['reason']})" if area.get("reason") else "")
        for name, area in results["areas"].items()
        if area["status"] != "ok"
    ]
    if notes:
        out += ["", "Not measured:", *(f"  {note}" for note in notes)]
    return "\n".join(out)


def readme_table(results: Mapping[str, Any]) -> str:
    """The short Markdown table that goes between the README markers."""
    machine = results["machine"]
    mode = "quick run" if results["quick"] else "full run"
    lines = [
        f"Measured by `make bench` ({mode}, {results['generated_at']}) on {machine['cpus']} CPUs "
        f"({machine['cpu_model']}; 1-minute load average {machine.get('load_1min_before')} at "
        f"the start, {machine.get('load_1min_after')} at the end). Ratio = the measure's "
        "median time over the median of what it is compared against, both from that run "
        "(Argus over the peer; for sense, gates and loop, one part of Argus over another); "
        "below 1 is faster. Details: [docs/bench.md](docs/bench.md), "
        "numbers: `bench/results/latest.json`.",
        *_kept(results),
        "",
        "| area | measure | against | ratio | target |",
        "| --- | --- | --- | --- | --- |",
    ]
    for r in results["comparisons"]:
        target = "-" if r["target"] is None else f"≤ {r['target']:g} ({r['status']})"
        if r.get("missed_because"):
            target = f"≤ {r['target']:g} (missed: {r['missed_because']})"
        lines.append(
            f"| {r['area']} | {r['measure']} | {r['baseline']} | {r['ratio']:.2f} | {target} |"
        )
    missing = [name for name, area in results["areas"].items() if area["status"] != "ok"]
    if missing:
        lines += ["", "Not measured in this run: " + ", ".join(missing) + "."]
    return "\n".join(lines)


def _kept(results: Mapping[str, Any]) -> list[str]:
    """The sentence for areas kept from an earlier run (``bench.run --merge``), if any."""
    groups = results.get("kept") or []
    lines = [
        f"Rows of {', '.join(group['areas'])} are from the run of {group.get('from')} (load "
        f"{(group.get('machine') or {}).get('load_1min_before')} to "
        f"{(group.get('machine') or {}).get('load_1min_after')})."
        for group in groups
    ]
    return ["", " ".join([*lines, "The others are from the run above."])] if lines else []


def replace_between_markers(
    text: str, body: str, markers: tuple[str, str] = (README_START, README_END)
) -> str | None:
    """``text`` with everything between the markers (default: the README's) replaced; None
    without markers."""
    opening, closing = markers
    start, end = text.find(opening), text.find(closing)
    if start < 0 or end < start:
        return None
    return text[: start + len(opening)] + "\n" + body + "\n" + text[end:]
