"""The colour tolerance for comparing a render with one Argus's own sensor made (same browser
build, fonts and viewport): a candidate reference or a snapshot baseline.

An unchanged view renders to the same bytes, so the tolerance has no noise to absorb; what it
must not do is hide a change a person sees. Pixelmatch's default threshold (0.1 of the largest
YIQ difference) is wider than the gap between neighbouring palette colours (a page background
and a card surface are about 0.035 apart in the example's palette), so a swap between two
tokens would pass unseen. The threshold is therefore measured from the palette: half the YIQ
distance of its two closest distinct colours, so any swap of one token for another is counted,
never more than pixelmatch's default. Anti-aliased pixels stay excluded by the kernel.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass

from argus.color import RGBA
from argus.diff.yiq import MAX_YIQ_DELTA

DEFAULT_THRESHOLD = 0.1  # pixelmatch's default, and the ceiling
FLOOR = 0.005  # two palette colours closer than this are one colour to the eye


@dataclass(frozen=True)
class SensorTolerance:
    threshold: float
    closest_pair: tuple[str, str] | None  # the palette colours the threshold was measured on
    pair_distance: float | None  # their YIQ distance, as a fraction of the largest

    def describe(self) -> str:
        if self.closest_pair is None:
            return f"YIQ threshold {self.threshold:g} (pixelmatch's default: no palette to measure)"
        a, b = self.closest_pair
        return (
            f"YIQ threshold {self.threshold:.4g} (half the distance of the closest palette pair, "
            f"{a} and {b} at {self.pair_distance:.4g})"
        )

    def to_json(self) -> dict[str, object]:
        return {
            "threshold": round(self.threshold, 5),
            "closest_pair": list(self.closest_pair) if self.closest_pair else None,
            "pair_distance": None if self.pair_distance is None else round(self.pair_distance, 5),
        }


def yiq_distance(a: RGBA, b: RGBA) -> float:
    """Pixelmatch's YIQ colour delta of two opaque colours, as a fraction of the largest
    (the scale its ``threshold`` is on)."""
    dr, dg, db = a.r - b.r, a.g - b.g, a.b - b.b
    y = dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
    i = dr * 0.59597799 - dg * 0.27417610 - db * 0.32180189
    q = dr * 0.21147017 - dg * 0.52261711 + db * 0.31114694
    delta = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
    return math.sqrt(delta / MAX_YIQ_DELTA)


def sensor_tolerance(palette: Mapping[str, RGBA]) -> SensorTolerance:
    """The threshold for same-sensor comparisons of a view drawn from ``palette``."""
    best: tuple[float, str, str] | None = None
    for (name_a, a), (name_b, b) in itertools.combinations(sorted(palette.items()), 2):
        distance = yiq_distance(a, b)
        if distance < FLOOR * 2:
            continue  # the same colour under two names (or too close to tell apart)
        if best is None or distance < best[0]:
            best = (distance, name_a, name_b)
    if best is None:
        return SensorTolerance(DEFAULT_THRESHOLD, None, None)
    distance, name_a, name_b = best
    return SensorTolerance(min(DEFAULT_THRESHOLD, distance / 2), (name_a, name_b), distance)
