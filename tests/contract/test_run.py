"""Driving a contract run: only Argus runs stages, only a grader's GO passes judgment."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from argus.contract import run
from argus.contract.hook import stop_decision
from argus.contract.state import load_state
from argus.errors import InputError
from tests.contract.conftest import summarize, write_contract
from tests.judge.stub_llm import StubLLM

GO = json.dumps(
    {"verdict": "GO", "evidence": "done.txt reads 'done'", "findings": [], "nonce": "@NONCE@"}
)
NO_GO = json.dumps(
    {"verdict": "NO-GO", "evidence": "done.txt is empty", "findings": ["empty"], "nonce": "@NONCE@"}
)


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
    summarize(repo)
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
        (
            json.dumps({"verdict": "GO", "evidence": "", "findings": [], "nonce": "@NONCE@"}),
            "pending",
        ),
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
    # Rounds are budgeted: a two-round grader's rounds spent without a GO block the run with
    # a blocker naming the stage: at once when the last round says NO-GO, at the next
    # dispatch when it said nothing. The Stop hook keeps holding the session.
    second = run.judge(started, "ship-it", "review")
    if answer != NO_GO:
        assert second.status == "pending" and load_state(started, "ship-it").phase == "verifying"
        second = run.judge(started, "ship-it", "review")
    said = "NO-GO" if answer == NO_GO else "no verdict"
    assert second.status == "blocked"
    assert second.detail.startswith(
        f"grading rounds spent on 'review': 2 round(s) without a GO (the last: {said})"
    )
    state = load_state(started, "ship-it")
    assert (state.phase, state.reason, state.resume_phase) == (
        "blocked",
        second.detail,
        "verifying",
    )
    assert state.stages["review"].status == "blocked" and state.stages["review"].attempts == 2
    assert stop_decision(started) is not None
    # Resumed without an amended contract, the stage has no round left: blocked again.
    run.resume(started, "ship-it")
    assert run.judge(started, "ship-it", "review").status == "blocked"
    assert load_state(started, "ship-it").stages["review"].attempts == 2, "nothing was asked"


def test_one_no_go_within_the_rounds_leaves_the_run_verifying(
    started: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (started / "done.txt").write_text("done")
    run.advance(started, "ship-it", "verifying")
    run.grade(started, "ship-it", "check")
    monkeypatch.setenv("GRADER_ANSWER", NO_GO)
    assert run.judge(started, "ship-it", "review").status == "failed"
    assert load_state(started, "ship-it").phase == "verifying"
    monkeypatch.setenv("GRADER_ANSWER", GO)  # fixed within the contract: the next round passes
    assert run.judge(started, "ship-it", "review").status == "passed"
    assert load_state(started, "ship-it").phase == "verifying"


def test_a_spent_attempt_budget_blocks_the_run_until_resumed(started: Path) -> None:
    run.advance(started, "ship-it", "verifying")
    assert run.grade(started, "ship-it", "check").status == "failed"
    outcome = run.grade(started, "ship-it", "check")
    assert outcome.status == "blocked" and "attempt budget spent" in outcome.detail
    state = load_state(started, "ship-it")
    assert state.phase == "blocked"
    decision = stop_decision(started)
    assert decision is not None and "is blocked" in decision["reason"], "a spent budget holds"
    assert run.resume(started, "ship-it").phase == "verifying"


def test_an_edited_contract_is_refused_mid_run(started: Path) -> None:
    path = started / "contract.json"
    path.write_text(path.read_text().replace("Ship the feature", "Ship something else"))
    with pytest.raises(InputError, match="changed since the run started"):
        run.advance(started, "ship-it", "verifying")


def test_one_open_run_per_contract(started: Path) -> None:
    with pytest.raises(InputError, match="already running"):
        run.start(started, started / "contract.json", "", "")
    summarize(started)
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
    grader = load_state(repo, "ship-it").stages["review"].last["grader"]
    assert (grader["model"], grader["model_requested"], grader["model_actual"]) == (
        "openai/stub-grader",
        "openai/stub-grader",
        "stub-grader",  # as the provider's answer names it
    )
    assert grader["tried"] == []
    assert (grader["input_tokens"], grader["output_tokens"]) == (120, 30)


def git(repo: Path, *args: str) -> None:
    base = ["git", "-c", "user.email=a@b", "-c", "user.name=a"]
    subprocess.run([*base, *args], cwd=repo, check=True, capture_output=True)


def test_a_pass_goes_stale_when_the_working_tree_changes(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (repo / "done.txt").write_text("done")
    (repo / ".gitignore").write_text(".argus/\n")
    git(repo, "init", "-q")
    write_contract(repo)
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "work")
    run.start(repo, repo / "contract.json", "anthropic/the-builder", "")
    run.advance(repo, "ship-it", "verifying")
    assert run.grade(repo, "ship-it", "check").status == "passed"
    monkeypatch.setenv("GRADER_ANSWER", GO)
    assert run.judge(repo, "ship-it", "review").status == "passed"
    (repo / "done.txt").write_text("changed after the passes")
    reason = stop_decision(repo)
    assert reason is not None and "passed on an earlier working tree" in reason["reason"]
    with pytest.raises(run.NotReady, match="working tree changed after check, review passed"):
        run.complete(repo, "ship-it")
    state = load_state(repo, "ship-it")
    assert state.stages["check"].status == "pending" and state.stages["review"].status == "pending"
    assert run.grade(repo, "ship-it", "check").status == "passed", "graded again on the new tree"
    assert run.judge(repo, "ship-it", "review").status == "passed"
    summarize(repo)
    assert "| check | mechanical | passed | 2 |" in run.complete(repo, "ship-it").read_text()


def test_the_hook_blocks_when_the_run_cannot_be_trusted(started: Path) -> None:
    contract = started / "contract.json"
    contract.write_text(contract.read_text().replace("Ship the feature", "Ship less"))
    decision = stop_decision(started)
    assert decision is not None and "edited after its run started" in decision["reason"]
    (started / ".argus/contracts/ship-it/state.json").write_text("{broken")
    decision = stop_decision(started)
    assert decision is not None and "cannot be read" in decision["reason"]


def test_the_hook_finds_the_run_from_a_subdirectory(started: Path) -> None:
    from argus.contract.hook import run_stop_hook

    (started / "src" / "deep").mkdir(parents=True)
    event = json.dumps({"cwd": str(started / "src" / "deep")})
    assert json.loads(run_stop_hook(event.encode(), None, Path("/")))["decision"] == "block"


def test_a_timed_out_stage_is_stopped_with_its_children(repo: Path) -> None:
    marker = f"argus-orphan-{os.getpid()}"
    path = write_contract(repo, timeout=1)
    data = json.loads(path.read_text())
    data["stages"][0]["command"] = (
        f"{sys.executable} -c 'import time; time.sleep(30)' {marker} & sleep 30; echo done"
    )
    path.write_text(json.dumps(data))
    run.start(repo, path, "", "")
    run.advance(repo, "ship-it", "verifying")
    outcome = run.grade(repo, "ship-it", "check")
    assert outcome.status == "failed" and outcome.detail == "timed out after 1s"
    left = subprocess.run(["pgrep", "-f", marker], capture_output=True, text=True)
    assert left.stdout.strip() == "", "no child outlives its stage"


def test_concurrent_judging_respects_the_dispatch_budget(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_contract(repo, budget={"max_judgment_dispatches": 1})
    run.start(repo, path, "", "")
    run.advance(repo, "ship-it", "verifying")
    (repo / "done.txt").write_text("done")
    run.grade(repo, "ship-it", "check")
    env = {**os.environ, "GRADER_ANSWER": NO_GO}
    judges = [
        subprocess.Popen(
            [sys.executable, "-m", "argus", "contract", "judge", "ship-it", "review"],
            cwd=repo,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(4)
    ]
    for process in judges:
        process.wait(timeout=120)
    log = Path(os.environ["GRADER_LOG"]).read_text()
    assert log.count("=====") == 1, "one grader dispatched, whatever the race"
    assert load_state(repo, "ship-it").judgment_dispatches == 1


def test_a_spent_judgment_budget_refuses_the_dispatch_and_leaves_the_run_open(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The seed: attempt exhaustion blocks the run; judgment-dispatch exhaustion refuses only
    # that dispatch (unlike a stage's spent rounds, which block naming the stage).
    path = write_contract(repo, budget={"max_judgment_dispatches": 1})
    run.start(repo, path, "", "")
    run.advance(repo, "ship-it", "verifying")
    (repo / "done.txt").write_text("done")
    run.grade(repo, "ship-it", "check")
    monkeypatch.setenv("GRADER_ANSWER", NO_GO)
    assert run.judge(repo, "ship-it", "review").status == "failed"
    refused = run.judge(repo, "ship-it", "review")
    assert refused.status == "refused" and "1 judgment dispatch(es)" in refused.detail
    state = load_state(repo, "ship-it")
    assert (state.phase, state.judgment_dispatches) == ("verifying", 1)
    assert state.stages["review"].attempts == 1
