"""A pairs line read without pydantic (``plain_pair``) is one the model accepts as the same
pair, and a file of good pairs never loads pydantic."""

from __future__ import annotations

import io
import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from argus.diff import save_png
from argus.diff._pairline import PairLine, validated_pair
from argus.diff.pairs import (
    KEYS,
    MAX_LINE_BYTES,
    Pair,
    PairDefaults,
    diff_pair,
    pair_records,
    parse_line,
    plain_pair,
    read_lines,
    summary_exit_code,
)
from argus.errors import InputError

from .conftest import page

VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=40),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, 1.0, 0.5, -0.0, 1e-9, 1.0000001]),
    st.text(max_size=3),
    st.lists(st.integers(), max_size=1),
)
LINES = st.dictionaries(st.sampled_from([*KEYS, "colour"]), VALUES, max_size=7)


def _same(a: Pair, b: Pair) -> bool:
    return all(
        type(x) is type(y)
        and (x == y or (isinstance(x, float) and math.isnan(x) and math.isnan(y)))
        for x, y in zip(vars(a).values(), vars(b).values(), strict=True)
    )


# a loaded machine (or mutmut's stats run) makes generation slow: that is no failure
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(LINES)
def test_what_plain_pair_accepts_the_model_accepts_the_same(data: dict[str, Any]) -> None:
    plain = plain_pair(data)
    if plain is None:
        return
    assert _same(plain, validated_pair(data)), (data, plain)


@pytest.mark.parametrize(
    "data",
    [
        {"expected": "a.png", "actual": "b.png"},
        {"expected": "a.png", "actual": "b.png", "diff": "d.png", "threshold": 0, "window": 3},
        {"expected": "a", "actual": "b", "threshold": 1, "include_aa": True, "diff": None},
        {"expected": "a", "actual": "b", "threshold": 0.05, "include_aa": False, "window": 1},
    ],
)
def test_good_lines_are_read_without_the_model(data: dict[str, Any]) -> None:
    plain = plain_pair(data)
    assert plain is not None and _same(plain, validated_pair(data))
    assert _same(parse_line(json.dumps(data).encode()), plain)


@pytest.mark.parametrize(
    "data",
    [
        {"expected": "a", "actual": "b", "colour": "red"},  # unknown key
        {"expected": "a"},  # missing
        {"expected": "", "actual": "b"},  # empty path
        {"expected": "a", "actual": "b", "threshold": True},  # a boolean is not a number
        {"expected": "a", "actual": "b", "threshold": "0.1"},  # the model reads it, lax
        {"expected": "a", "actual": "b", "threshold": 1.5},
        {"expected": "a", "actual": "b", "window": 2.0},
        {"expected": "a", "actual": "b", "window": True},
        {"expected": "a", "actual": "b", "include_aa": 1},
    ],
)
def test_other_lines_go_to_the_model(data: dict[str, Any]) -> None:
    assert plain_pair(data) is None
    try:
        model = PairLine.model_validate(data)
    except ValueError:
        with pytest.raises(ValueError):
            parse_line(json.dumps(data).encode())
        return
    assert parse_line(json.dumps(data).encode()).threshold == model.threshold


def test_a_file_of_good_pairs_never_loads_pydantic(tmp_path: Path) -> None:
    a, b = page(), page()
    b[3, 3, :3] = 0
    save_png(tmp_path / "a.png", a)
    save_png(tmp_path / "b.png", b)
    good = json.dumps({"expected": "a.png", "actual": "b.png", "threshold": 0.1})
    bad = json.dumps({"expected": "a.png", "actual": "b.png", "threshold": "0.1"})
    for lines, loads in (([good, good], False), ([good, bad], True)):
        (tmp_path / "pairs.jsonl").write_text("\n".join(lines) + "\n")
        done = subprocess.run(
            [sys.executable, "-X", "importtime", "-m", "argus", "diff", "--pairs", "pairs.jsonl"],
            cwd=tmp_path,
            env=os.environ,
            capture_output=True,
            text=True,
            check=False,
        )
        records = [json.loads(line) for line in done.stdout.splitlines()]
        assert [r["exit_code"] for r in records] == [1, 1], done.stderr
        modules = {
            line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines() if "|" in line
        }
        assert ("pydantic" in modules) is loads


MODEL_REFUSALS = [
    (
        {"expected": "a", "actual": "b", "colour": 1},
        "colour: unknown key (keys: expected, actual, diff, threshold, include_aa, window)",
    ),
    (
        {"expected": "a"},
        'actual: required key is missing; for example {"expected": "a.png", "actual": "b.png"}',
    ),
    ({"expected": 1, "actual": "b"}, "expected: Input should be a valid string (got 1)"),
    ({"expected": "a", "actual": ""}, "actual: String should have at least 1 character (got '')"),
    (
        {"expected": "a", "actual": "b", "diff": ""},
        "diff: String should have at least 1 character (got '')",
    ),
    (
        {"expected": "a", "actual": "b", "threshold": -0.1},
        "threshold: Input should be greater than or equal to 0 (got -0.1)",
    ),
    (
        {"expected": "a", "actual": "b", "threshold": 1.5},
        "threshold: Input should be less than or equal to 1 (got 1.5)",
    ),
    (
        {"expected": "a", "actual": "b", "window": "2"},
        "window: Input should be a valid integer (got '2')",
    ),
    (
        {"expected": "a", "actual": "b", "window": 0},
        "window: Input should be greater than or equal to 1 (got 0)",
    ),
    (
        {"expected": "a", "actual": "b", "include_aa": 1},
        "include_aa: Input should be a valid boolean (got 1)",
    ),
]


@pytest.mark.parametrize(("data", "message"), MODEL_REFUSALS)
def test_the_model_refuses_a_bad_line_with_one_exact_message(
    data: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError) as caught:
        validated_pair(data)
    assert str(caught.value) == message


def test_a_long_bad_value_is_shown_up_to_60_characters() -> None:
    start = "threshold: Input should be a valid number, unable to parse string as a number (got "
    fits = "x" * 58  # its repr is 60 characters: shown whole
    with pytest.raises(ValueError) as caught:
        validated_pair({"expected": "a", "actual": "b", "threshold": fits})
    assert str(caught.value) == f"{start}'{fits}')"
    over = "x" * 59  # 61: cut to 59 and an ellipsis
    with pytest.raises(ValueError) as caught:
        validated_pair({"expected": "a", "actual": "b", "threshold": over})
    assert str(caught.value) == f"{start}'{over[:58]}…)"


def test_the_model_reads_a_numeric_string_threshold_and_defaults_the_rest() -> None:
    pair = validated_pair({"expected": "a", "actual": "b", "threshold": "0.25"})
    assert pair == Pair("a", "b", None, 0.25, None, None)
    full = {"expected": "a", "actual": "b", "diff": "d", "threshold": 0, "include_aa": True}
    assert validated_pair({**full, "window": 2}) == Pair("a", "b", "d", 0.0, True, 2)


def test_a_read_line_cannot_be_changed() -> None:
    line = PairLine.model_validate({"expected": "a", "actual": "b"})
    with pytest.raises(ValueError, match="frozen"):
        line.expected = "c"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"\xff", "not UTF-8 text"),
        (b"{", "not valid JSON (column 2: Expecting property name enclosed in double quotes)"),
        (b"[" * 100_000, "nested too deeply"),
        (
            b"[1]",
            'not a JSON object; write one object a line, such as {"expected": "a.png", '
            '"actual": "b.png"}',
        ),
    ],
)
def test_a_line_that_is_not_an_object_is_refused_exactly(raw: bytes, message: str) -> None:
    with pytest.raises(ValueError) as caught:
        parse_line(raw)
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("data", "accepted"),
    [
        ({"expected": "a", "actual": "b", "threshold": 0}, True),
        ({"expected": "a", "actual": "b", "threshold": 1}, True),
        ({"expected": "a", "actual": "b", "threshold": -1e-9}, False),
        ({"expected": "a", "actual": "b", "threshold": 1.000001}, False),
        ({"expected": "a", "actual": "b", "window": 1}, True),
        ({"expected": "a", "actual": "b", "window": 0}, False),
        ({"expected": "a", "actual": "b", "window": 1.0}, False),
        ({"expected": "a", "actual": "b", "window": False}, False),
        ({"expected": "a", "actual": "b", "threshold": False}, False),
        ({"expected": "a", "actual": "b", "include_aa": 0}, False),
        ({"expected": "a", "actual": "b", "diff": ""}, False),
        ({"expected": "a", "actual": ""}, False),
        ({"expected": "", "actual": "b"}, False),
        ({"expected": "a", "actual": 1}, False),
        ({"actual": "b"}, False),
    ],
)
def test_plain_pair_takes_exactly_the_plainly_valid_lines(
    data: dict[str, Any], accepted: bool
) -> None:
    assert (plain_pair(data) is not None) is accepted


def test_a_plain_pair_keeps_every_field() -> None:
    data = {"expected": "a", "actual": "b", "diff": "d", "threshold": 1, "include_aa": False}
    pair = plain_pair({**data, "window": 7})
    assert pair == Pair("a", "b", "d", 1.0, False, 7)
    assert pair is not None and type(pair.threshold) is float
    assert plain_pair({"expected": "a", "actual": "b"}) == Pair("a", "b")


def _read(data: bytes) -> list[tuple[int, bytes | str]]:
    return list(read_lines(io.BytesIO(data), "p.jsonl"))


def test_read_lines_numbers_lines_skips_blank_ones_and_refuses_only_overlong_ones() -> None:
    assert _read(b"a\n\n  \nb") == [(1, b"a\n"), (4, b"b")]
    exact = b"x" * MAX_LINE_BYTES
    assert _read(exact) == [(1, exact)]
    assert _read(exact + b"\nz\n") == [(1, exact + b"\n"), (2, b"z\n")]
    over = "over 64 KiB; one pair a line"
    assert _read(exact + b"x") == [(1, over)]
    assert _read(b"y" * (3 * MAX_LINE_BYTES) + b"\nz\n") == [(1, over), (2, b"z\n")]


def test_a_stream_that_fails_is_one_input_error() -> None:
    class Broken(io.BytesIO):
        def readline(self, size: int | None = -1, /) -> bytes:
            raise OSError(5, "Input/output error")

    with pytest.raises(InputError) as caught:
        list(read_lines(Broken(), "p.jsonl"))
    assert str(caught.value) == "p.jsonl: cannot read pairs (Input/output error)"


def test_the_summary_exit_code() -> None:
    assert summary_exit_code([]) == 2
    assert summary_exit_code([0, 1, 2]) == 2
    assert summary_exit_code([0, 1]) == 1
    assert summary_exit_code([0, 0]) == 0


def test_only_a_line_over_the_cap_is_refused_and_its_rest_skipped() -> None:
    over = "over 64 KiB; one pair a line"
    assert _read(b"x" * (MAX_LINE_BYTES + 1) + b"\nz\n") == [(1, over), (2, b"z\n")]
    assert _read(b"x" * (MAX_LINE_BYTES + 5)) == [(1, over)]  # no newline at the end


def test_pair_records_give_each_failure_its_exact_record(tmp_path: Path) -> None:
    a = page()
    save_png(tmp_path / "a.png", a)
    lines = iter(
        [
            (1, "over 64 KiB; one pair a line"),
            (2, json.dumps({"expected": str(tmp_path / "a.png"), "actual": "nope.png"}).encode()),
        ]
    )
    first, second = pair_records(lines, PairDefaults(), "p.jsonl")
    assert first == {
        "line": 1,
        "exit_code": 2,
        "error": "p.jsonl line 1: over 64 KiB; one pair a line",
    }
    assert {k: second[k] for k in ("line", "expected", "actual", "exit_code")} == {
        "line": 2,
        "expected": str(tmp_path / "a.png"),
        "actual": "nope.png",
        "exit_code": 2,
    }


def test_a_written_diff_image_is_timed_as_write(tmp_path: Path) -> None:
    a, b = page(), page()
    b[3, 3, :3] = 0
    save_png(tmp_path / "a.png", a)
    save_png(tmp_path / "b.png", b)
    pair = Pair(str(tmp_path / "a.png"), str(tmp_path / "b.png"), str(tmp_path / "d.png"))
    report = diff_pair(pair, PairDefaults())
    assert report["exit_code"] == 1 and report["diff_image"] == str(tmp_path / "d.png")
    assert 0 <= report["timings_ms"]["write"] < 600_000


def test_a_diff_path_in_a_missing_directory_is_named_as_the_diff(tmp_path: Path) -> None:
    save_png(tmp_path / "a.png", page())
    out = tmp_path / "no" / "d.png"
    pair = Pair(str(tmp_path / "a.png"), str(tmp_path / "a.png"), str(out))
    with pytest.raises(InputError) as caught:
        diff_pair(pair, PairDefaults())
    assert str(caught.value) == (
        f"diff {out}: directory {out.parent} does not exist; create it first"
    )


def test_a_line_s_include_aa_overrides_the_command_line_s(tmp_path: Path) -> None:
    # A black half and a white half; the second image greys one pixel of the white edge: an
    # anti-aliased pixel, left out of the count unless include_aa counts it.
    a = np.full((16, 16, 4), 255, np.uint8)
    a[:, :8, :3] = 0
    b = a.copy()
    b[8, 8, :3] = 128
    save_png(tmp_path / "a.png", a)
    save_png(tmp_path / "b.png", b)
    paths = (str(tmp_path / "a.png"), str(tmp_path / "b.png"))
    counted, ignored = PairDefaults(include_aa=True), PairDefaults(include_aa=False)
    for line, defaults, mismatch in [
        (None, ignored, 0),
        (None, counted, 1),
        (True, ignored, 1),
        (False, counted, 0),
    ]:
        report = diff_pair(Pair(*paths, include_aa=line), defaults)
        assert (report["mismatch"], report["exit_code"]) == (mismatch, mismatch), (line, defaults)
