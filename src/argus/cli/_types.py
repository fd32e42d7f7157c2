"""Argument types every verb uses for its numbers: a finite number or a whole number in a
range, refused by argparse (exit 2) as "'TEXT' is not NOUN" or "'TEXT' must be RANGE".

fraction    0 <= x < 1        --tolerance
unit        0 <= x <= 1       diff --threshold
score       0 <= x <= 100     lighthouse --min-CATEGORY
pixels      x >= 0            layout lint --tolerance-gap, --tolerance-align
seconds     x >= 0            assert --max-age
count       whole, >= 1       --limit, --workers, --max-iterations, --iteration, --window, ids
amount      whole, >= 0       layout lint --max-overrides
side        whole, 1..16384   design extract --width, --height (CSS pixels)
port        whole, 0..65535   ui --port
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable


def finite_number(
    accepts: Callable[[float], bool], must_be: str, *, noun: str = "a number"
) -> Callable[[str], float]:
    """An argparse ``type``: ``text`` read as a finite float that ``accepts``; otherwise
    "'TEXT' is not NOUN" or "'TEXT' must be MUST_BE"."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(f"{text!r} is not {noun}") from exc
        if not math.isfinite(value) or not accepts(value):
            raise argparse.ArgumentTypeError(f"{text!r} must be {must_be}")
        return value

    return parse


fraction = finite_number(lambda v: 0 <= v < 1, "a fraction in [0, 1)")
score = finite_number(lambda v: 0 <= v <= 100, "a score from 0 to 100")
pixels = finite_number(lambda v: v >= 0, "a finite number >= 0", noun="a number of pixels")


def whole_number(least: int, most: int | None, must_be: str) -> Callable[[str], int]:
    """An argparse ``type``: ``text`` read as a whole number from ``least`` to ``most``
    (``None``: no upper end); otherwise "'TEXT' is not a whole number" or "'TEXT' must be
    MUST_BE"."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from exc
        if value < least or (most is not None and value > most):
            raise argparse.ArgumentTypeError(f"{text!r} must be {must_be}")
        return value

    return parse


unit = finite_number(lambda v: 0 <= v <= 1, "a number from 0 to 1")
seconds = finite_number(lambda v: v >= 0, "0 or more seconds", noun="a number of seconds")
count = whole_number(1, None, "1 or more")
amount = whole_number(0, None, "0 or more")
side = whole_number(1, 16384, "from 1 to 16384 CSS pixels")
port = whole_number(0, 65535, "a port from 0 to 65535")
