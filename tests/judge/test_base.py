"""The judge flow: registry, identity from the packet, retry once, inconclusive never passes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from argus.errors import ConfigError, InputError, JudgeError
from argus.judge.base import MalformedAnswer, require_independent, run_judge
from argus.judge.builtin import BUILTIN
from argus.judge.identity import model_identity
from argus.judge.packet import Packet
from argus.judge.registry import get_judge, judge_names
from tests.judge.conftest import RUBRIC, PacketFactory, answer, config_for


class Scripted:
    """A backend that plays a list of answers (dicts) or exceptions, one per call."""

    name = "scripted"
    model: str | None = "scripted-model"

    def __init__(self, *steps: Any) -> None:
        self.steps = list(steps)
        self.calls = 0

    def judge(self, packet: Packet) -> dict[str, Any]:
        self.calls += 1
        step = self.steps.pop(0)
        if isinstance(step, Exception):
            raise step
        return dict(step)


def test_every_builtin_backend_is_registered() -> None:
    names = {plugin.name for plugin in BUILTIN}
    assert names == {"metric", "litellm", "command", "composite"} and names <= set(judge_names())


def test_an_unknown_backend_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="unknown judge 'oracle'"):
        get_judge("oracle", config_for(tmp_path))


def test_the_packet_decides_the_views_identity(make_packet: PacketFactory) -> None:
    claimed = {**json.loads(answer()), "feature": "elsewhere", "iteration": 7, "all_pass": False}
    judge = Scripted(claimed)
    verdict = run_judge(judge, make_packet(reference="human"), RUBRIC)
    data = verdict.to_json()
    assert (data["feature"], data["target"], data["iteration"]) == ("habits", "list", 1)
    assert data["backend"] == "scripted" and data["model"] == "scripted-model"
    assert verdict.outcome == "pass"
    assert any("all_pass" in c for c in data["corrections"])  # the false self-report is corrected


def test_a_malformed_answer_gets_exactly_one_retry(make_packet: PacketFactory) -> None:
    judge = Scripted(MalformedAnswer("garbled"), json.loads(answer()))
    assert run_judge(judge, make_packet(reference="human"), RUBRIC).outcome == "pass"
    assert judge.calls == 2


def test_an_answer_missing_a_dimension_is_malformed(make_packet: PacketFactory) -> None:
    short = json.loads(answer())
    del short["dimensions"]["accessibility"]  # the seed lets a judge pass by leaving one out
    judge = Scripted(short, short)
    verdict = run_judge(judge, make_packet(), RUBRIC)
    assert judge.calls == 2
    assert verdict.outcome == "inconclusive" and verdict.all_pass is False
    assert "accessibility" in verdict.to_json()["error"]


def test_a_judge_that_cannot_answer_is_inconclusive_without_retry(
    make_packet: PacketFactory,
) -> None:
    judge = Scripted(JudgeError("connection refused"))
    verdict = run_judge(judge, make_packet(), RUBRIC)
    assert judge.calls == 1
    data = verdict.to_json()
    assert data["status"] == "inconclusive" and data["error"] == "connection refused"
    assert data["all_pass"] is False
    assert set(data["unverified_dimensions"]) == set(RUBRIC.names)


def test_unreadable_input_inside_a_backend_is_inconclusive(make_packet: PacketFactory) -> None:
    judge = Scripted(InputError("probe.json: elements[3].box must be an object"))
    verdict = run_judge(judge, make_packet(), RUBRIC)
    assert judge.calls == 1 and verdict.outcome == "inconclusive"
    assert "elements[3]" in verdict.to_json()["error"]


def test_an_abstention_is_unverified_never_passed(make_packet: PacketFactory) -> None:
    judge = Scripted(json.loads(answer({"functional_correctness": None})))
    verdict = run_judge(judge, make_packet(reference="human"), RUBRIC)
    assert verdict.outcome == "unverified" and verdict.all_pass is False
    assert verdict.unverified_dimensions == ("functional_correctness",)


@pytest.mark.parametrize(
    ("judge_model", "implementer", "refused"),
    [
        ("openai/gpt-4o", "gpt-4o", True),
        ("GPT-4o", "azure/gpt-4o", True),
        ("claude-sonnet-4-20250514", "anthropic/claude-sonnet-4", True),
        ("anthropic/claude-sonnet-4", "claude-sonnet-4", True),
        ("openai/gpt-4o-2024-08-06", "gpt-4o", True),
        ("vertex_ai/claude-3-5-sonnet@20240620", "claude-3-5-sonnet-latest", True),
        ("bedrock/anthropic.claude-3-sonnet-20240229-v1:0", "claude-3-sonnet", True),
        ("anthropic/claude-sonnet-4", "openai/gpt-4o", False),
        ("gpt-4o", "gpt-4o-mini", False),
        ("claude-opus-4-20250514", "claude-sonnet-4-20250514", False),
        ("deepseek/deepseek-v3", "deepseek/deepseek-v2", False),
    ],
)
def test_independence(tmp_path: Path, judge_model: str, implementer: str, refused: bool) -> None:
    config = config_for(tmp_path, model=judge_model, implementer_model=implementer)
    if refused:
        with pytest.raises(JudgeError, match="implementer's model"):
            require_independent(judge_model, config)
    else:
        require_independent(judge_model, config)


def test_a_model_judge_needs_the_implementers_model_named(tmp_path: Path) -> None:
    config = config_for(tmp_path, model="openai/gpt-4o", implementer_model="")
    with pytest.raises(ConfigError, match=r"set \[implementer\]\.model") as caught:
        require_independent("openai/gpt-4o", config)
    assert len(str(caught.value).splitlines()) == 1
    require_independent("openai/gpt-4o", config, required=False)  # an optional check: skipped


def test_model_identity_drops_the_provider_route_and_the_date() -> None:
    assert model_identity("openrouter/openai/GPT-4o") == model_identity("gpt-4o")
    assert model_identity("claude-sonnet-4-20250514") == "claude-sonnet-4"
