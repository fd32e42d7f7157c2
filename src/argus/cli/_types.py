"""Argument types several verbs share: finite numbers in a range, refused by argparse (exit 2).

fraction    0 <= x < 1      --tolerance
score       0 <= x <= 100   lighthouse --min-CATEGORY
pixels      x >= 0          layout lint --tolerance-gap, --tolerance-align
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
