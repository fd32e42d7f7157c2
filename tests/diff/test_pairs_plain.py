"""A pairs line read without pydantic (``plain_pair``) is one the model accepts as the same
pair, and a file of good pairs never loads pydantic."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from argus.diff import save_png
from argus.diff._pairline import PairLine, validated_pair
from argus.diff.pairs import KEYS, Pair, parse_line, plain_pair

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


@settings(max_examples=400, deadline=None)
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
