"""`argus assert` end to end: packet, prompt, check, and judge with a command or a model."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.assertion.conftest import write_evidence
from tests.conftest import RunArgus
from tests.judge.stub_llm import StubLLM

ASSERTION = "The selected tier is highlighted."
PASS = {
    "verdict": "passed",
    "reason": "The Pro card has the accent border.",
    "citations": ["screenshot"],
}

JUDGE_SCRIPT = """
import json, os, sys
prompt = sys.stdin.read()
with open(os.environ["PROMPT_LOG"], "w") as fh:
    fh.write(prompt)
    fh.write("\\nCWD=" + os.getcwd() + "\\nARG=" + sys.argv[1])
answer = os.environ["ANSWER"]
if answer == "CRASH":
    sys.exit(3)
print(answer)
"""


def repo(tmp_path: Path, judge: str) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "argus.toml").write_text(judge, "utf-8")
    return root


def command_repo(tmp_path: Path) -> Path:
    script = tmp_path / "judge.py"
    script.write_text(JUDGE_SCRIPT, "utf-8")
    command = f"{sys.executable} {script} {{packet}}"
    return repo(tmp_path, f'[judge]\nbackend = "command"\ncommand = "{command}"\n')


def env_with(**extra: str) -> dict[str, str]:
    return {**os.environ, **extra}


def test_packet_prompt_and_check_by_hand(run_argus: RunArgus, tmp_path: Path) -> None:
    evidence = write_evidence(tmp_path / "captured")
    out = tmp_path / "packet"
    made = run_argus(
        "assert", "packet", "--assertion", ASSERTION,
        "--evidence", f"screenshot={evidence['screenshot']}",
        "--evidence", f"ui-tree={evidence['ui-tree']}",
        "--vocabulary", "plans are called tiers", "--out", str(out),
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    assert made.stdout.strip() == f"packet: {out / 'judge-packet.json'}"

    prompt = run_argus("assert", "prompt", "--packet", str(out))
    assert prompt.returncode == 0, prompt.stderr
    assert "a fresh judge for one assertion" in prompt.stdout
    assert ASSERTION in prompt.stdout and "plans are called tiers" in prompt.stdout
    assert str(out / "evidence" / "screenshot.png") in prompt.stdout
    assert "untrusted-page-content" in prompt.stdout and "Choose a tier" in prompt.stdout

    verdict = tmp_path / "verdict.json"
    verdict.write_text(json.dumps(PASS))
    checked = run_argus("assert", "check", "--packet", str(out), "--verdict", str(verdict))
    assert checked.returncode == 0, checked.stderr
    assert "result: passed" in checked.stdout
    assert "the judge's reason: The Pro card" in checked.stdout
    result = json.loads((out / "judge-result.json").read_text())
    assert (result["verdict"], result["code"]) == ("passed", None)

    verdict.write_text(json.dumps({**PASS, "citations": ["/elsewhere/step-3.png"]}))
    checked = run_argus(
        "assert", "check", "--packet", str(out), "--verdict", str(verdict), "--json"
    )  # fmt: skip
    assert checked.returncode == 1
    doc = json.loads(checked.stdout)
    assert (doc["verdict"], doc["code"]) == ("failed", "ASSERTION_INCONCLUSIVE")


def test_bad_input_is_one_line_and_exit_2(run_argus: RunArgus, tmp_path: Path) -> None:
    evidence = write_evidence(tmp_path / "captured")
    refused = run_argus(
        "assert", "packet", "--assertion", ASSERTION,
        "--evidence", f"screenshot={evidence['screenshot']}",
        "--evidence", "transcript=run.log", "--out", str(tmp_path / "p"),
    )  # fmt: skip
    assert refused.returncode == 2
    assert refused.stderr.count("\n") == 1 and "not evidence a judge may see" in refused.stderr
    assert "Traceback" not in refused.stderr
    missing = run_argus("assert", "check", "--packet", str(tmp_path / "nope"), "--verdict", "v")
    assert missing.returncode == 2 and missing.stderr.startswith("argus: ")


def test_judge_with_an_agent_command(run_argus: RunArgus, tmp_path: Path) -> None:
    root = command_repo(tmp_path)
    evidence = write_evidence(tmp_path / "captured")
    log = tmp_path / "prompt.txt"
    out = tmp_path / "judged"
    judged = run_argus(
        "assert", "judge", "--root", str(root), "--assertion", ASSERTION,
        "--evidence", f"screenshot={evidence['screenshot']}",
        "--evidence", f"ui-tree={evidence['ui-tree']}", "--out", str(out),
        env=env_with(ANSWER=json.dumps(PASS), PROMPT_LOG=str(log)),
    )  # fmt: skip
    assert judged.returncode == 0, judged.stderr
    assert "result: passed" in judged.stdout
    prompt = log.read_text()
    assert ASSERTION in prompt and "Choose a tier" in prompt
    # The agent ran in a copy of the packet outside the repository, and saw only that.
    cwd = prompt.split("CWD=")[1].splitlines()[0]
    assert not Path(cwd).resolve().is_relative_to(root.resolve())
    assert str(out) not in prompt.split("CWD=")[0]
    saved = json.loads((out / "judge-verdict.json").read_text())
    assert saved == PASS
    result = json.loads((out / "judge-result.json").read_text())
    assert result["asked"] == {"backend": "command", "model": None, "error": None}


@pytest.mark.parametrize(
    ("answer", "code"),
    [
        (json.dumps({**PASS, "verdict": "failed", "reason": "Nothing lit."}), "ASSERTION_FAILED"),
        (json.dumps({**PASS, "verdict": "inconclusive"}), "ASSERTION_INCONCLUSIVE"),
        (json.dumps({**PASS, "reason": ""}), "ASSERTION_INCONCLUSIVE"),
        ("CRASH", "ASSERTION_INCONCLUSIVE"),
    ],
)  # fmt: skip
def test_judge_that_does_not_pass_exits_1(
    run_argus: RunArgus, tmp_path: Path, answer: str, code: str
) -> None:
    root = command_repo(tmp_path)
    evidence = write_evidence(tmp_path / "captured")
    judged = run_argus(
        "assert", "judge", "--root", str(root), "--assertion", ASSERTION, "--json",
        "--evidence", f"screenshot={evidence['screenshot']}", "--out", str(tmp_path / "j"),
        env=env_with(ANSWER=answer, PROMPT_LOG=str(tmp_path / "log")),
    )  # fmt: skip
    assert judged.returncode == 1, judged.stderr
    doc = json.loads(judged.stdout)
    assert (doc["verdict"], doc["code"]) == ("failed", code)
    if answer == "CRASH":
        assert doc["reason"].startswith("the judge could not answer: judge command exited with 3")


def test_the_metric_judge_cannot_read_an_assertion(run_argus: RunArgus, tmp_path: Path) -> None:
    root = repo(tmp_path, '[judge]\nbackend = "metric"\n')
    evidence = write_evidence(tmp_path / "captured")
    judged = run_argus(
        "assert", "judge", "--root", str(root), "--assertion", ASSERTION,
        "--evidence", f"screenshot={evidence['screenshot']}", "--out", str(tmp_path / "j"),
    )  # fmt: skip
    assert judged.returncode == 2
    assert "cannot read an assertion" in judged.stderr and "litellm or command" in judged.stderr


@pytest.fixture
def stub() -> Iterator[StubLLM]:
    with StubLLM() as server:
        yield server


def test_judge_with_a_model_through_litellm(
    run_argus: RunArgus, tmp_path: Path, stub: StubLLM
) -> None:
    root = repo(
        tmp_path,
        '[judge]\nbackend = "litellm"\nmodel = "openai/stub-vision"\n'
        '[implementer]\nmodel = "anthropic/the-builder"\n',
    )
    evidence = write_evidence(tmp_path / "captured")
    env = env_with(OPENAI_API_KEY="sk-stub", OPENAI_API_BASE=stub.url)
    stub.queue(content=json.dumps({**PASS, "citations": ["screenshot", "ui-tree"]}))
    judged = run_argus(
        "assert", "judge", "--root", str(root), "--assertion", ASSERTION, "--json",
        "--evidence", f"screenshot={evidence['screenshot']}",
        "--evidence", f"ui-tree={evidence['ui-tree']}", "--out", str(tmp_path / "j"), env=env,
    )  # fmt: skip
    assert judged.returncode == 0, judged.stderr
    doc = json.loads(judged.stdout)
    assert doc["verdict"] == "passed"
    assert doc["asked"] == {"backend": "litellm", "model": "openai/stub-vision", "error": None}
    body = stub.requests[0]
    assert body["temperature"] == 0
    assert "a fresh judge for one assertion" in body["messages"][0]["content"]
    parts = body["messages"][1]["content"]
    assert any(p["type"] == "image_url" for p in parts)
    text = "\n".join(p["text"] for p in parts if p["type"] == "text")
    assert ASSERTION in text and "untrusted-page-content" in text

    stub.queue(status=400, content="model not found")
    failed = run_argus(
        "assert", "judge", "--root", str(root), "--assertion", ASSERTION, "--json",
        "--evidence", f"screenshot={evidence['screenshot']}", "--out", str(tmp_path / "j2"),
        env=env,
    )  # fmt: skip
    assert failed.returncode == 1
    assert json.loads(failed.stdout)["code"] == "ASSERTION_INCONCLUSIVE"
