"""report-only writes nothing outside its run directory, a model judge's answer cache included."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from argus.config import load_config
from argus.loop.engine.services import JudgeInputs
from argus.loop.engine.web_services import ArgusServices
from argus.loop.records.layout import RunLayout
from argus.schemas import load_rubric
from argus.spec import View, load_spec
from tests.judge.conftest import answer, derived_gate_result, png, small_probe
from tests.judge.stub_llm import StubLLM
from tests.support.habits import HABITS_SPEC, copy_habits
from tests.support.sensed import seal_sensed

VIEW = View("habits", "list", "populated", "light")


@pytest.fixture
def stub(monkeypatch: pytest.MonkeyPatch) -> Iterator[StubLLM]:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-stub")
    with StubLLM() as server:
        monkeypatch.setenv("OPENAI_API_BASE", server.url)
        yield server


def _model_judged_project(tmp_path: Path) -> Path:
    root = copy_habits(tmp_path)
    config = root / "argus.toml"
    text = config.read_text().replace(
        'backend = "metric"', 'backend = "litellm"\nmodel = "openai/stub-vision"'
    )
    lines = [
        'enabled = ["token_contrast"]' if line.startswith("enabled = ") else line
        for line in text.splitlines()
    ]
    config.write_text("\n".join(lines) + '\n\n[implementer]\nmodel = "stub-implementer"\n')
    return root


def _judge_once(root: Path, stub: StubLLM, *, report_only: bool) -> RunLayout:
    spec = load_spec(root / HABITS_SPEC)
    layout = RunLayout(spec.spec_dir, report_only=report_only)
    services = ArgusServices(spec, load_config(root), load_rubric(None), layout)
    sensed = layout.iteration_dir(VIEW, 1)
    sensed.mkdir(parents=True)
    (sensed / "probe.json").write_text(json.dumps(small_probe()))
    png(sensed / "render.png")
    seal_sensed(sensed, VIEW)  # bound to one successful sense, as the sensor binds its own
    (sensed / "gate-result.json").write_text(
        json.dumps(derived_gate_result(spec, VIEW, sensed, ("token_contrast",)))
    )
    stub.queue(answer())
    verdict = services.judge(VIEW, sensed, JudgeInputs(1, None))
    assert verdict.to_json()["backend"] == "litellm" and len(stub.requests) == 1
    return layout


def test_report_only_keeps_the_answer_cache_in_its_run_directory(
    stub: StubLLM, tmp_path: Path
) -> None:
    root = _model_judged_project(tmp_path)
    layout = _judge_once(root, stub, report_only=True)
    assert list((layout.runs_dir / "judge-cache").glob("*.json"))
    assert not (root / ".argus").exists()


def test_a_real_run_keeps_the_cache_under_argus(stub: StubLLM, tmp_path: Path) -> None:
    root = _model_judged_project(tmp_path)
    _judge_once(root, stub, report_only=False)
    assert list((root / ".argus" / "judge-cache").glob("*.json"))
