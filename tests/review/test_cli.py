"""`argus review` end to end: a reviewer through LiteLLM or a command, recorded, never blocking."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from argus.store import RunStore
from tests.conftest import RunArgus
from tests.judge.stub_llm import StubLLM
from tests.review.conftest import SIGNOFF
from tests.review.test_diff import file_diff


def answer(**fields: Any) -> str:
    base = {
        "verdict": "met",
        "confidence": 0.9,
        "rationale": "Every row has its done button with a label.",
        "missing_acceptance": [],
    }
    return json.dumps({**base, **fields})


def review(run_argus: RunArgus, root: Path, stub: StubLLM, *extra: str) -> Any:
    env = {**os.environ, "OPENAI_API_KEY": "sk-stub", "OPENAI_API_BASE": stub.url}
    return run_argus(
        "review", "run", "--root", str(root), "--feature", "habits", "--pr", "42",
        "--pr-title", "Closes #7: done buttons", "--pr-body", "Adds the done button.",
        "--diff", str(root.parent / "pr.diff"), "--ci", "green", *extra, env=env,
    )  # fmt: skip


def events(root: Path, kind: str) -> list[dict[str, Any]]:
    with RunStore.open(root) as store:
        return [e.to_json() for e in store.events(kind=kind)]


def test_a_review_is_recorded_with_what_it_was_based_on(
    run_argus: RunArgus, habits: Path, stub: StubLLM
) -> None:
    stub.queue(content=answer(), model="stub-reasoner-2025-04-16")  # a dated snapshot answers
    done = review(run_argus, habits, stub, "--json")
    assert done.returncode == 0, done.stderr
    event = json.loads(done.stdout)
    assert event["kind"] == "acceptance_fidelity_review" and event["feature"] == "habits"
    payload = event["payload"]
    assert (payload["verdict"], payload["confidence"], payload["flag"]) == ("met", 0.9, "info")
    assert payload["pr"] == {"number": 42, "title": "Closes #7: done buttons"}
    assert payload["evidence"]["CI"] == "green" and "signed off" in payload["evidence"]["sign-off"]
    assert payload["reviewer"]["model"] == "openai/stub-reasoner"
    assert payload["reviewer"]["prompt"].startswith("acceptance-fidelity-v1+")
    assert payload["usage"]["input_tokens"] == 120 and payload["diff"]["files"] == 2
    models = (payload["usage"]["model_requested"], payload["usage"]["model_actual"])
    assert models == ("openai/stub-reasoner", "stub-reasoner-2025-04-16")
    assert payload["advisory"] is True
    assert events(habits, "acceptance_fidelity_review")[0]["payload"] == payload
    body = stub.requests[0]
    user = body["messages"][1]["content"]
    spec_md = (habits / "argus/specs/habits/spec.md").read_text()
    assert spec_md.strip().splitlines()[0] in user, "the acceptance is the feature's spec.md"
    assert "+added app.js 0 0" in user and body["temperature"] == 0


def test_the_why_given_on_the_command_line_reaches_the_reviewer_and_the_record(
    run_argus: RunArgus, habits: Path, stub: StubLLM
) -> None:
    stub.queue(content=answer())
    why = "People forget which habits they already did today."
    done = review(run_argus, habits, stub, "--why", why, "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["payload"]["why"] == why
    user = stub.requests[0]["messages"][1]["content"]
    assert f"### Why\n{why}\n\n### Acceptance" in user


@pytest.mark.parametrize(
    ("reply", "flag"),
    [
        ({"content": answer(verdict="partial", confidence=0.7)}, "needs_review"),
        ({"content": answer(verdict="unmet", confidence=0.95)}, "notify"),
        ({"content": answer(confidence=0.2)}, "low_confidence"),
        ({"content": "I think it is fine."}, "needs_review"),
        ({"status": 400, "content": "no such model"}, "needs_review"),
    ],
)
def test_a_review_never_blocks_and_never_touches_the_sign_off(
    run_argus: RunArgus, habits: Path, stub: StubLLM, reply: dict[str, Any], flag: str
) -> None:
    before = (habits / SIGNOFF).read_bytes()
    stub.queue(**reply)
    done = review(run_argus, habits, stub)
    assert done.returncode == 0, done.stderr
    assert f"flag {flag}" in done.stdout
    assert (habits / SIGNOFF).read_bytes() == before, "advice never writes a sign-off"
    (recorded,) = events(habits, "acceptance_fidelity_review")
    assert recorded["payload"]["flag"] == flag
    if "status" in reply or not reply["content"].startswith("{"):
        assert recorded["payload"]["verdict"] is None and recorded["payload"]["error"]
    notified = habits.parent / "notified.txt"
    assert notified.exists() == (flag == "notify")
    if flag == "notify":
        assert "habits PR #42: acceptance unmet" in notified.read_text()


def test_a_transport_failure_is_retried_once(
    run_argus: RunArgus, habits: Path, stub: StubLLM
) -> None:
    stub.queue(status=503, content="busy")
    stub.queue(content=answer())
    done = review(run_argus, habits, stub)
    assert done.returncode == 0 and "met (confidence 0.90); flag info" in done.stdout
    assert len(stub.requests) == 2


def test_people_answer_reviews_and_the_list_shows_what_is_open(
    run_argus: RunArgus, habits: Path, stub: StubLLM
) -> None:
    stub.queue(content=answer(verdict="partial", confidence=0.7, missing_acceptance=["dark"]))
    stub.queue(content=answer())
    assert review(run_argus, habits, stub).returncode == 0
    assert review(run_argus, habits, stub).returncode == 0
    first, second = (e["id"] for e in events(habits, "acceptance_fidelity_review"))
    listed = run_argus("review", "list", "--root", str(habits))
    assert listed.returncode == 0
    assert f"review {first}: habits PR #42: partial" in listed.stdout
    assert f"review {second}:" not in listed.stdout, "an informational met needs nobody"
    answered = run_argus(
        "review", "outcome", str(first), "follow_up", "--note", "filed #8", "--root", str(habits)
    )
    assert answered.returncode == 0, answered.stderr
    assert run_argus("review", "list", "--root", str(habits)).stdout.strip() == (
        "no reviews waiting for a person"
    )
    every = json.loads(run_argus("review", "list", "--all", "--json", "--root", str(habits)).stdout)
    assert [r["outcome"]["payload"] if r["outcome"] else None for r in every] == [
        {"review": first, "outcome": "follow_up", "note": "filed #8"},
        None,
    ]
    unknown = run_argus("review", "outcome", "999", "agreed", "--root", str(habits))
    assert unknown.returncode == 2 and "no review 999" in unknown.stderr


def test_a_task_with_an_acceptance_file_and_a_git_range(
    run_argus: RunArgus, tmp_path: Path, stub: StubLLM
) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "argus.toml").write_text('[review]\nmodel = "openai/stub-reasoner"\n')
    git = ["git", "-c", "user.email=a@b", "-c", "user.name=a"]
    subprocess.run([*git, "init", "-q", "-b", "main"], cwd=root, check=True)
    (root / "alerts.py").write_text("def fmt(a):\n    return a\n")
    subprocess.run([*git, "add", "."], cwd=root, check=True)
    subprocess.run([*git, "commit", "-qm", "one"], cwd=root, check=True)
    (root / "alerts.py").write_text("def fmt(a):\n    return f'[{a}]'\n")
    subprocess.run([*git, "commit", "-qam", "two"], cwd=root, check=True)
    (tmp_path / "task.md").write_text("- alerts are wrapped in brackets\n")
    stub.queue(content=answer())
    env = {**os.environ, "OPENAI_API_KEY": "sk-stub", "OPENAI_API_BASE": stub.url}
    done = run_argus(
        "review", "run", "--root", str(root), "--task", "ARGUS-385",
        "--acceptance", str(tmp_path / "task.md"), "--pr-title", "Closes ARGUS-385",
        "--git-range", "HEAD~1..HEAD", env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "review 1: ARGUS-385: met" in done.stdout
    user = stub.requests[0]["messages"][1]["content"]
    assert "alerts are wrapped in brackets" in user and "+    return f'[{a}]'" in user
    bad = run_argus(
        "review", "run", "--root", str(root), "--task", "T", "--acceptance",
        str(tmp_path / "task.md"), "--pr-title", "x", "--git-range", "nope..HEAD", env=env,
    )  # fmt: skip
    assert bad.returncode == 2 and bad.stderr.startswith("argus: git diff nope..HEAD")


def test_a_review_through_an_agent_command(run_argus: RunArgus, tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    script = tmp_path / "reviewer.py"
    script.write_text(
        "import sys, os\nprompt = sys.stdin.read()\n"
        f"open({str(tmp_path / 'seen.txt')!r}, 'w').write(prompt + '\\nCWD=' + os.getcwd())\n"
        f"print({answer(verdict='partial', confidence=0.6)!r})\n"
    )
    (root / "argus.toml").write_text(
        f'[review]\nbackend = "command"\ncommand = "{sys.executable} {script}"\n'
    )
    (tmp_path / "task.md").write_text("- the thing works\n")
    (tmp_path / "pr.diff").write_text(file_diff("src/thing.py"))
    done = run_argus(
        "review", "run", "--root", str(root), "--task", "T-1", "--acceptance",
        str(tmp_path / "task.md"), "--pr-title", "Thing", "--diff", str(tmp_path / "pr.diff"),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "partial (confidence 0.60); flag needs_review" in done.stdout
    seen = (tmp_path / "seen.txt").read_text()
    assert "the thing works" in seen and "+added src/thing.py 0 0" in seen
    assert not Path(seen.split("CWD=")[1]).resolve().is_relative_to(root.resolve())


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--feature", "nope"], "no spec.md for feature 'nope'"),
        (["--task", "T"], "--task T: no task file argus/tasks/T.toml and no feature of that"),
        (["--task", "../../etc/passwd"], "--task ../../etc/passwd: no task file"),
    ],
)
def test_bad_input_is_one_line(
    run_argus: RunArgus, habits: Path, args: list[str], message: str
) -> None:
    done = run_argus(
        "review", "run", "--root", str(habits), *args, "--pr-title", "x",
        "--diff", str(habits.parent / "pr.diff"),
    )  # fmt: skip
    assert done.returncode == 2 and message in done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


@pytest.mark.parametrize(
    "text",
    [
        "",
        "  \n\n",
        "--- app.js\t2024-01-01\n+++ app.js\t2024-01-02\n@@ -1 +1 @@\n-old\n+new\n",
    ],
)
def test_a_diff_without_file_sections_is_bad_input(
    run_argus: RunArgus, habits: Path, stub: StubLLM, text: str
) -> None:
    (habits.parent / "pr.diff").write_text(text)
    done = review(run_argus, habits, stub)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert done.stderr == (
        f"argus: {habits.parent / 'pr.diff'}: nothing to review: the diff has no `diff --git` "
        "file sections; pass git diff output\n"
    )
    assert not stub.requests and not events(habits, "acceptance_fidelity_review")


def test_an_empty_git_range_is_bad_input(run_argus: RunArgus, tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "argus.toml").write_text('[review]\nmodel = "openai/stub-reasoner"\n')
    git = ["git", "-c", "user.email=a@b", "-c", "user.name=a"]
    subprocess.run([*git, "init", "-q", "-b", "main"], cwd=root, check=True)
    (root / "a.py").write_text("x = 1\n")
    subprocess.run([*git, "add", "."], cwd=root, check=True)
    subprocess.run([*git, "commit", "-qm", "one"], cwd=root, check=True)
    (tmp_path / "task.md").write_text("- x is one\n")
    done = run_argus(
        "review", "run", "--root", str(root), "--task", "T", "--acceptance",
        str(tmp_path / "task.md"), "--pr-title", "x", "--git-range", "HEAD..HEAD",
    )  # fmt: skip
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert done.stderr.startswith("argus: git diff HEAD..HEAD: nothing to review")


def test_a_long_body_is_cut_and_caps_a_met(
    run_argus: RunArgus, habits: Path, stub: StubLLM
) -> None:
    config = habits / "argus.toml"
    config.write_text(config.read_text() + "max_diff_chars = 25000\n")  # 5000 for the body
    body = "Adds the done button. " + "Lorem ipsum. " * 1000
    stub.queue(content=answer(confidence=0.95))
    done = review(run_argus, habits, stub, "--pr-body", body, "--json")
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)["payload"]
    assert (payload["verdict"], payload["confidence"], payload["flag"]) == (
        "met",
        0.5,
        "low_confidence",
    )
    assert payload["cut_for_length"] == ["PR body"]
    assert "the PR body cut for length" in payload["notes"][0]
    user = stub.requests[0]["messages"][1]["content"]
    assert "…[cut for length]" in user and user.count("Lorem ipsum.") == (5000 - 22 - 17) // 13
