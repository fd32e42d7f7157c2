"""Driving a contract run: only Argus runs stages, only a grader's GO passes judgment."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from argus.contract import run
from argus.contract.hook import stop_decision
from argus.contract.state import load_state
from argus.errors import InputError
from tests.contract.conftest import write_contract
from tests.judge.stub_llm import StubLLM

GO = json.dumps({"verdict": "GO", "evidence": "done.txt reads 'done'", "findings": []})
NO_GO = json.dumps({"verdict": "NO-GO", "evidence": "done.txt is empty", "findings": ["empty"]})


@pytest.fixture
def started(repo: Path) -> Path:
    run.start(repo, write_contract(repo), "anthropic/the-builder", "")
    return repo


def test_a_run_goes_from_running_to_completed_on_evidence(
    started: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = started
    with pytest.raises(InputError, match="graded only while verifying"):
        run.grade(repo, "ship-it", "check")
    run.advance(repo, "ship-it", "verifying")
    with pytest.raises(InputError, match="requires check to pass first"):
        run.judge(repo, "ship-it", "review")
    assert run.grade(repo, "ship-it", "check").status == "failed"
    (repo / "done.txt").write_text("done")
    assert run.grade(repo, "ship-it", "check").status == "passed"
    with pytest.raises(InputError, match="already passed"):
        run.grade(repo, "ship-it", "check")
    with pytest.raises(run.NotReady, match="review not passed yet"):
        run.complete(repo, "ship-it")
    monkeypatch.setenv("GRADER_ANSWER", GO)
    outcome = run.judge(repo, "ship-it", "review")
    assert (outcome.status, outcome.detail) == ("passed", "done.txt reads 'done'")
    summary = run.complete(repo, "ship-it").read_text()
    state = load_state(repo, "ship-it")
    assert state.phase == "completed" and state.fingerprint in summary
    assert "| check | mechanical | passed | 2 |" in summary
    assert [h["to"] for h in state.history] == ["running", "verifying", "completed"]
    log = Path(os.environ["GRADER_LOG"]).read_text()
    assert "done.txt says done" in log and "exited 0" in log, "the grader saw the evidence"


def test_the_fingerprint_follows_the_evidence(
    started: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run.advance(started, "ship-it", "verifying")
    before = load_state(started, "ship-it").fingerprint
    (started / "done.txt").write_text("done")
    run.grade(started, "ship-it", "check")
    after = load_state(started, "ship-it")
    assert after.fingerprint != before and after.stages["check"].evidence_sha256


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        (NO_GO, "failed"),
        (json.dumps({"verdict": "GO", "evidence": "", "findings": []}), "pending"),
        ("looks good to me", "pending"),
        ("CRASH", "pending"),
    ],
)
def test_only_a_go_with_evidence_passes_judgment(
    started: Path, monkeypatch: pytest.MonkeyPatch, answer: str, status: str
) -> None:
    (started / "done.txt").write_text("done")
    run.advance(started, "ship-it", "verifying")
    run.grade(started, "ship-it", "check")
    monkeypatch.setenv("GRADER_ANSWER", answer)
    outcome = run.judge(started, "ship-it", "review")
    assert outcome.status == status
    assert load_state(started, "ship-it").stages["review"].status == status
    # Rounds are budgeted: the third dispatch of a two-round grader is refused and blocks.
    run.judge(started, "ship-it", "review")
    blocked = run.judge(started, "ship-it", "review")
    assert blocked.status == "blocked" and load_state(started, "ship-it").phase == "blocked"


def test_a_spent_attempt_budget_blocks_the_run_until_resumed(started: Path) -> None:
    run.advance(started, "ship-it", "verifying")
    assert run.grade(started, "ship-it", "check").status == "failed"
    outcome = run.grade(started, "ship-it", "check")
    assert outcome.status == "blocked" and "attempt budget spent" in outcome.detail
    state = load_state(started, "ship-it")
    assert state.phase == "blocked" and stop_decision(started) is None
    assert run.resume(started, "ship-it").phase == "verifying"


def test_an_edited_contract_is_refused_mid_run(started: Path) -> None:
    path = started / "contract.json"
    path.write_text(path.read_text().replace("Ship the feature", "Ship something else"))
    with pytest.raises(InputError, match="changed since the run started"):
        run.advance(started, "ship-it", "verifying")


def test_one_open_run_per_contract(started: Path) -> None:
    with pytest.raises(InputError, match="already running"):
        run.start(started, started / "contract.json", "", "")
    run.abort(started, "ship-it", "replanned")
    assert run.start(started, started / "contract.json", "", "").phase == "running"


def test_the_stop_hook_blocks_an_open_run_and_allows_a_paused_one(started: Path) -> None:
    decision = stop_decision(started)
    assert decision is not None and decision["decision"] == "block"
    assert "check, review" in decision["reason"]
    assert "argus contract advance ship-it verifying" in decision["reason"]
    run.pause(started, "ship-it", "lunch")
    assert stop_decision(started) is None
    run.resume(started, "ship-it")
    assert stop_decision(started) is not None


@pytest.fixture
def stub() -> Iterator[StubLLM]:
    with StubLLM() as server:
        yield server


def test_a_model_grader_through_litellm(
    repo: Path, stub: StubLLM, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-stub")
    monkeypatch.setenv("OPENAI_API_BASE", stub.url)
    path = write_contract(repo)
    data = json.loads(path.read_text())
    data["stages"][1]["grader"] = {"model": "openai/stub-grader"}
    path.write_text(json.dumps(data))
    run.start(repo, path, "anthropic/the-builder", "")
    run.advance(repo, "ship-it", "verifying")
    (repo / "done.txt").write_text("done")
    run.grade(repo, "ship-it", "check")
    stub.queue(content=GO)
    assert run.judge(repo, "ship-it", "review").status == "passed"
    prompt = stub.requests[0]["messages"][0]["content"]
    assert "independent grader" in prompt and "done.txt says done" in prompt
    last = load_state(repo, "ship-it").stages["review"].last
    assert last["grader"] == {"model": "openai/stub-grader"}
