"""The shared argument types of ``argus.cli._types`` and the verbs that take them."""

from __future__ import annotations

import argparse
from collections.abc import Callable

import pytest

from argus.cli import main
from argus.cli._types import amount, count, fraction, pixels, port, score, seconds, side, unit


@pytest.mark.parametrize(
    ("parse", "text", "expected"),
    [
        (fraction, "0", 0.0),
        (fraction, "0.05", 0.05),
        (fraction, "1", "'1' must be a fraction in [0, 1)"),
        (fraction, "-0.1", "'-0.1' must be a fraction in [0, 1)"),
        (fraction, "nan", "'nan' must be a fraction in [0, 1)"),
        (fraction, "x", "'x' is not a number"),
        (score, "100", 100.0),
        (score, "0", 0.0),
        (score, "100.5", "'100.5' must be a score from 0 to 100"),
        (score, "inf", "'inf' must be a score from 0 to 100"),
        (score, "high", "'high' is not a number"),
        (pixels, "0", 0.0),
        (pixels, "12.5", 12.5),
        (pixels, "-1", "'-1' must be a finite number >= 0"),
        (pixels, "inf", "'inf' must be a finite number >= 0"),
        (pixels, "4px", "'4px' is not a number of pixels"),
        (unit, "1", 1.0),
        (unit, "0", 0.0),
        (unit, "1.01", "'1.01' must be a number from 0 to 1"),
        (unit, "-0.01", "'-0.01' must be a number from 0 to 1"),
        (seconds, "0", 0.0),
        (seconds, "-1", "'-1' must be 0 or more seconds"),
        (seconds, "nan", "'nan' must be 0 or more seconds"),
        (seconds, "10m", "'10m' is not a number of seconds"),
        (count, "1", 1),
        (count, "0", "'0' must be 1 or more"),
        (count, "1.5", "'1.5' is not a whole number"),
        (amount, "0", 0),
        (amount, "-1", "'-1' must be 0 or more"),
        (side, "1", 1),
        (side, "16384", 16384),
        (side, "0", "'0' must be from 1 to 16384 CSS pixels"),
        (side, "16385", "'16385' must be from 1 to 16384 CSS pixels"),
        (port, "0", 0),
        (port, "65535", 65535),
        (port, "65536", "'65536' must be a port from 0 to 65535"),
        (port, "-1", "'-1' must be a port from 0 to 65535"),
        (port, "http", "'http' is not a whole number"),
    ],
)
def test_each_type_accepts_its_range_and_names_what_is_wrong(
    parse: Callable[[str], float], text: str, expected: float | str
) -> None:
    if not isinstance(expected, str):
        value = parse(text)
        assert value == expected and type(value) is type(expected)
    else:
        with pytest.raises(argparse.ArgumentTypeError) as refused:
            parse(text)
        assert str(refused.value) == expected


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["design", "diff", "a.json", "b.json", "--tolerance", "1"],
            "must be a fraction in [0, 1)",
        ),
        (
            ["lighthouse", "--feature", "f", "--target", "t", "--min-accessibility", "101"],
            "must be a score from 0 to 100",
        ),
        (["layout", "lint", "page.json", "--tolerance-gap", "-2"], "must be a finite number >= 0"),
        (["layout", "lint", "page.json", "--max-overrides", "-1"], "'-1' must be 0 or more"),
        (["runs", "--limit", "0"], "argument --limit: '0' must be 1 or more"),
        (["diff", "a.png", "b.png", "--threshold", "1.5"], "'1.5' must be a number from 0 to 1"),
        (["diff", "a.png", "b.png", "--threshold", "nan"], "'nan' must be a number from 0 to 1"),
        (["diff", "a.png", "b.png", "--window", "0"], "argument --window: '0' must be 1 or more"),
        (["runs", "--limit", "ten"], "argument --limit: 'ten' is not a whole number"),
        (["sense", "--feature", "f", "--workers", "0"], "argument --workers: '0' must be 1"),
        (["ui", "--port", "65536"], "'65536' must be a port from 0 to 65535"),
        (["design", "extract", "--width", "0"], "argument --width: '0' must be from 1 to"),
        (["review", "outcome", "0", "agreed"], "argument ID: '0' must be 1 or more"),
        (["state", "init", "--max-iterations", "0"], "'0' must be 1 or more"),
        (["assert", "packet", "--max-age", "-5"], "'-5' must be 0 or more seconds"),
    ],
)
def test_the_verbs_refuse_out_of_range_numbers_with_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    # One line: what is wrong and where to read more, never argparse's usage block first.
    assert err.count("\n") == 1 and err.startswith("argus: ") and message in err
    assert err.rstrip().endswith("--help')")
