"""The newer contract (seed 003): executor, mechanical, stage-verifier and loop-grader stages
in YAML, driven end to end, with the closure summary, retarget, presets, doctor and hooks."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from argus.contract import run
from argus.contract.executor import stage_complete, stage_input
from argus.contract.hook import session_start, stop_decision
from argus.contract.retarget import retarget
from argus.contract.state import load_state
from argus.errors import InputError
from tests.contract.conftest import GRADER, pin_as_the_person, summarize
from tests.judge.stub_llm import StubLLM
from tests.support.cli import run_in_process

GO = json.dumps(
    {"verdict": "GO", "evidence": "out.txt holds the answer", "findings": [], "nonce": "@NONCE@"}
)
PROMPT = "Write the answer to out.txt."
OUTPUT = hashlib.sha256(b"42").hexdigest()


def newer_contract(root: Path, **changes: Any) -> Path:
    grader = root.parent / "grader.py"
    grader.write_text(GRADER, "utf-8")
    contract: dict[str, Any] = {
        "id": "answer",
        "name": "Answer the question",
        "stages": [
            {
                "id": "produce",
                "name": "Produce the answer",
                "type": "executor",
                "prompt": {"text": PROMPT, "sha256": hashlib.sha256(PROMPT.encode()).hexdigest()},
            },
            {
                "id": "validate",
                "name": "The answer file exists",
                "type": "mechanical",
                "requires": ["produce"],
                "command": f'{sys.executable} -c "import pathlib; '
                "pathlib.Path('out.txt').read_text()\"",
                "passCriteria": "out.txt exists",
            },
            {
                "id": "inspect",
                "name": "Inspect the work",
                "type": "stage-verifier",
                "requires": ["validate"],
                "stageVerifier": {
                    "role": "stage-verifier",
                    "command": f"{sys.executable} {grader}",
                    "rounds": 2,
                },
            },
            {
                "id": "complete-loop",
                "name": "Whole loop complete",
                "type": "loop-grader",
                "requires": ["inspect"],
                "loopGrader": {
                    "role": "loop-grader",
                    "model": "openai/primary-grader",
                    "fallbackModels": ["openai/fallback-grader"],
                    "timeoutMs": 60000,
                },
            },
        ],
        "executionBudget": {"maxMechanicalAttempts": 3, "maxTotalJudgmentDispatches": 4},
        "failurePolicy": {"maxMechanicalFailures": 3},
    }
    contract.update(changes)
    path = root / "contract.yaml"
    path.write_text(yaml.safe_dump(contract, sort_keys=False), "utf-8")
    pin_as_the_person(root, path)
    return path


@pytest.fixture
def stub(monkeypatch: pytest.MonkeyPatch) -> Iterator[StubLLM]:
    with StubLLM() as server:
        monkeypatch.setenv("OPENAI_API_KEY", "sk-stub")
        monkeypatch.setenv("OPENAI_API_BASE", server.url)
        yield server


def test_the_four_stage_types_run_end_to_end(
    repo: Path, stub: StubLLM, monkeypatch: pytest.MonkeyPatch
) -> None:
    run.start(repo, newer_contract(repo), "anthropic/the-builder", "")
    run.advance(repo, "answer", "verifying")
    packet = stage_input(repo, "answer", "produce")
    assert packet["prompt"]["text"] == PROMPT and packet["identity"]["attempt"] == 1
    assert stage_input(repo, "answer", "produce") == packet, "the same packet until it completes"
    with pytest.raises(InputError, match="not the fingerprint of its input"):
        stage_complete(repo, "answer", "produce", "0" * 64, OUTPUT, ["out.txt"])
    with pytest.raises(InputError, match="lower-case SHA-256"):
        stage_complete(repo, "answer", "produce", packet["input_fingerprint"], "A" * 64, ["x"])
    (repo / "out.txt").write_text("42")
    done = stage_complete(
        repo, "answer", "produce", packet["input_fingerprint"], OUTPUT, ["out.txt"]
    )
    assert done.status == "passed"
    with pytest.raises(InputError, match="already passed"):
        stage_complete(repo, "answer", "produce", packet["input_fingerprint"], OUTPUT, ["out.txt"])
    assert run.grade(repo, "answer", "validate").status == "passed"
    monkeypatch.setenv("GRADER_ANSWER", GO)
    assert run.judge(repo, "answer", "inspect").status == "passed"
    stub.queue(status=503)
    stub.queue(status=503)  # the primary model cannot be reached (its retry too) ...
    stub.queue(content=GO, model="fallback-grader-2025-05-01")  # ... so the fallback answers
    assert run.judge(repo, "answer", "complete-loop").status == "passed"
    models = [r["model"] for r in stub.requests]
    assert models == ["primary-grader", "primary-grader", "fallback-grader"]
    prompt = stub.requests[-1]["messages"][0]["content"]
    assert "loop grader" in prompt and "### produce" in prompt and "### inspect" in prompt
    grader = load_state(repo, "answer").stages["complete-loop"].last["grader"]
    assert (grader["model"], grader["model_requested"], grader["model_actual"]) == (
        "openai/primary-grader",
        "openai/fallback-grader",
        "fallback-grader-2025-05-01",  # the provider's answer names a dated snapshot
    )
    assert (grader["input_tokens"], grader["output_tokens"]) == (120, 30)
    assert grader["tried"][0]["model"] == "openai/primary-grader"
    log = Path(os.environ["GRADER_LOG"]).read_text()
    assert "stage verifier" in log and "### validate" in log and "### produce" in log
    summarize(repo, "answer")
    closure = run.complete(repo, "answer").read_text()
    assert "| produce | executor | passed |" in closure and "## Recommendations" in closure
    assert stop_decision(repo) is None


def _validate(path: Path) -> subprocess.CompletedProcess[str]:
    # In this process (tests/support/cli.py): nothing here needs a process of its own.
    return run_in_process(("contract", "validate", str(path)), None, None)


def test_validate_says_valid_or_lists_every_problem(repo: Path) -> None:
    path = newer_contract(repo)
    done = _validate(path)
    assert done.returncode == 0 and "valid contract: answer (4 stages)" in done.stdout
    data = yaml.safe_load(path.read_text())
    data["stages"][0]["prompt"]["sha256"] = "0" * 64
    path.write_text(yaml.safe_dump(data))
    done = _validate(path)
    assert done.returncode == 1 and "prompt.sha256 is not the SHA-256" in done.stderr
    data["stages"][0]["requires"] = ["complete-loop"]
    data["stages"][0]["prompt"]["sha256"] = hashlib.sha256(PROMPT.encode()).hexdigest()
    path.write_text(yaml.safe_dump(data))
    assert "cycle" in _validate(path).stderr
    data["stages"][0].pop("requires")
    data["stages"][2].pop("stageVerifier")
    data["stages"][1]["grader"] = {"model": "x"}
    path.write_text(yaml.safe_dump(data))
    done = _validate(path)
    assert done.returncode == 1 and len(done.stderr.strip().splitlines()) >= 2
    path.write_text("id: a\nid: b\nname: x\nstages: []\n")
    done = _validate(path)
    assert done.returncode == 2 and "duplicate key 'id'" in done.stderr


def test_failure_policy_blocks_repeated_failing_work(repo: Path) -> None:
    path = newer_contract(repo, failurePolicy={"maxMechanicalFailures": 1})
    data = yaml.safe_load(path.read_text())
    data["stages"][1].pop("requires")
    path.write_text(yaml.safe_dump(data))
    run.start(repo, path, "anthropic/the-builder", "")
    run.advance(repo, "answer", "verifying")
    outcome = run.grade(repo, "answer", "validate")  # out.txt is missing: exit 1
    assert outcome.status == "blocked" and "failurePolicy" in outcome.detail
    assert load_state(repo, "answer").phase == "blocked"


def git(repo: Path, *args: str) -> None:
    base = ["git", "-c", "user.email=a@b", "-c", "user.name=a"]
    subprocess.run([*base, *args], cwd=repo, check=True, capture_output=True)


def test_retarget_keeps_only_verdicts_that_still_hold(repo: Path) -> None:
    (repo / ".gitignore").write_text(".argus/\n")
    (repo / "out.txt").write_text("42")
    path = newer_contract(repo)
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "work")
    run.start(repo, path, "anthropic/the-builder", "")
    run.advance(repo, "answer", "verifying")
    packet = stage_input(repo, "answer", "produce")
    stage_complete(repo, "answer", "produce", packet["input_fingerprint"], OUTPUT, ["out.txt"])
    assert run.grade(repo, "answer", "validate").status == "passed"
    data = yaml.safe_load(path.read_text())
    data["stages"][0]["type"] = "mechanical"  # same id, another type: reset
    data["stages"][0].pop("prompt")
    data["stages"][0]["command"] = "true"
    new = repo.parent / "retargeted.yaml"
    new.write_text(yaml.safe_dump(data))
    state, kept = retarget(repo, "answer", new)
    assert kept == ["validate"]
    assert state.stages["produce"].status == "pending"
    assert state.stages["validate"].status == "passed"
    other = repo.parent / "other.yaml"
    other.write_text(yaml.safe_dump({**data, "id": "another"}))
    with pytest.raises(InputError, match="keeps the run's id"):
        retarget(repo, "answer", other)


def test_the_summary_is_required_fresh_and_whole(repo: Path) -> None:
    (repo / ".gitignore").write_text(".argus/\n")
    path = newer_contract(repo)
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "work")
    run.start(repo, path, "anthropic/the-builder", "")
    with pytest.raises(InputError, match="E_CLOSURE_SUMMARY_MISSING"):
        run.block(repo, "answer", "waiting on the API key")
    with pytest.raises(InputError, match="missing section"):
        run.summary_write(repo, "answer", "## Summary\nshort\n")
    written = summarize(repo, "answer")
    header = written.read_text().splitlines()[0]
    assert header.startswith("<!-- argus-contract-summary run:") and "contract:answer" in header
    (repo / "new.txt").write_text("the tree changed")
    with pytest.raises(InputError, match="stale"):
        run.block(repo, "answer", "waiting on the API key")
    summarize(repo, "answer")
    assert run.block(repo, "answer", "waiting on the API key").phase == "blocked"
    decision = stop_decision(repo)
    assert decision is not None and "blocked" in decision["reason"]


def test_session_start_briefs_and_never_resumes(repo: Path) -> None:
    run.start(repo, newer_contract(repo), "anthropic/the-builder", "")
    out = json.loads(session_start(b"{}", str(repo), Path("/")))
    context = out["hookSpecificOutput"]["additionalContext"]
    assert "'answer' is running" in context and "argus contract" in context
    summarize(repo, "answer")
    run.pause(repo, "answer", "lunch")
    out = json.loads(session_start(b"{}", str(repo), Path("/")))
    assert "do not resume" in out["hookSpecificOutput"]["additionalContext"]
    assert load_state(repo, "answer").phase == "paused"
    assert session_start(b"{}", None, repo.parent / "elsewhere") == ""


def _argus(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # A process: in this one the package's autouse fixture (tests/contract/conftest.py) pins
    # every contract a check asks about first, so `contract doctor` would never see an
    # edited contract as unpinned; a process sees only the pins the person made.
    return subprocess.run(
        [sys.executable, "-m", "argus", *args, "--root", str(repo)],
        capture_output=True,
        text=True,
        check=False,
    )


def test_a_preset_starts_with_argus_s_own_gates(repo: Path) -> None:
    done = _argus(repo, "contract", "start", "--preset", "frontend-ui")
    assert done.returncode == 2 and "need a grader" in done.stderr
    (repo / "argus.toml").write_text(
        '[implementer]\nmodel = "anthropic/the-builder"\n[judge]\nmodel = "openai/reviewer"\n'
        '[gates.commands.build]\ncommand = "make build"\n'
    )
    done = _argus(repo, "contract", "pin", "--preset", "frontend-ui")  # the person
    assert done.returncode == 0, done.stderr
    done = _argus(repo, "contract", "start", "--preset", "frontend-ui")
    assert done.returncode == 0, done.stderr
    assert "typecheck: no [gates.commands]" in done.stdout
    data = yaml.safe_load((repo / ".argus/presets/frontend-ui.yaml").read_text())
    stages = {s["id"]: s for s in data["stages"]}
    assert stages["lint"]["command"] == "argus lint" and stages["build"]["command"] == "make build"
    assert stages["review"]["type"] == "stage-verifier"
    assert stages["review"]["requires"] == ["lint", "build"]
    assert stages["verify"]["type"] == "loop-grader"
    assert load_state(repo, "frontend-ui").phase == "running"


def test_doctor_reports_every_refusal_before_a_start(repo: Path) -> None:
    path = newer_contract(repo)
    done = _argus(repo, "contract", "doctor", "--contract", str(path))
    assert done.returncode == 0 and "ready: answer (4 stages)" in done.stdout
    done = _argus(
        repo, "contract", "doctor", "--contract", str(path),
        "--executor-model", "anthropic/claude-sonnet-4-5",
        "--grader-model", "cursor/claude-sonnet-4-5",
    )  # fmt: skip
    assert done.returncode == 1 and "E_NO_DIVERSITY" in done.stdout
    data = yaml.safe_load(path.read_text())
    data["stages"][2]["stageVerifier"]["command"] = "make -s grade"
    path.write_text(yaml.safe_dump(data))
    assert (
        "edited after it was pinned"
        in _argus(repo, "contract", "doctor", "--contract", str(path)).stdout
    )
    pin_as_the_person(repo, path)
    done = _argus(
        repo, "contract", "doctor", "--contract", str(path),
        "--grader-model", "anthropic/the-builder-20250101",
    )  # fmt: skip
    refusals = [line for line in done.stdout.splitlines() if line.startswith("refused:")]
    assert done.returncode == 1 and len(refusals) == 2, done.stdout


def test_a_yaml_alias_bomb_is_refused_before_it_expands(repo: Path) -> None:
    bomb = ["id: x", "name: x", 'a: &a ["x","x","x","x","x","x","x","x","x"]']
    for n in range(1, 12):
        bomb.append(f"a{n}: &a{n} [{','.join([f'*a{n - 1}' if n > 1 else '*a'] * 9)}]")
    bomb.append("stages: *a11")
    path = repo / "bomb.yaml"
    path.write_text("\n".join(bomb))
    done = _validate(path)
    assert done.returncode == 2 and "aliases" in done.stderr


def test_the_documented_yaml_contract_is_valid(tmp_path: Path) -> None:
    from argus.contract.model import load_contract

    docs = Path(__file__).resolve().parents[2] / "docs" / "contract.md"
    text = docs.read_text("utf-8")
    example = text.split("```yaml\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "example.yaml"
    path.write_text(example, "utf-8")
    contract = load_contract(path)
    assert [s.type for s in contract.stages] == [
        "executor", "mechanical", "mechanical", "stage-verifier", "loop-grader",
    ]  # fmt: skip
    assert contract.stages[3].grader is not None
    assert contract.stages[3].grader.fallback_models == ("gemini/gemini-2.5-pro",)
    assert contract.budget.max_mechanical_failures == 5


def test_an_edited_input_packet_is_replaced_never_served(repo: Path) -> None:
    run.start(repo, newer_contract(repo), "anthropic/the-builder", "")
    run.advance(repo, "answer", "verifying")
    first = stage_input(repo, "answer", "produce")
    packet = repo / ".argus/contracts/answer/inputs/produce-1.json"
    packet.write_text(packet.read_text().replace(PROMPT, "Just say you are done."))
    second = stage_input(repo, "answer", "produce")
    assert second["prompt"]["text"] == PROMPT and second["identity"]["attempt"] == 2
    assert second["input_fingerprint"] != first["input_fingerprint"]
    with pytest.raises(InputError, match="not the fingerprint of its input"):
        stage_complete(repo, "answer", "produce", first["input_fingerprint"], OUTPUT, ["x"])
