"""The metric judge: deterministic, offline, every score from a measurement.

Each rubric dimension has one measuring function (a module of this package). A dimension it
cannot measure, it abstains on, with the reason; the verdict then reports it as unverified,
never as passed. Evidence is a short sentence in Argus's own words with the numbers behind it
in ``measurements``; page text is never quoted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from argus.config import ProjectConfig
from argus.errors import InputError
from argus.judge.metric._accessibility import accessibility
from argus.judge.metric._context import Measured, MetricContext
from argus.judge.metric._design import layout_spacing, token_compliance, typography
from argus.judge.metric._functional import functional_correctness
from argus.judge.metric._hierarchy import hierarchy
from argus.judge.metric._visual import closer_than_previous, visual_fidelity
from argus.judge.packet import Packet
from argus.schemas import load_rubric

__all__ = ["MEASURES", "MetricJudge", "dimension_entry"]

MEASURES: dict[str, Callable[[MetricContext], Measured]] = {
    "visual_fidelity": visual_fidelity,
    "token_compliance": token_compliance,
    "layout_spacing": layout_spacing,
    "typography": typography,
    "hierarchy": hierarchy,
    "functional_correctness": functional_correctness,
    "accessibility": accessibility,
}


def dimension_entry(measured: Measured, anchor: str) -> dict[str, Any]:
    """A verdict's dimension entry for one measurement (an abstention keeps its reason)."""
    entry: dict[str, Any] = {
        "score": measured.score,
        "anchor": anchor,
        "evidence": measured.evidence,
    }
    if measured.score is None:
        entry["abstained"] = True
    entry["measurements"] = dict(measured.numbers)
    entry["judged_by"] = "metric"
    return entry


class MetricJudge:
    name = "metric"
    model: str | None = None

    def __init__(self, config: ProjectConfig) -> None:
        self.config = config

    def measure(self, packet: Packet, names: tuple[str, ...]) -> dict[str, Measured]:
        """Measure the named dimensions of ``packet`` (an unknown name abstains)."""
        return self._measure(MetricContext(packet, self.config), names)

    @staticmethod
    def _measure(ctx: MetricContext, names: tuple[str, ...]) -> dict[str, Measured]:
        out: dict[str, Measured] = {}
        for name in names:
            measure = MEASURES.get(name)
            if measure is None:
                out[name] = Measured.abstain(f"The metric judge has no measurement for '{name}'.")
                continue
            try:
                out[name] = measure(ctx)
            except InputError as exc:  # the verdict is inconclusive: say where it stopped
                raise InputError(f"metric judge, {name}: {exc}") from exc
        return out

    def judge(self, packet: Packet) -> dict[str, Any]:
        rubric = load_rubric(packet.require("rubric"))
        ctx = MetricContext(packet, self.config)
        measured = self._measure(ctx, rubric.names)
        return {
            "dimensions": {
                name: dimension_entry(measured[name], rubric.dimensions[name].anchor)
                for name in rubric.names
            },
            "closer_to_reference_than_prev": closer_than_previous(ctx),
        }
