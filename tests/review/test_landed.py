"""`argus review landed`: after a merge, the PR body's closing references name the tasks, each
is found where tasks live and reviewed, and nothing about it ever blocks."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import RunArgus
from tests.judge.stub_llm import StubLLM
from tests.review.test_cli import answer, events

ALERTS = """title = "Alerts show their runbook"
why = "On-call could not find the runbook from a paged alert."
acceptance = '''
- every alert message ends with its runbook link
- an alert without a runbook says so
'''
"""


@pytest.fixture
def tasks(habits: Path) -> Path:
    folder = habits / "argus" / "tasks"
    folder.mkdir(parents=True)
    (folder / "ARGUS-385.toml").write_text(ALERTS)
    (folder / "7.toml").write_text('title = "Done buttons"\nfeature = "habits"\n')
    return folder


def landed(run_argus: RunArgus, root: Path, stub: StubLLM, body: str, *extra: str) -> Any:
    env = {**os.environ, "OPENAI_API_KEY": "sk-stub", "OPENAI_API_BASE": stub.url}
    env.pop("GITHUB_REPOSITORY", None)
    return run_argus(
        "review", "landed", "--root", str(root), "--pr", "42", "--pr-title", "Alert links",
        "--pr-body-file", "-", "--diff", str(root.parent / "pr.diff"), "--merged-commit",
        "abc123", *extra, env=env, stdin=body.encode(),
    )  # fmt: skip


def test_each_task_the_body_closes_is_found_and_reviewed(
    run_argus: RunArgus, habits: Path, tasks: Path, stub: StubLLM
) -> None:
    stub.queue(content=answer())
    stub.queue(content=answer(verdict="partial", confidence=0.7, missing_acceptance=["none"]))
    body = (
        "Links alerts to runbooks.\n\nCloses #7 and fixes ARGUS-385\n"
        "Fixes other/lib#3\nResolves ARGUS-9\n<!-- Closes #ISSUE -->\n"
    )
    done = landed(run_argus, habits, stub, body, "--repo", "acme/habits")
    assert done.returncode == 0, done.stderr
    assert "review 1: #7 PR #42: met" in done.stdout
    assert "review 2: ARGUS-385 PR #42: partial" in done.stdout
    assert "set aside: Fixes other/lib#3: an issue of other/lib, not of acme/habits" in done.stdout
    assert (
        "set aside: Resolves ARGUS-9: no task file argus/tasks/ARGUS-9.toml and no feature of "
        "that name" in done.stdout
    )
    first, second = (m[1]["content"] for m in (r["messages"] for r in stub.requests))
    spec_md = (habits / "argus/specs/habits/spec.md").read_text()
    assert spec_md.strip().splitlines()[0] in first, "#7's task takes the feature's spec.md"
    assert "## Task: Done buttons" in first
    assert "## Task: Alerts show their runbook" in second
    assert "### Why\nOn-call could not find the runbook" in second
    assert "every alert message ends with its runbook link" in second
    assert "spec.md" not in second.split("## Deterministic evidence")[0]
    recorded = events(habits, "acceptance_fidelity_review")
    assert [e["feature"] for e in recorded] == ["#7", "ARGUS-385"]
    seven, alerts = (e["payload"] for e in recorded)
    assert seven["task"] == {"id": "#7", "source": "argus/tasks/7.toml", "feature": "habits"}
    assert seven["trigger"] == {"by": "landed", "reference": "Closes #7"}
    assert alerts["why"] == "On-call could not find the runbook from a paged alert."
    assert alerts["evidence"] == {"merged commit": "abc123"}
    assert "signed off" in seven["evidence"]["sign-off"]


def test_a_body_that_closes_nothing_is_nothing_to_do(
    run_argus: RunArgus, habits: Path, tasks: Path, stub: StubLLM
) -> None:
    (habits.parent / "pr.diff").unlink()  # not even read: there is nothing to review
    done = landed(run_argus, habits, stub, "Refactors the formatter; see #7.")
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        "no closing reference (Closes #N, Fixes ID, …) in the PR body: nothing to review\n"
    )
    assert not stub.requests and not events(habits, "acceptance_fidelity_review")


def test_json_says_what_was_reviewed_and_what_was_set_aside(
    run_argus: RunArgus, habits: Path, tasks: Path, stub: StubLLM
) -> None:
    stub.queue(content=answer(verdict="unmet", confidence=0.95))
    env_repo = {"GITHUB_REPOSITORY": "acme/habits"}
    body = "Fixes acme/habits#7, fixes ARGUS-1"
    env = {**os.environ, "OPENAI_API_KEY": "sk-stub", "OPENAI_API_BASE": stub.url, **env_repo}
    done = run_argus(
        "review", "landed", "--root", str(habits), "--pr-title", "x", "--pr-body-file", "-",
        "--diff", str(habits.parent / "pr.diff"), "--json", env=env, stdin=body.encode(),
    )  # fmt: skip
    assert done.returncode == 0, "an unmet review is advice: the merge stays merged"
    out = json.loads(done.stdout)
    assert out["references"] == ["Fixes acme/habits#7", "fixes ARGUS-1"]
    assert [r["payload"]["flag"] for r in out["reviews"]] == ["notify"]
    assert out["set_aside"] == [
        {
            "reference": "fixes ARGUS-1",
            "reason": "no task file argus/tasks/ARGUS-1.toml and no feature of that name",
        }
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('title = "x"\nacceptance = "- a"\nowner = "me"\n', "owner: unknown key"),
        ('acceptance = "- a"\nfeature = "habits"\n', "give the task's acceptance (text) or"),
        ('title = "x"\n', "give the task's acceptance (text) or"),
        ("acceptance = [1]\n", "acceptance: must be text"),
        ("acceptance = '''\n", "not valid TOML"),
        ('feature = "nope"\n', "no spec.md for feature 'nope'"),
        ('feature = "../../../etc"\n', "invalid feature name '../../../etc'"),
    ],
)
def test_a_bad_task_file_is_bad_input_before_anything_is_asked(
    run_argus: RunArgus, habits: Path, tasks: Path, stub: StubLLM, text: str, message: str
) -> None:
    (tasks / "ARGUS-2.toml").write_text(text)
    done = landed(run_argus, habits, stub, "Closes #7, closes ARGUS-2")
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert message in done.stderr and "Traceback" not in done.stderr
    if not message.startswith(("no spec.md", "invalid feature")):
        assert "ARGUS-2.toml" in done.stderr, "the line names the file"
    assert not stub.requests and not events(habits, "acceptance_fidelity_review")


def test_review_run_finds_a_task_by_id_and_the_command_line_overrides_it(
    run_argus: RunArgus, habits: Path, tasks: Path, stub: StubLLM
) -> None:
    stub.queue(content=answer())
    env = {**os.environ, "OPENAI_API_KEY": "sk-stub", "OPENAI_API_BASE": stub.url}
    done = run_argus(
        "review", "run", "--root", str(habits), "--task", "ARGUS-385", "--why", "Paging hurts.",
        "--pr-title", "x", "--diff", str(habits.parent / "pr.diff"), "--json", env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)["payload"]
    assert (payload["title"], payload["why"]) == ("Alerts show their runbook", "Paging hurts.")
    assert payload["task"]["source"] == "argus/tasks/ARGUS-385.toml"
    assert (
        "every alert message ends with its runbook link"
        in (stub.requests[0]["messages"][1]["content"])
    )
