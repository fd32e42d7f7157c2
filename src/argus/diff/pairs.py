"""Many image pairs compared in one process: ``argus diff --pairs FILE|-``.

The input is JSON Lines, one object a pair::

    {"expected": "base/home.png", "actual": "new/home.png", "diff": "out/home.png",
     "threshold": 0.05, "include_aa": false, "window": 16}

``expected`` and ``actual`` are required; ``diff`` (where to write the diff image) and the
options are not (the command line's options are the defaults). Paths are relative to the
working directory. Blank lines are skipped. Each pair gives one output record, in input order:
the ``argus diff --json`` report with the line number, the two paths and the pair's exit code
(0 same, 1 different), or ``{"line", "exit_code": 2, "error"}`` for a line that is not a pair
or a pair that cannot be compared. A bad pair never stops the others.

A line is validated by the pydantic model ``argus.diff._pairline.PairLine``. A line that is
plainly valid (only known keys, each value of the exact JSON type and in the range the model
takes) is read here without it, so a file of good pairs never loads pydantic: its import and
the model's build were about 120 ms of a ``--pairs`` process's CPU, 2.4 ms a pair at 50
pairs. Every other line goes to the model, which accepts it or says what is wrong.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, TypeGuard

from argus.diff.comparison import compare_files
from argus.diff.outpath import check_new_file
from argus.diff.png import save_png
from argus.diff.result import DEFAULT_WINDOW
from argus.errors import ArgusError, InputError
from argus.io import loads_json

# A pair's line holds two paths and a few options; anything longer is not a pair.
MAX_LINE_BYTES = 64 * 1024
EXAMPLE = '{"expected": "a.png", "actual": "b.png"}'


KEYS = ("expected", "actual", "diff", "threshold", "include_aa", "window")


@dataclass(frozen=True)
class Pair:
    """One line of a pairs file, validated: the two images, where to write the diff image,
    and the options the line sets (None: the command line's)."""

    expected: str
    actual: str
    diff: str | None = None
    threshold: float | None = None
    include_aa: bool | None = None
    window: int | None = None


@dataclass(frozen=True)
class PairDefaults:
    """The command line's options, used where a line gives none."""

    threshold: float = 0.1
    include_aa: bool = False
    window: int = DEFAULT_WINDOW


def read_lines(stream: IO[bytes], source: str) -> Iterator[tuple[int, bytes | str]]:
    """Each non-blank line with its number (from 1): its bytes, or an error message for a
    line over ``MAX_LINE_BYTES`` (the rest of it is skipped, never held in memory)."""
    number = 0
    while True:
        try:
            line = stream.readline(MAX_LINE_BYTES + 1)
        except OSError as exc:
            raise InputError(f"{source}: cannot read pairs ({exc.strerror or exc})") from exc
        if not line:
            return
        number += 1
        if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
            while line and not line.endswith(b"\n"):
                line = stream.readline(MAX_LINE_BYTES)
            yield number, f"over {MAX_LINE_BYTES // 1024} KiB; one pair a line"
            continue
        if line.strip():
            yield number, line


def parse_line(raw: bytes) -> Pair:
    """A pair from one line; a ValueError whose text says what is wrong with it."""
    try:
        data = loads_json(raw)
    except UnicodeDecodeError as exc:
        raise ValueError("not UTF-8 text") from exc
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON (column {exc.colno}: {exc.msg})") from exc
    except RecursionError as exc:
        raise ValueError("nested too deeply") from exc
    if not isinstance(data, dict):
        raise ValueError(f"not a JSON object; write one object a line, such as {EXAMPLE}")
    plain = plain_pair(data)
    if plain is not None:
        return plain
    from argus.diff._pairline import validated_pair

    return validated_pair(data)


def plain_pair(data: dict[str, Any]) -> Pair | None:
    """The pair of a plainly valid line, or None to let the model decide: only known keys,
    the paths non-empty strings, ``threshold`` a number from 0 to 1 (not a boolean),
    ``include_aa`` a boolean and ``window`` a whole number of at least 1 (each may be null
    or left out, ``diff`` too). Whatever this accepts, ``PairLine`` accepts as the same pair."""
    if not data.keys() <= set(KEYS):
        return None
    expected, actual, diff = data.get("expected"), data.get("actual"), data.get("diff")
    threshold, include_aa = data.get("threshold"), data.get("include_aa")
    window = data.get("window")
    if not (_path(expected) and _path(actual) and (diff is None or _path(diff))):
        return None
    if threshold is not None and not (_number(threshold) and 0 <= threshold <= 1):
        return None
    if include_aa is not None and not isinstance(include_aa, bool):
        return None
    if window is not None and not (_number(window) and isinstance(window, int) and window >= 1):
        return None
    return Pair(
        expected,
        actual,
        diff,
        None if threshold is None else float(threshold),
        include_aa,
        window,
    )


def _path(value: object) -> TypeGuard[str]:
    return isinstance(value, str) and value != ""


def _number(value: object) -> TypeGuard[int | float]:
    """An int or a float, not a boolean (which Python counts as an int)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def diff_pair(pair: Pair, defaults: PairDefaults) -> dict[str, Any]:
    """Compare one pair; its report (exit_code 0 or 1). ArgusError when it cannot be."""
    out = Path(pair.diff) if pair.diff is not None else None
    if out is not None:
        check_new_file(out, "diff")
    result = compare_files(
        Path(pair.expected),
        Path(pair.actual),
        threshold=defaults.threshold if pair.threshold is None else pair.threshold,
        include_aa=defaults.include_aa if pair.include_aa is None else pair.include_aa,
        window=defaults.window if pair.window is None else pair.window,
        diff_image=out is not None,
    )
    if out is not None and result.diff_image is not None:
        started = time.perf_counter()
        save_png(out, result.diff_image, compress_level=1)
        result.timings_ms["write"] = (time.perf_counter() - started) * 1000
    report = {
        "expected": pair.expected,
        "actual": pair.actual,
        "exit_code": 0 if result.mismatch == 0 else 1,
        **result.to_json(),
    }
    if out is not None:
        report["diff_image"] = str(out)
    return report


def pair_records(
    lines: Iterator[tuple[int, bytes | str]], defaults: PairDefaults, source: str
) -> Iterator[dict[str, Any]]:
    """One record per line, in order; a line that fails is a record with its error."""
    for number, raw in lines:
        where = f"{source} line {number}"
        if isinstance(raw, str):
            yield {"line": number, "exit_code": 2, "error": f"{where}: {raw}"}
            continue
        try:
            pair = parse_line(raw)
        except ValueError as exc:
            yield {"line": number, "exit_code": 2, "error": f"{where}: {exc}"}
            continue
        try:
            yield {"line": number, **diff_pair(pair, defaults)}
        except ArgusError as exc:
            yield {
                "line": number,
                "expected": pair.expected,
                "actual": pair.actual,
                "exit_code": 2,
                "error": f"{where}: {exc}",
            }


def summary_exit_code(codes: list[int]) -> int:
    """2 when any pair could not be compared (or there was none), else 1 when any differs."""
    if not codes or 2 in codes:
        return 2
    return 1 if 1 in codes else 0
