"""The diff kernel against its peers, side by side in one run, as ratios of medians.

1. In-process on decoded arrays: Argus ``pixelmatch`` against pixelmatch 7.2.0 in Node
   (pngjs decodes once; only the pixelmatch call is timed), count only and with a diff image.
2. File to count, PNG decode included: Argus (decode + kernel, in-process: no process start)
   against the odiff binary (a process per comparison, ``--aa`` so it also skips
   anti-aliasing).
3. Command to command, no target: ``argus diff A B`` as a process (Python start-up and imports
   included) against the same odiff process, for a like-for-like figure.

Pairs: a sparse pair (one list row edited) and a dense pair (light against dark page) of
UI-like pages at 1440x900, saved as opaque RGB PNGs as browsers write screenshots; the
pixelmatch conformance fixtures; the sparse and dense pairs at 1280x720 and 3840x2160 for
scaling. Rounds alternate the tools so that drift on a shared machine hits both.
``run(quick)`` returns the report; ``python -m bench.diff_bench [--quick] [--out PATH]``
prints it.
"""

from __future__ import annotations

import json
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import PIL
from PIL import Image

from argus.diff import load_png, load_png_pair, pixelmatch
from bench.area_cli import area_main
from bench.images import dense_pair, sparse_pair
from bench.peers import DIFF_PEERS, ensure_peers, installed_version, node_version, odiff_binary

HERE = Path(__file__).resolve().parent
NODE_SCRIPT = HERE / "pixelmatch_node.mjs"
CONFORMANCE = HERE.parent / "tests" / "diff" / "fixtures" / "pixelmatch-7.2.0"
SIZES = {"720p": (1280, 720), "1440x900": (1440, 900), "4k": (3840, 2160)}
TARGETS = {"in_process_sparse": 1.0, "in_process_dense": 1.5, "file_to_count": 1.0}
OPTION_NAMES = {
    "includeAA": "include_aa",
    "aaColor": "aa_color",
    "diffColor": "diff_color",
    "diffColorAlt": "diff_color_alt",
    "diffMask": "diff_mask",
}


def _median(times: list[float]) -> float:
    return round(statistics.median(times), 3)


def _time(fn: Callable[[], object], repeat: int) -> list[float]:
    fn()  # warm-up
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return times


def _node_batch(jobs: list[dict[str, Any]], peers: Path, workdir: Path) -> list[dict[str, Any]]:
    jobs_file = workdir / "jobs.json"
    jobs_file.write_text(json.dumps(jobs))
    proc = subprocess.run(
        ["node", str(NODE_SCRIPT), str(peers), str(jobs_file)],
        capture_output=True,
        text=True,
        check=True,
    )
    results: list[dict[str, Any]] = json.loads(proc.stdout)
    return results


def _pairs(quick: bool, workdir: Path) -> list[dict[str, Any]]:
    """Every compared pair: name, group, PNG paths, pixelmatch options."""
    pairs = []
    sizes = {"1440x900": SIZES["1440x900"]} if quick else SIZES
    for size_name, (w, h) in sizes.items():
        for make in (sparse_pair, dense_pair):
            pair = make(w, h)
            a, b = (
                workdir / f"{pair.name}-{size_name}-a.png",
                workdir / f"{pair.name}-{size_name}-b.png",
            )
            # Browser screenshots are opaque RGB PNGs at zlib's default level: save the same.
            Image.fromarray(pair.a[..., :3]).save(a)
            Image.fromarray(pair.b[..., :3]).save(b)
            group = "headline" if size_name == "1440x900" else "scaling"
            pairs.append(
                {
                    "name": f"{pair.name}-{size_name}",
                    "group": group,
                    "kind": pair.name,
                    "a": a,
                    "b": b,
                    "options": {},
                }
            )
    cases = json.loads((CONFORMANCE / "cases.json").read_text())["cases"]
    for case in cases:
        if case.get("pixels"):
            continue
        pairs.append(
            {
                "name": f"fixture-{case['a']}-{case['b']}-{json.dumps(case['options'])}",
                "group": "conformance",
                "kind": "fixture",
                "a": CONFORMANCE / case["a"],
                "b": CONFORMANCE / case["b"],
                "options": case["options"],
                "expected": case["expected_mismatch"],
            }
        )
    return pairs


def _count_files(a: Path, b: Path, options: dict[str, Any]) -> int:
    """Decode both files, then count: what a file-to-count comparison costs."""
    return pixelmatch(*load_png_pair(a, b), **options)


def _argus_options(options: dict[str, Any]) -> dict[str, Any]:
    return {OPTION_NAMES.get(k, k): v for k, v in options.items()}


def _repeat_for(pair: dict[str, Any], quick: bool) -> int:
    if pair["group"] == "conformance":
        return 3 if quick else 10
    if pair["name"].endswith("4k"):
        return 5
    return 5 if quick else 15


def run(quick: bool = False) -> dict[str, Any]:
    """Measure everything; return the report (machine, versions, medians, ratios)."""
    peers = ensure_peers(DIFF_PEERS)
    odiff = odiff_binary(peers)
    rounds = 1 if quick else 3
    with tempfile.TemporaryDirectory(prefix="argus-bench-") as tmp:
        workdir = Path(tmp)
        pairs = _pairs(quick, workdir)
        arrays = {p["name"]: (load_png(p["a"]), load_png(p["b"])) for p in pairs}
        samples: dict[str, dict[str, list[float]]] = {p["name"]: {} for p in pairs}
        counts: dict[str, dict[str, int]] = {p["name"]: {} for p in pairs}

        def add(name: str, key: str, times: list[float]) -> None:
            samples[name].setdefault(key, []).extend(times)

        for _ in range(rounds):
            jobs = []
            for p in pairs:
                for output in (False, True):
                    jobs.append(
                        {
                            "a": str(p["a"]),
                            "b": str(p["b"]),
                            "options": p["options"],
                            "repeat": _repeat_for(p, quick),
                            "output": output,
                        }
                    )
            node = iter(_node_batch(jobs, peers, workdir))
            for p in pairs:
                for key in ("node_count", "node_with_diff"):
                    got = next(node)
                    add(p["name"], key, got["times_ms"])
                    counts[p["name"]]["pixelmatch_node"] = got["mismatch"]
                a, b = arrays[p["name"]]
                opts = _argus_options(p["options"])
                repeat = _repeat_for(p, quick)
                out = np.zeros_like(a)
                counts[p["name"]]["argus"] = pixelmatch(a, b, **opts)
                add(
                    p["name"],
                    "argus_count",
                    _time(partial(pixelmatch, a, b, **opts), repeat),
                )
                add(
                    p["name"],
                    "argus_with_diff",
                    _time(partial(pixelmatch, a, b, out, **opts), repeat),
                )
                if p["group"] == "conformance":
                    continue
                # File to count: decode included on both sides.
                threshold = str(p["options"].get("threshold", 0.1))
                cmd = [
                    str(odiff),
                    str(p["a"]),
                    str(p["b"]),
                    "--aa",
                    "--threshold",
                    threshold,
                    "--parsable-stdout",
                ]
                proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
                counts[p["name"]]["odiff"] = int(proc.stdout.split(";")[0] or 0)
                add(
                    p["name"],
                    "odiff_file",
                    _time(partial(subprocess.run, cmd, capture_output=True, check=False), repeat),
                )
                argus_cmd = [sys.executable, "-m", "argus", "diff", str(p["a"]), str(p["b"])]
                argus_cmd += ["--threshold", threshold]
                add(
                    p["name"],
                    "argus_command",
                    _time(
                        partial(subprocess.run, argus_cmd, capture_output=True, check=False),
                        max(1, repeat // 3),  # a process start each: fewer repeats suffice
                    ),
                )
                add(
                    p["name"],
                    "argus_file",
                    _time(partial(_count_files, p["a"], p["b"], opts), repeat),
                )
        return _report(pairs, samples, counts, quick, rounds)


def _report(
    pairs: list[dict[str, Any]],
    samples: dict[str, dict[str, list[float]]],
    counts: dict[str, dict[str, int]],
    quick: bool,
    rounds: int,
) -> dict[str, Any]:
    rows = []
    for p in pairs:
        med = {key: _median(times) for key, times in samples[p["name"]].items()}
        row: dict[str, Any] = {
            "pair": p["name"],
            "group": p["group"],
            "medians_ms": med,
            # The fastest run of each: less sensitive to a busy machine than the median.
            "min_ms": {key: round(min(times), 3) for key, times in samples[p["name"]].items()},
            "counts": counts[p["name"]],
            "same_count_as_pixelmatch": counts[p["name"]]["argus"]
            == counts[p["name"]]["pixelmatch_node"],
        }
        ratios = {
            "in_process_count": med["argus_count"] / med["node_count"],
            "in_process_with_diff": med["argus_with_diff"] / med["node_with_diff"],
        }
        if "odiff_file" in med:
            ratios["file_to_count_vs_odiff"] = med["argus_file"] / med["odiff_file"]
        if "argus_command" in med and "odiff_file" in med:
            ratios["command_vs_odiff_command"] = med["argus_command"] / med["odiff_file"]
        row["ratios"] = {k: round(v, 3) for k, v in ratios.items()}
        rows.append(row)
    by_name = {r["pair"]: r for r in rows}
    fixtures = [r for r in rows if r["group"] == "conformance"]
    summary = {
        "sparse_1440x900_in_process": by_name["sparse-1440x900"]["ratios"]["in_process_count"],
        "dense_1440x900_in_process": by_name["dense-1440x900"]["ratios"]["in_process_count"],
        "sparse_1440x900_file_vs_odiff": by_name["sparse-1440x900"]["ratios"][
            "file_to_count_vs_odiff"
        ],
        "dense_1440x900_file_vs_odiff": by_name["dense-1440x900"]["ratios"][
            "file_to_count_vs_odiff"
        ],
        "conformance_in_process_total": round(
            sum(r["medians_ms"]["argus_count"] for r in fixtures)
            / sum(r["medians_ms"]["node_count"] for r in fixtures),
            3,
        ),
        "all_counts_match_pixelmatch": all(r["same_count_as_pixelmatch"] for r in rows),
    }
    checks = {
        "sparse_in_process": summary["sparse_1440x900_in_process"] <= TARGETS["in_process_sparse"],
        "dense_in_process": summary["dense_1440x900_in_process"] <= TARGETS["in_process_dense"],
        "file_to_count": max(
            summary["sparse_1440x900_file_vs_odiff"], summary["dense_1440x900_file_vs_odiff"]
        )
        <= TARGETS["file_to_count"],
    }
    return {
        "benchmark": "diff",
        "quick": quick,
        "rounds": rounds,
        "machine": {
            "platform": platform.platform(),
            "cpus": __import__("os").cpu_count(),
            "python": sys.version.split()[0],
            "numpy": np.__version__,
            "pillow": PIL.__version__,
            "node": node_version(),
            "pixelmatch": installed_version("pixelmatch"),
            "odiff": installed_version("odiff-bin"),
            "pngjs": installed_version("pngjs"),
        },
        "targets": TARGETS,
        "summary": summary,
        "meets_targets": checks,
        "pairs": rows,
    }


def main(argv: list[str] | None = None) -> int:
    return area_main(run, __doc__.splitlines()[0], "fewer sizes and repeats", argv)


if __name__ == "__main__":
    raise SystemExit(main())
