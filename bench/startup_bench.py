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
  the same pair (target: at most 3x odiff, issue 17).

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
from bench.images import sparse_pair
from bench.peers import DIFF_PEERS, ensure_peers, installed_version, odiff_binary

BUDGETS_MS = {"version": 60.0, "hook_stop": 100.0}
DIFF_TARGET = 3.0  # argus diff / odiff, CPU time of each process


def cpu_ms(cmd: list[str], cwd: Path, stdin: bytes = b"") -> float:
    """The CPU time (user + system, ms) of one run of ``cmd`` as a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, cwd=cwd, input=stdin, capture_output=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return used * 1000


def run(quick: bool = False) -> dict[str, Any]:
    """Measure every command; return the report (medians and minimums of CPU ms)."""
    odiff = odiff_binary(ensure_peers(DIFF_PEERS))
    repeat = 5 if quick else 15
    with tempfile.TemporaryDirectory(prefix="argus-bench-startup-") as tmp:
        workdir = Path(tmp)
        pair = sparse_pair(1440, 900)
        a, b = workdir / "a.png", workdir / "b.png"
        # Browser screenshots are opaque RGB PNGs at zlib's default level: save the same.
        Image.fromarray(pair.a[..., :3]).save(a)
        Image.fromarray(pair.b[..., :3]).save(b)
        event = json.dumps({"session_id": "bench", "cwd": str(workdir), "hook_event_name": "Stop"})
        argus = [sys.executable, "-m", "argus"]
        commands: dict[str, tuple[list[str], bytes]] = {
            "python": ([sys.executable, "-c", "pass"], b""),
            "version": ([*argus, "--version"], b""),
            "hook_stop": ([*argus, "hook", "stop"], event.encode("utf-8")),
            "diff": ([*argus, "diff", str(a), str(b), "--threshold", "0.1"], b""),
            "odiff": (
                [str(odiff), str(a), str(b), "--aa", "--threshold", "0.1", "--parsable-stdout"],
                b"",
            ),
        }
        samples: dict[str, list[float]] = {name: [] for name in commands}
        for cmd, stdin in commands.values():  # warm the file cache, untimed
            subprocess.run(cmd, cwd=workdir, input=stdin, capture_output=True, check=False)
        for _ in range(repeat):
            for name, (cmd, stdin) in commands.items():
                samples[name].append(cpu_ms(cmd, workdir, stdin))
    medians = {name: round(statistics.median(times), 3) for name, times in samples.items()}
    return {
        "benchmark": "startup",
        "quick": quick,
        "repeat": repeat,
        "clock": "CPU time (user + system) of each process",
        "machine": {
            "platform": platform.platform(),
            "python": sys.version.split()[0],
            "odiff": installed_version("odiff-bin"),
        },
        "budgets_ms": BUDGETS_MS,
        "diff_target": DIFF_TARGET,
        "medians_ms": medians,
        "min_ms": {name: round(min(times), 3) for name, times in samples.items()},
    }


def main(argv: list[str] | None = None) -> int:
    return area_main(run, __doc__.splitlines()[0], "5 runs of each command instead of 15", argv)


if __name__ == "__main__":
    raise SystemExit(main())
