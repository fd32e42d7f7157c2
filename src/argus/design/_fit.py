"""Fits over values measured from computed styles: pure functions, each with a stated tolerance.

- ``fit_base_unit``: the largest candidate unit (16, 12, 10, 8, 6, 5, 4, 3, 2 px) that explains
  at least 90% of the spacing values (paddings, margins, gaps), each within 0.5 px of a
  multiple of it; None when no candidate does.
- ``fit_ratio``: the modular ratio r in [1.067, 2.0] for which every font size s is within 2%
  of ``base * r**k`` for an integer k. The largest such r is found on a 0.001 grid, the
  exponents it assigns are kept, and r is refined by least squares over the logarithms
  (so exact sizes give the exact ratio). A fit must use at least half the steps between the
  smallest and largest size: a tiny ratio that "explains" unrelated sizes by skipping most of
  its steps is no fit. Fewer than three distinct sizes, or no r, is None.
- ``order_shadows``: the shadow ramp, ordered by blur radius then vertical offset.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

BASE_UNITS = (16.0, 12.0, 10.0, 8.0, 6.0, 5.0, 4.0, 3.0, 2.0)
UNIT_TOLERANCE_PX = 0.5
UNIT_SHARE = 0.9
RATIO_TOLERANCE = 0.02
RATIO_RANGE = (1.067, 2.0)
MIN_SIZES = 3
STEP_USE = 0.5  # at least half the steps between the smallest and largest size are used


@dataclass(frozen=True)
class UnitFit:
    base_unit: float | None
    scale: tuple[float, ...]  # the distinct values, sorted (all of them when no unit fits)
    share: float  # fraction of the values the unit explains


@dataclass(frozen=True)
class RatioFit:
    ratio: float | None
    sizes: tuple[float, ...]
    worst_error: float | None  # the largest relative error of a size against the fit


def _fits(value: float, unit: float) -> bool:
    return abs(value - unit * round(value / unit)) <= UNIT_TOLERANCE_PX


def fit_base_unit(values: Iterable[float]) -> UnitFit:
    counted = Counter(round(v, 2) for v in values if v > UNIT_TOLERANCE_PX)
    total = sum(counted.values())
    distinct = tuple(sorted(counted))
    if not total:
        return UnitFit(None, distinct, 0.0)
    for unit in BASE_UNITS:
        explained = sum(n for v, n in counted.items() if _fits(v, unit))
        if explained / total >= UNIT_SHARE:
            scale = tuple(v for v in distinct if _fits(v, unit))
            return UnitFit(unit, scale, explained / total)
    return UnitFit(None, distinct, 0.0)


def _exponents(sizes: Sequence[float], base: float, ratio: float) -> list[int] | None:
    steps = []
    for size in sizes:
        k = round(math.log(size / base) / math.log(ratio))
        if abs(size - base * ratio**k) / size > RATIO_TOLERANCE:
            return None
        steps.append(k)
    return steps


def fit_ratio(sizes: Iterable[float], base: float) -> RatioFit:
    distinct = tuple(sorted({round(s, 2) for s in sizes if s > 0}))
    if len(distinct) < MIN_SIZES or base <= 0:
        return RatioFit(None, distinct, None)
    low, high = RATIO_RANGE
    for step in range(round((high - low) * 1000), -1, -1):
        ratio = low + step / 1000
        ks = _exponents(distinct, base, ratio)
        if ks is None or not any(ks) or len(set(ks)) < STEP_USE * (max(ks) - min(ks) + 1):
            continue
        logs = [math.log(s / base) for s in distinct]
        refined = math.exp(
            sum(k * y for k, y in zip(ks, logs, strict=True)) / sum(k * k for k in ks)
        )
        worst = max(abs(s - base * refined**k) / s for s, k in zip(distinct, ks, strict=True))
        if worst > RATIO_TOLERANCE:
            refined, worst = (
                ratio,
                max(abs(s - base * ratio**k) / s for s, k in zip(distinct, ks, strict=True)),
            )
        return RatioFit(round(refined, 3), distinct, round(worst, 4))
    return RatioFit(None, distinct, None)


_LENGTH = re.compile(r"(-?\d+(?:\.\d+)?)px")


def _shadow_key(shadow: str) -> tuple[float, float]:
    """(blur, y offset) of a computed box-shadow's first layer: "rgba(..) 0px 4px 8px 0px"."""
    lengths = [float(x) for x in _LENGTH.findall(shadow)]
    y = lengths[1] if len(lengths) > 1 else 0.0
    blur = lengths[2] if len(lengths) > 2 else 0.0
    return (blur, y)


def order_shadows(shadows: Iterable[str]) -> list[str]:
    return sorted(set(shadows), key=lambda s: (*_shadow_key(s), s))
