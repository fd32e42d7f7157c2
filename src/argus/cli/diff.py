"""`argus diff A.png B.png`: the pixelmatch count of two PNG files, with density and regions."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from argus.diff import compare_files, save_png
from argus.diff.compare import DEFAULT_WINDOW
from argus.errors import InputError


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "diff",
        help="count the pixels two PNG screenshots differ in (pixelmatch-compatible)",
        description="Compare two PNG images of the same size with a pixelmatch 7.2.0-compatible "
        "kernel and print the number of differing pixels. Exit 0 when none differ, 1 when "
        "some do, 2 on bad input (missing file, not a PNG, different sizes).",
    )
    parser.add_argument("a", type=Path, metavar="A.png", help="the expected image")
    parser.add_argument("b", type=Path, metavar="B.png", help="the actual image")
    parser.add_argument(
        "--threshold",
        type=float,
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
        type=int,
        default=DEFAULT_WINDOW,
        help=f"window size N for the density (default {DEFAULT_WINDOW})",
    )
    parser.add_argument(
        "--json", action="store_true", help="print count, density, regions, sizes and timings"
    )
    parser.set_defaults(func=run_diff)


def run_diff(args: argparse.Namespace) -> int:
    if args.window < 1:
        raise InputError(f"--window {args.window}: use a window of at least 1 pixel")
    if args.out is not None:
        _check_out(args.out)
    result = compare_files(
        args.a,
        args.b,
        threshold=args.threshold,
        include_aa=args.include_aa,
        window=args.window,
        diff_image=args.out is not None,
    )
    if args.out is not None and result.diff_image is not None:
        started = time.perf_counter()
        save_png(args.out, result.diff_image, compress_level=1)
        result.timings_ms["write"] = (time.perf_counter() - started) * 1000
    if args.json:
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


def _check_out(out: Path) -> None:
    """Refuse an --out that cannot be a new file before comparing (a typo in the directory
    must not create a tree of directories somewhere)."""
    if out.is_dir():
        raise InputError(f"--out {out}: is a directory; pass a file name such as diff.png")
    if not out.parent.is_dir():
        raise InputError(f"--out {out}: directory {out.parent} does not exist; create it first")
