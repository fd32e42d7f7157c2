"""The shared argument types of ``argus.cli._types`` and the verbs that take them."""

from __future__ import annotations

import argparse
from collections.abc import Callable

import pytest

from argus.cli import main
from argus.cli._types import fraction, pixels, score


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
    ],
)
def test_each_type_accepts_its_range_and_names_what_is_wrong(
    parse: Callable[[str], float], text: str, expected: float | str
) -> None:
    if isinstance(expected, float):
        assert parse(text) == expected
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
    ],
)
def test_the_verbs_refuse_out_of_range_numbers_with_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    assert message in capsys.readouterr().err
