"""The ``composite`` judge: the metric judge for what it measures, a model judge for the rest.

The metric judge scores every dimension it can measure; only the dimensions it abstained on
are put to a model judge (``[judge] model`` for the litellm judge, else ``[judge] command``).
With no model judge configured, those dimensions stay abstained and the verdict is reported
unverified, never a plain pass: the degradation is loud. Each dimension says who judged it
(``judged_by``); closer_to_reference_than_prev is the metric judge's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from argus.config import ProjectConfig
from argus.contracts import load_rubric
from argus.judge.answer import dimension_entries
from argus.judge.base import MalformedAnswer, register_judge
from argus.judge.command import CommandJudge
from argus.judge.llm import LiteLLMJudge
from argus.judge.metric import MetricJudge
from argus.judge.packet import Packet


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
        raw: dict[str, Any] = {
            "closer_to_reference_than_prev": measured["closer_to_reference_than_prev"],
        }
        if open_names and self.helper is not None:
            answered, extra = self._ask_helper(packet, open_names)
            dimensions = {**dimensions, **answered}
            raw.update(extra)
        raw["dimensions"] = dimensions
        if open_names and self.helper is None:
            raw["notes"] = (
                f"No model judge is configured, so {', '.join(open_names)} stayed unverified "
                "(set [judge] model or command to have them judged)."
            )
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


@register_judge("composite")
def _composite(config: ProjectConfig) -> CompositeJudge:
    return CompositeJudge(config)
