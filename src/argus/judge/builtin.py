"""Argus's own judge backends, published to the ``argus.judges`` entry-point group.

Each factory imports its backend when it is built, so listing the backends (``argus judge
--help``, a config check) loads none of them: the LLM backend's LiteLLM is heavy.
"""

from __future__ import annotations

from argus.config import ProjectConfig
from argus.judge.base import Judge
from argus.judge.registry import JudgePlugin


def _metric(config: ProjectConfig) -> Judge:
    from argus.judge.metric import MetricJudge

    return MetricJudge(config)


def _litellm(config: ProjectConfig) -> Judge:
    from argus.judge.llm import LiteLLMJudge

    return LiteLLMJudge(config)


def _command(config: ProjectConfig) -> Judge:
    from argus.judge.command import CommandJudge

    return CommandJudge(config)


def _composite(config: ProjectConfig) -> Judge:
    from argus.judge._composite import CompositeJudge

    return CompositeJudge(config)


BUILTIN = (
    JudgePlugin("metric", _metric),
    JudgePlugin("litellm", _litellm),
    JudgePlugin("command", _command),
    JudgePlugin("composite", _composite),
)
