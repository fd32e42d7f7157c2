"""`argus diff`: exit 0 same, 1 different, 2 bad input with one line naming the file."""

from __future__ import annotations

import json
from pathlib import Path

from argus.diff import load_png, save_png

from ..conftest import RunArgus
from .conftest import FIXTURES, page


def pair(tmp_path: Path, change: bool) -> tuple[Path, Path]:
    a = page()
    b = a.copy()
    if change:
        b[40:44, 40:48, :3] = 0
    save_png(tmp_path / "a.png", a)
    save_png(tmp_path / "b.png", b)
    return tmp_path / "a.png", tmp_path / "b.png"


def test_same_images_exit_0(tmp_path: Path, run_argus: RunArgus) -> None:
    a, b = pair(tmp_path, change=False)
    proc = run_argus("diff", str(a), str(b))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("0 pixels differ")


def test_different_images_exit_1_and_write_the_diff(tmp_path: Path, run_argus: RunArgus) -> None:
    a, b = pair(tmp_path, change=True)
    out = tmp_path / "diff.png"
    proc = run_argus("diff", str(a), str(b), "--out", str(out))
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.startswith("32 pixels differ")
    assert load_png(out)[41, 41].tolist() == [255, 0, 0, 255]


def test_json_report(tmp_path: Path, run_argus: RunArgus) -> None:
    a, b = pair(tmp_path, change=True)
    proc = run_argus("diff", str(a), str(b), "--json", "--window", "4")
    assert proc.returncode == 1, proc.stderr
    report = json.loads(proc.stdout)
    assert report["mismatch"] == 32 and (report["width"], report["height"]) == (64, 48)
    assert report["density"] == 16 and report["window"] == 4
    assert report["regions"] == [{"x": 40, "y": 40, "width": 8, "height": 4, "pixels": 32}]
    assert {"decode", "diff", "analysis"} <= set(report["timings_ms"])


def test_conformance_fixture_with_threshold(run_argus: RunArgus) -> None:
    proc = run_argus(
        "diff", str(FIXTURES / "1a.png"), str(FIXTURES / "1b.png"), "--threshold", "0.05"
    )
    assert proc.returncode == 1 and proc.stdout.startswith("143 pixels differ")
    proc = run_argus(
        "diff",
        str(FIXTURES / "1a.png"),
        str(FIXTURES / "1b.png"),
        "--threshold",
        "0.05",
        "--include-aa",
    )
    assert proc.returncode == 1 and not proc.stdout.startswith("143 ")


def test_bad_inputs_exit_2_with_one_line(tmp_path: Path, run_argus: RunArgus) -> None:
    a, _ = pair(tmp_path, change=False)
    save_png(tmp_path / "small.png", page(32, 48))
    (tmp_path / "notes.txt").write_text("hello")
    cases = {
        "missing": ([str(a), str(tmp_path / "nope.png")], "nope.png: PNG image not found"),
        "not png": ([str(a), str(tmp_path / "notes.txt")], "notes.txt: not a PNG image"),
        "sizes": ([str(a), str(tmp_path / "small.png")], "a.png is 64x48,"),
        "threshold": ([str(a), str(a), "--threshold", "2"], "--threshold: '2' must be a number"),
    }
    for name, (args, message) in cases.items():
        proc = run_argus("diff", *args)
        assert proc.returncode == 2, name
        assert proc.stderr.startswith("argus: ") and message in proc.stderr, (name, proc.stderr)
        assert len(proc.stderr.strip().splitlines()) == 1, name
        assert proc.stdout == "", name


def test_out_that_cannot_be_written_is_one_line(tmp_path: Path, run_argus: RunArgus) -> None:
    a, _ = pair(tmp_path, change=False)
    existing_dir = tmp_path / "taken"
    existing_dir.mkdir()
    missing_parent = tmp_path / "nonexist" / "dir" / "x.png"
    for out, needle in (
        (existing_dir, "is a directory"),
        (Path("/proc/argus-x.png"), "cannot write /proc/argus-x.png"),
        (missing_parent, "does not exist"),
    ):
        proc = run_argus("diff", str(a), str(a), "--out", str(out))
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.startswith("argus: ") and needle in proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "nonexist").exists()  # a typo never creates directories


def test_special_files_are_refused(tmp_path: Path, run_argus: RunArgus) -> None:
    import os

    a, _ = pair(tmp_path, change=False)
    fifo = tmp_path / "pipe.png"
    os.mkfifo(fifo)
    for other in (fifo, Path("/dev/zero")):
        proc = run_argus("diff", str(a), str(other))
        assert proc.returncode == 2 and "not a regular file" in proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1


# Runs `argus diff` in a fresh interpreter and says, for every collection the cyclic garbage
# collector started, whether it fell while the kernel's modules were loading (numpy imported,
# nothing frozen yet); then whether the collector is on and how many objects were frozen.
_WATCH_COLLECTIONS = """
import gc, sys
from argus.cli import main
during = []
gc.callbacks.append(
    lambda phase, info: phase == "start"
    and during.append("numpy" in sys.modules and gc.get_freeze_count() == 0)
)
code = main(sys.argv[1:])
print(any(during), gc.isenabled(), gc.get_freeze_count())
"""


def test_the_kernel_loads_without_collections_and_stays_frozen(tmp_path: Path) -> None:
    """numpy and Pillow load with the collector off (its passes over their objects were a
    tenth of the command's CPU), are then frozen out of later collections, and the collector
    is on again for the comparison."""
    import subprocess
    import sys

    a, b = pair(tmp_path, change=True)
    listing = tmp_path / "pairs.jsonl"
    listing.write_text(json.dumps({"expected": str(a), "actual": str(b)}) + "\n")
    # --out: the kernel runs (a small change is otherwise answered without it, test_sparse).
    kernel = ["diff", str(a), str(b), "--out", str(tmp_path / "d.png")]
    for args in (kernel, ["diff", "--pairs", str(listing)]):
        proc = subprocess.run(
            [sys.executable, "-c", _WATCH_COLLECTIONS, *args],
            capture_output=True,
            text=True,
            check=False,
        )
        collected_while_loading, enabled, frozen = proc.stdout.split()[-3:]
        assert (collected_while_loading, enabled) == ("False", "True"), proc.stderr
        assert int(frozen) > 10_000  # numpy's and Pillow's objects
