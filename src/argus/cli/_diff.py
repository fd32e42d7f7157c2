"""`argus diff A.png B.png`: the pixelmatch count of two PNG files, with density and regions;
`argus diff --pairs FILE|-`: many pairs in one process, one JSON line each.

Only the light modules load up front: two byte-identical files, two files whose image data
inflate to the same rows, and two in which few pixels differ are answered without numpy or
Pillow's image module (argus.diff.result.same_bytes, argus.diff.samepixels,
argus.diff.sparse), and the kernel loads when a pair needs it.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from argus.cli import one_line
from argus.cli._types import count, unit
from argus.diff.result import DEFAULT_WINDOW, DiffResult
from argus.errors import InputError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy takes it as True)
if TYPE_CHECKING:
    from typing import IO, Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "diff",
        help="count the pixels two PNG screenshots differ in (pixelmatch-compatible)",
        description="Compare two PNG images of the same size with a pixelmatch 7.2.0-compatible "
        "kernel and print the number of differing pixels. Exit 0 when none differ, 1 when "
        "some do, 2 on bad input (missing file, not a PNG, different sizes). With --pairs, "
        "compare many pairs in one process: one JSON object a line in, one JSON line a pair "
        "out, in order; exit 2 when any pair could not be compared, else 1 when any differs.",
    )
    parser.add_argument("a", type=Path, nargs="?", metavar="A.png", help="the expected image")
    parser.add_argument("b", type=Path, nargs="?", metavar="B.png", help="the actual image")
    parser.add_argument(
        "--pairs",
        metavar="FILE|-",
        help="compare the pairs listed in FILE (- for standard input), one JSON object a line: "
        '{"expected": "a.png", "actual": "b.png", "diff"?: "d.png", "threshold"?, '
        '"include_aa"?, "window"?}; the options below are the defaults',
    )
    parser.add_argument(
        "--threshold",
        type=unit,
        default=0.1,
        help="per-pixel colour threshold from 0 to 1, smaller is stricter (default 0.1)",
    )
    parser.add_argument(
        "--include-aa",
        action="store_true",
        help="count anti-aliased pixels as differences (default: detect and exclude them)",
    )
    parser.add_argument("--out", type=Path, metavar="DIFF.png", help="write the diff image here")
    parser.add_argument(
        "--window",
        type=count,
        default=DEFAULT_WINDOW,
        help=f"window size N for the density (default {DEFAULT_WINDOW})",
    )
    parser.add_argument(
        "--json", action="store_true", help="print count, density, regions, sizes and timings"
    )
    parser.set_defaults(func=run_diff)


def run_diff(args: argparse.Namespace) -> int:
    if args.pairs is not None:
        if args.a is not None or args.out is not None:
            raise InputError(
                "--pairs: give the images in the pairs file, not as A.png B.png or --out "
                '(a line\'s "diff" key names its diff image)'
            )
        return _run_pairs(args)
    if args.a is None or args.b is None:
        raise InputError("argus diff: give two images (A.png B.png) or --pairs FILE|-")
    return _run_one(args)


def _run_one(args: argparse.Namespace) -> int:
    from argus.diff.outpath import check_new_file

    if args.out is not None:
        check_new_file(args.out, "--out")
    result = _compare_one(args)
    if args.json:
        import json

        report = {"a": str(args.a), "b": str(args.b), **result.to_json()}
        if args.out is not None:
            report["diff_image"] = str(args.out)
        print(json.dumps(report, indent=2))
    else:
        print(
            f"{result.mismatch} pixels differ ({result.ratio:.4%} of "
            f"{result.width}x{result.height})"
        )
    return 0 if result.mismatch == 0 else 1


def _compare_one(args: argparse.Namespace) -> DiffResult:
    """The pair's result; without --out, byte-identical files, files proved to hold the
    same pixels (argus.diff.samepixels) and pairs in which few pixels differ
    (argus.diff.sparse) are answered before numpy and Pillow's image module load (most of
    what the kernel costs a process)."""
    from argus.diff.pngcheck import read_png_bytes

    started = time.perf_counter()
    first, second = read_png_bytes(args.a), read_png_bytes(args.b)
    read_ms = (time.perf_counter() - started) * 1000
    answer = None
    if args.out is None:  # --out draws the diff image: the kernel's arrays are needed
        answer = _answer_without_kernel(first, second, args)
    if answer is not None:
        answer.timings_ms["read"] = read_ms
        return answer
    with _loading():
        from argus.diff.comparison import compare_pngs
        from argus.diff.png import save_png

    result = compare_pngs(
        first,
        second,
        (args.a, args.b),
        check_same=False,  # answered above when they are
        threshold=args.threshold,
        include_aa=args.include_aa,
        window=args.window,
        diff_image=args.out is not None,
    )
    result.timings_ms["read"] = read_ms
    if args.out is not None and result.diff_image is not None:
        started = time.perf_counter()
        save_png(args.out, result.diff_image, compress_level=1)
        result.timings_ms["write"] = (time.perf_counter() - started) * 1000
    return result


def _answer_without_kernel(
    first: bytes, second: bytes, args: argparse.Namespace
) -> DiffResult | None:
    """The result of byte-identical files, of a plain RGB or RGBA pair of the same pixels
    or of few differing pixels (argus.diff.sparse, which inflates each file once for both
    answers), or of files of the same pixels in another format (argus.diff.samepixels)."""
    from argus.diff.result import same_bytes
    from argus.diff.samepixels import same_pixels
    from argus.diff.sparse import sparse_compare

    answer = same_bytes(first, second, args.a, args.window)
    if answer is None:
        answer = sparse_compare(
            first, second, threshold=args.threshold, include_aa=args.include_aa, window=args.window
        )
    return answer if answer is not None else same_pixels(first, second, args.window)


def _run_pairs(args: argparse.Namespace) -> int:
    import json

    with _loading():
        from argus._malloc import keep_freed_memory
        from argus.diff.pairs import PairDefaults, pair_records, read_lines, summary_exit_code

    keep_freed_memory()  # many pairs: reuse freed pages instead of faulting in new ones
    defaults = PairDefaults(args.threshold, args.include_aa, args.window)
    source = "stdin" if args.pairs == "-" else args.pairs
    codes: list[int] = []
    errors: list[str] = []
    with _open_pairs(args.pairs) as stream:
        for record in pair_records(read_lines(stream, source), defaults, source):
            codes.append(record["exit_code"])
            sys.stdout.write(json.dumps(record) + "\n")
            sys.stdout.flush()  # a reader sees each pair as it is done
            if "error" in record:
                errors.append(record["error"])
    # One line for a person, however many pairs failed: each failure is on its own record.
    if not codes:
        print(f"argus: {source}: no pairs; write one JSON object a line", file=sys.stderr)
    elif errors:
        print(
            f"argus: {len(errors)} of {len(codes)} pairs could not be compared (each has "
            f'"error" in its output line); the first: {one_line(errors[0])}',
            file=sys.stderr,
        )
    return summary_exit_code(codes)


@contextlib.contextmanager
def _loading() -> Iterator[None]:
    """Import the kernel's modules without the cyclic garbage collector, then freeze them.
    numpy, Pillow and (for ``--pairs``) pydantic make a few hundred thousand objects as they
    load, none of them garbage, and the collector's passes over them while they load were
    about a tenth of the command's CPU time (measured 2026-12-02: importing what ``--pairs``
    needs, 305 against 277 ms). Frozen (``gc.freeze``), later collections skip them."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


def _open_pairs(name: str) -> contextlib.AbstractContextManager[IO[bytes]]:
    """The pairs stream: standard input for ``-`` (left open), else the file (a FIFO or
    ``<(...)`` is fine; a missing or unreadable file or a directory is one line, exit 2)."""
    if name == "-":
        return contextlib.nullcontext(sys.stdin.buffer)
    path = Path(name)
    try:
        return path.open("rb")
    except FileNotFoundError as exc:
        raise InputError(f"--pairs {path}: file not found") from exc
    except IsADirectoryError as exc:
        raise InputError(f"--pairs {path}: is a directory; pass a file of pairs") from exc
    except OSError as exc:
        raise InputError(f"--pairs {path}: cannot read ({exc.strerror or exc})") from exc
