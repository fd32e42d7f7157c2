"""The ``composite`` judge: the metric judge for what it measures, a model judge for the rest.

The metric judge scores every dimension it can measure; the dimensions it abstained on are put
to a model judge (``[judge] model`` for the litellm judge, else ``[judge] command``), and so
are those it measured only in part (``measurements.partial``: functional_correctness when the
spec has prose criteria beyond its machine expectations), for which the lower of the two
scores counts. With no model judge configured, abstained dimensions stay abstained and the
verdict is reported unverified, never a plain pass, and the notes say what was measured only in
part: the degradation is loud. Each dimension says who judged it (``judged_by``);
closer_to_reference_than_prev is the metric judge's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from argus.config import ProjectConfig
from argus.judge.answer import dimension_entries
from argus.judge.base import MalformedAnswer
from argus.judge.command import CommandJudge
from argus.judge.llm import LiteLLMJudge
from argus.judge.metric import MetricJudge
from argus.judge.packet import Packet
from argus.schemas import load_rubric


class CompositeJudge:
    name = "composite"

    def __init__(self, config: ProjectConfig) -> None:
        self.metric = MetricJudge(config)
        self.helper: LiteLLMJudge | CommandJudge | None = None
        if config.judge.model and not config.judge.command:
            self.helper = LiteLLMJudge(config)
        elif config.judge.command:
            self.helper = CommandJudge(config)
        self.model: str | None = self.helper.model if self.helper else None

    def use_cache_dir(self, directory: Path) -> None:
        """Where the model helper keeps its answer cache (the metric judge keeps none)."""
        if isinstance(self.helper, LiteLLMJudge):
            self.helper.use_cache_dir(directory)

    def judge(self, packet: Packet) -> dict[str, Any]:
        rubric = load_rubric(packet.require("rubric"))
        measured = self.metric.judge(packet)
        dimensions: dict[str, Any] = measured["dimensions"]
        open_names = [name for name in rubric.names if dimensions[name].get("abstained")]
        partial = [
            name
            for name in rubric.names
            if name not in open_names
            and (dimensions[name].get("measurements") or {}).get("partial")
        ]
        raw: dict[str, Any] = {
            "closer_to_reference_than_prev": measured["closer_to_reference_than_prev"],
        }
        if (open_names or partial) and self.helper is not None:
            answered, extra = self._ask_helper(packet, [*open_names, *partial])
            dimensions = {**dimensions, **{n: answered[n] for n in open_names if n in answered}}
            for name in partial:
                dimensions[name] = _lower(dimensions[name], answered.get(name), self.helper.name)
            raw.update(extra)
        raw["dimensions"] = dimensions
        if self.helper is None:
            notes = []
            if open_names:
                notes.append(
                    f"No model judge is configured, so {', '.join(open_names)} stayed unverified "
                    "(set [judge] model or command to have them judged)."
                )
            if partial:
                notes.append(
                    f"{', '.join(partial)} was measured on the spec's machine expectations only; "
                    "its prose criteria were not checked by a model judge."
                )
            if notes:
                raw["notes"] = " ".join(notes)
        return raw

    def _ask_helper(
        self, packet: Packet, names: list[str]
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        helper = self.helper
        if isinstance(helper, LiteLLMJudge):
            rubric = load_rubric(packet.require("rubric"))
            answer, usage = helper.ask_dimensions(packet, rubric, names)
            extra: dict[str, Any] = {"usage": usage.to_json()}
            if answer.get("notes"):
                extra["notes"] = str(answer["notes"])[:1000]
            return dimension_entries(answer, names, helper.name), extra
        assert isinstance(helper, CommandJudge)
        whole = helper.judge(packet)  # an agent CLI is asked the whole rubric; keep the open ones
        dims = whole.get("dimensions")
        if not isinstance(dims, dict):
            raise MalformedAnswer("the command judge returned no dimensions")
        extra = {"notes": whole["notes"]} if whole.get("notes") else {}
        return {name: dims[name] for name in names if name in dims}, extra


def _lower(measured: dict[str, Any], answered: Any, helper: str) -> dict[str, Any]:
    """A partly measured dimension after the model judge's look: the lower of the two scores."""
    entry = dict(measured)
    model_score = answered.get("score") if isinstance(answered, dict) else None
    if model_score is not None and model_score < entry["score"]:
        entry["score"] = model_score
    said = (
        answered.get("evidence") if isinstance(answered, dict) and model_score is not None else None
    )
    entry["evidence"] = (
        f"{measured['evidence']} Model judge, on the whole criteria: "
        f"{said or 'abstained, so the measured score stands'}"
    )
    entry["judged_by"] = f"metric+{helper}"
    return entry
