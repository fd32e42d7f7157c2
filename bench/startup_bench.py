"""Start-up of the commands agents and hooks run many times, as processes, in CPU time.

Each command runs as a fresh process, one after another, rounds alternating the commands;
what is measured is the process's CPU time (user + system, from the children's resource
usage), not its wall time: on a shared, loaded machine the wall time mostly measures the
other jobs. Commands:

- ``python -c pass``: the interpreter alone, the floor under every Argus command;
- ``argus --version`` (target: at most 60 ms, issue 17);
- ``argus hook stop`` on a Stop event in a directory with no contract run, the common case
  (target: at most 100 ms, issue 17);
- ``argus diff A B`` on the sparse 1440x900 pair, file to count, against the odiff binary on
  the same pair (target: at most 3x odiff, issues 17 and 28), on two byte-identical files
  and on two files of the same pixels compressed at other zlib levels (Argus answers both
  without numpy or Pillow; no target);
- ``argus diff --pairs FILE`` over ``PAIRS`` copies of the sparse pair and of the dense pair
  (light against dark) in one process: its CPU time divided by the number of pairs, against
  one odiff process per pair on the same pair (target: at most 1.0x, issue 28).

``run(quick)`` returns the report; ``python -m bench.startup_bench [--quick] [--out PATH]``
prints it.
"""

from __future__ import annotations

import json
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from PIL import Image

from bench.area_cli import area_main
from bench.images import dense_pair, sparse_pair
from bench.peers import DIFF_PEERS, ensure_peers, installed_version, odiff_binary

BUDGETS_MS = {"version": 60.0, "hook_stop": 100.0}
DIFF_TARGET = 3.0  # argus diff / odiff, CPU time of each process
PAIRS_TARGET = 1.0  # argus diff --pairs per pair / one odiff process per pair
PAIRS = 50  # pairs in one --pairs run, quick or not: the measure is per pair at this count


def cpu_ms(cmd: list[str], cwd: Path, stdin: bytes = b"") -> float:
    """The CPU time (user + system, ms) of one run of ``cmd`` as a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, cwd=cwd, input=stdin, capture_output=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return used * 1000


def _odiff(odiff: Path, a: Path, b: Path) -> list[str]:
    return [str(odiff), str(a), str(b), "--aa", "--threshold", "0.1", "--parsable-stdout"]


def _pairs_file(path: Path, a: Path, b: Path, count: int) -> Path:
    line = json.dumps({"expected": str(a), "actual": str(b)}) + "\n"
    path.write_text(line * count)
    return path


def run(quick: bool = False) -> dict[str, Any]:
    """Measure every command; return the report (medians and minimums of CPU ms; the
    ``pairs_*`` entries are per pair)."""
    odiff = odiff_binary(ensure_peers(DIFF_PEERS))
    repeat = 5 if quick else 15
    pairs = PAIRS
    with tempfile.TemporaryDirectory(prefix="argus-bench-startup-") as tmp:
        workdir = Path(tmp)
        files: dict[str, tuple[Path, Path]] = {}
        for pair in (sparse_pair(1440, 900), dense_pair(1440, 900)):
            a, b = workdir / f"{pair.name}-a.png", workdir / f"{pair.name}-b.png"
            # Browser screenshots are opaque RGB PNGs at zlib's default level: save the same.
            Image.fromarray(pair.a[..., :3]).save(a)
            Image.fromarray(pair.b[..., :3]).save(b)
            files[pair.name] = (a, b)
        a, b = files["sparse"]
        copy = workdir / "sparse-a-copy.png"
        copy.write_bytes(a.read_bytes())
        # The same pixels, other bytes: what a re-encoded baseline of an unchanged page is.
        twin = workdir / "sparse-a-level1.png"
        Image.open(a).save(twin, compress_level=1)
        event = json.dumps({"session_id": "bench", "cwd": str(workdir), "hook_event_name": "Stop"})
        argus = [sys.executable, "-m", "argus"]
        commands: dict[str, tuple[list[str], bytes]] = {
            "python": ([sys.executable, "-c", "pass"], b""),
            "version": ([*argus, "--version"], b""),
            "hook_stop": ([*argus, "hook", "stop"], event.encode("utf-8")),
            "diff": ([*argus, "diff", str(a), str(b), "--threshold", "0.1"], b""),
            "odiff": (_odiff(odiff, a, b), b""),
            "diff_same_bytes": ([*argus, "diff", str(a), str(copy)], b""),
            "odiff_same_bytes": (_odiff(odiff, a, copy), b""),
            "diff_same_pixels": ([*argus, "diff", str(a), str(twin)], b""),
            "odiff_same_pixels": (_odiff(odiff, a, twin), b""),
            "odiff_dense": (_odiff(odiff, *files["dense"]), b""),
        }
        per_pair: dict[str, list[str]] = {}
        for name, (first, second) in files.items():
            listing = _pairs_file(workdir / f"{name}.jsonl", first, second, pairs)
            per_pair[f"pairs_{name}"] = [*argus, "diff", "--pairs", str(listing)]
        samples: dict[str, list[float]] = {name: [] for name in [*commands, *per_pair]}
        for cmd, stdin in commands.values():  # warm the file cache, untimed
            subprocess.run(cmd, cwd=workdir, input=stdin, capture_output=True, check=False)
        for _ in range(repeat):
            for name, (cmd, stdin) in commands.items():
                samples[name].append(cpu_ms(cmd, workdir, stdin))
            for name, cmd in per_pair.items():
                samples[name].append(cpu_ms(cmd, workdir) / pairs)
    medians = {name: round(statistics.median(times), 3) for name, times in samples.items()}
    return {
        "benchmark": "startup",
        "quick": quick,
        "repeat": repeat,
        "pairs": pairs,
        "clock": "CPU time (user + system) of each process; pairs_*: of one --pairs process "
        "over `pairs` pairs, divided by `pairs`",
        "machine": {
            "platform": platform.platform(),
            "python": sys.version.split()[0],
            "odiff": installed_version("odiff-bin"),
        },
        "budgets_ms": BUDGETS_MS,
        "diff_target": DIFF_TARGET,
        "pairs_target": PAIRS_TARGET,
        "medians_ms": medians,
        "min_ms": {name: round(min(times), 3) for name, times in samples.items()},
    }


def main(argv: list[str] | None = None) -> int:
    return area_main(run, __doc__.splitlines()[0], "5 runs of each command instead of 15", argv)


if __name__ == "__main__":
    raise SystemExit(main())
