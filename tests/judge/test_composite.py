"""The composite judge: metric first, a model judge only for what the metric abstained on."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from argus.judge._composite import CompositeJudge
from argus.judge.base import run_judge
from argus.judge.llm import LiteLLMJudge
from argus.judge.registry import get_judge
from tests.judge.conftest import RUBRIC, PacketFactory, answer, config_for
from tests.judge.stub_llm import StubLLM


@pytest.fixture
def stub(monkeypatch: pytest.MonkeyPatch) -> Iterator[StubLLM]:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-stub")
    with StubLLM() as server:
        yield server


def test_without_a_model_judge_abstentions_stay_unverified(
    make_packet: PacketFactory, tmp_path: Path
) -> None:
    judge = get_judge("composite", config_for(tmp_path, backend="composite"))
    verdict = run_judge(judge, make_packet(), RUBRIC)  # no reference: visual_fidelity abstains
    assert "visual_fidelity" in verdict.unverified_dimensions
    assert verdict.outcome in ("unverified", "fail") and verdict.all_pass is False
    assert "No model judge is configured" in verdict.to_json()["notes"]


def test_a_model_judge_is_asked_only_what_the_metric_could_not_measure(
    stub: StubLLM, make_packet: PacketFactory, tmp_path: Path
) -> None:
    config = config_for(tmp_path, backend="composite", model="openai/stub-vision")
    judge = CompositeJudge(config)
    judge.helper = LiteLLMJudge(config, api_base=stub.url, backoff=(0.0,))
    # No machine expectations for the state: the metric cannot measure functional correctness.
    packet = make_packet(reference="human", contract={"expectations": None})
    metric = json.loads(json.dumps(judge.metric.judge(packet)))
    open_names = [n for n, d in metric["dimensions"].items() if d.get("abstained")]
    assert open_names == ["functional_correctness"]
    stub.queue(_answer_for(open_names))
    verdict = run_judge(judge, packet, RUBRIC)
    (body,) = stub.requests
    asked = body["messages"][1]["content"][0]["text"].split("## The view")[0]
    for name in RUBRIC.names:
        assert (f"`{name}`" in asked) == (name in open_names)
    data = verdict.to_json()
    for name, dim in data["dimensions"].items():
        assert dim["judged_by"] == ("litellm" if name in open_names else "metric")
    assert not verdict.unverified_dimensions


def _answer_for(names: list[str]) -> str:
    full = json.loads(answer())
    full["dimensions"] = {n: full["dimensions"][n] for n in names}
    return json.dumps(full)


def test_a_command_judge_fills_in_only_the_abstained_dimensions(
    make_packet: PacketFactory, tmp_path: Path
) -> None:
    agent = tmp_path / "agent.py"
    # The agent scores everything 0; only what the metric could not measure may be taken.
    agent.write_text(
        f"import sys; sys.stdin.read(); print({answer({n: 0 for n in RUBRIC.names})!r})"
    )
    command = f"{sys.executable} {agent}"
    judge = get_judge("composite", config_for(tmp_path, backend="composite", command=command))
    verdict = run_judge(judge, make_packet(contract={"expectations": None}), RUBRIC)
    data = verdict.to_json()
    assert data["dimensions"]["functional_correctness"]["judged_by"] == "command"
    assert data["dimensions"]["functional_correctness"]["score"] == 0
    # Without a reference, visual fidelity stays unverified whatever the agent said.
    assert data["dimensions"]["visual_fidelity"]["score"] is None
    assert verdict.unverified_dimensions == ("visual_fidelity",)
    metric_scored = [n for n, d in data["dimensions"].items() if d["judged_by"] == "metric"]
    assert metric_scored and all(data["dimensions"][n]["score"] is not None for n in metric_scored)
    assert "typography" in metric_scored and data["dimensions"]["typography"]["score"] == 1


def _partial_packet(make_packet: PacketFactory, tmp_path: Path) -> Any:
    """Every dimension measured, functional_correctness only on its machine expectations."""
    axe = tmp_path / "axe-results.json"
    axe.write_text(json.dumps({"violations": [], "incomplete": [], "passes": 3}))
    holding = {"aria_snapshot": '- heading "Habits" [level=1]', "counts": []}
    contract = {"expectations": holding, "expectations_cover_prose": False}
    return make_packet(reference="human", extra={"axe": axe}, contract=contract)


@pytest.mark.parametrize(("model_score", "final"), [(0.5, 0.5), (1, 1), (None, None)])
def test_a_partly_measured_pass_is_unverified_and_put_to_the_model(
    stub: StubLLM, make_packet: PacketFactory, tmp_path: Path, model_score: Any, final: Any
) -> None:
    config = config_for(tmp_path, backend="composite", model="openai/stub-vision")
    judge = CompositeJudge(config)
    judge.helper = LiteLLMJudge(config, api_base=stub.url, backoff=(0.0,))
    packet = _partial_packet(make_packet, tmp_path)
    metric = judge.metric.judge(packet)["dimensions"]
    fc = metric["functional_correctness"]
    # The machine checks hold but the prose was not measured: the metric judge abstains.
    assert fc["score"] is None and fc["measurements"].get("partial") is True
    stub.queue(_answer_for_scores({"functional_correctness": model_score}))
    verdict = run_judge(judge, packet, RUBRIC)
    (body,) = stub.requests
    asked = body["messages"][1]["content"][0]["text"].split("## The view")[0]
    assert "`functional_correctness`" in asked and "`typography`" not in asked
    dim = verdict.dimension("functional_correctness")
    assert dim.score == final


@pytest.mark.parametrize(("model_score", "final"), [(1, 0), (None, 0)])
def test_a_partly_measured_failure_keeps_the_lower_score(
    stub: StubLLM, make_packet: PacketFactory, tmp_path: Path, model_score: Any, final: Any
) -> None:
    config = config_for(tmp_path, backend="composite", model="openai/stub-vision")
    judge = CompositeJudge(config)
    judge.helper = LiteLLMJudge(config, api_base=stub.url, backoff=(0.0,))
    axe = tmp_path / "axe-results.json"
    axe.write_text(json.dumps({"violations": [], "incomplete": [], "passes": 3}))
    failing = {"aria_snapshot": "", "counts": [{"role": "button", "name": None, "equals": 9}]}
    packet = make_packet(reference="human", extra={"axe": axe}, contract={"expectations": failing})
    stub.queue(_answer_for_scores({"functional_correctness": model_score}))
    dim = run_judge(judge, packet, RUBRIC).dimension("functional_correctness")
    assert dim.score == final and dim.extra["judged_by"] == "metric+litellm"


def _answer_for_scores(scores: dict[str, Any]) -> str:
    full = json.loads(answer(scores))
    full["dimensions"] = {n: full["dimensions"][n] for n in scores}
    return json.dumps(full)


def test_without_a_model_a_partial_measurement_is_said_in_the_notes(
    make_packet: PacketFactory, tmp_path: Path
) -> None:
    judge = get_judge("composite", config_for(tmp_path, backend="composite"))
    verdict = run_judge(judge, _partial_packet(make_packet, tmp_path), RUBRIC)
    notes = verdict.to_json()["notes"]
    assert "functional_correctness" in notes and "unverified" in notes
    assert verdict.unverified_dimensions == ("functional_correctness",)
