"""The composite GitHub Action (action.yml) run step by step on this machine, the way a runner
would: inputs and ``${{ }}`` expressions filled in, ``run`` steps through bash with
GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files, ``actions/setup-python`` skipped (Python is
here) and ``actions/upload-artifact`` replaced by a local fake that copies the path."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.ci.junit_schema import junit_errors
from tests.conftest import REPO_ROOT
from tests.gates.test_cli_gates import VIEW, project

# The install step makes sure a Chromium is there (and fetches one when it is not).
pytestmark = pytest.mark.browser

ACTION = REPO_ROOT / "action.yml"
EXPRESSION = re.compile(r"\$\{\{\s*([^}]+?)\s*\}\}")


class FakeRunner:
    def __init__(
        self,
        inputs: dict[str, str],
        workspace: Path,
        tmp: Path,
        github: dict[str, str] | None = None,
    ) -> None:
        self.github = github or {}  # the github context: "event.pull_request.body" ...
        self.action: dict[str, Any] = yaml.safe_load(ACTION.read_text())
        defaults = {k: str(v.get("default", "")) for k, v in self.action["inputs"].items()}
        self.inputs = {**defaults, **inputs}
        self.workspace = workspace
        self.output_file = tmp / "github_output"
        self.summary_file = tmp / "step_summary.md"
        self.artifacts = tmp / "artifacts"
        self.outputs: dict[str, dict[str, str]] = {}
        self.failed = False

    def value(self, expression: str) -> str:
        scope, _, name = expression.partition(".")
        if scope == "inputs":
            return self.inputs[name]
        if expression == "github.action_path":
            return str(REPO_ROOT)
        if scope == "github":
            return self.github.get(name, "")  # as on a runner: a missing value is empty
        match = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expression)
        if match:
            return self.outputs.get(match[1], {}).get(match[2], "")
        raise AssertionError(f"the fake runner does not know ${{{{ {expression} }}}}")

    def fill(self, text: str) -> str:
        return EXPRESSION.sub(lambda m: self.value(m[1]), text)

    def run(self) -> None:
        for step in self.action["runs"]["steps"]:
            condition = step.get("if")
            if self.failed and condition != "always()":
                continue
            uses = step.get("uses", "")
            if uses.startswith("actions/setup-python@"):
                continue
            if uses.startswith("actions/upload-artifact@"):
                self.upload(step["with"])
                continue
            self.bash(step)

    def upload(self, given: dict[str, str]) -> None:
        source = self.workspace / self.fill(given["path"])
        target = self.artifacts / self.fill(given["name"])
        if source.exists():
            shutil.copytree(source, target)

    def bash(self, step: dict[str, Any]) -> None:
        assert step["shell"] == "bash"
        env = {**os.environ, **{k: self.fill(str(v)) for k, v in step.get("env", {}).items()}}
        env.update(
            GITHUB_OUTPUT=str(self.output_file),
            GITHUB_STEP_SUMMARY=str(self.summary_file),
            ARGUS_PYTHON=sys.executable,
            PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        )
        env.pop("CI", None)
        self.output_file.write_text("")
        cwd = self.workspace / self.fill(step.get("working-directory", "."))
        done = subprocess.run(
            ["bash", "-e", "-c", self.fill(step["run"])],
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        step_outputs = dict(
            line.split("=", 1) for line in self.output_file.read_text().splitlines() if line
        )
        self.outputs[step.get("id", step.get("name", ""))] = step_outputs
        self.log = getattr(self, "log", "") + done.stdout + done.stderr
        if done.returncode != 0:
            self.failed = True
            self.exit_code = done.returncode


def test_the_action_runs_gates_reports_and_uploads(tmp_path: Path) -> None:
    root, sensed = project(tmp_path, page_errors=1)
    command = f"argus gates {' '.join(VIEW)} --sensed {sensed}"
    runner = FakeRunner({"command": command, "install": "none"}, root, tmp_path)
    runner.run()
    assert runner.outputs["run"]["exit-code"] == "1", runner.log
    assert runner.failed and runner.exit_code == 1  # the last step fails the job
    uploaded = runner.artifacts / "argus-report"
    assert junit_errors((uploaded / "junit.xml").read_bytes()) == []
    assert '"failed": 1' in (uploaded / "summary.json").read_text()
    gathered = uploaded / "files/argus/specs/habits/.argus-runs/list-populated-light"
    assert (gathered / "gate-result.json").is_file()
    summary = runner.summary_file.read_text()
    assert "| ❌ | console | habits.list-populated-light |" in summary
    assert "::error file=argus/specs/habits/spec.json" in runner.log


def test_a_green_command_passes_the_job(tmp_path: Path) -> None:
    root, sensed = project(tmp_path)
    command = f"argus gates {' '.join(VIEW)} --sensed {sensed}"
    runner = FakeRunner({"command": command, "install": "none"}, root, tmp_path)
    runner.run()
    assert runner.outputs["run"]["exit-code"] == "0", runner.log
    assert not runner.failed
    assert "5 of 5 passed" in runner.summary_file.read_text()


@pytest.mark.parametrize(
    ("command", "flag"), [("pytest tests -q", "--argus-reporter"), ("argus loop", "--reporter")]
)
def test_reporters_are_added_in_the_command_s_own_flags(
    tmp_path: Path, command: str, flag: str
) -> None:
    env = {**os.environ, "ARGUS_COMMAND": command, "ARGUS_OUT": "out", "CI": ""}
    script = REPO_ROOT / "scripts/argus-action.sh"
    shown = subprocess.run(
        [
            "bash",
            "-c",
            f'source <(sed -n "/^with_reporters()/,/^}}/p" {script}); out=out; with_reporters',
        ],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert (
        shown == f"{command} {flag} junit=out/junit.xml {flag} json=out/summary.json {flag} github"
    )


def _git(root: Path, *args: str) -> str:
    git = ["git", "-c", "user.email=a@b", "-c", "user.name=a"]
    done = subprocess.run([*git, *args], cwd=root, check=True, capture_output=True, text=True)
    return done.stdout.strip()


def _feature_repo(tmp_path: Path, reviewer_source: str) -> Path:
    """A repository with a review task and ``reviewer_source`` as its review command, whose
    feature branch wraps alerts (checked out: feature, one commit past main's base)."""
    root = tmp_path / "repo"
    (root / "argus" / "tasks").mkdir(parents=True)
    reviewer = tmp_path / "reviewer.py"
    reviewer.write_text(reviewer_source)
    (root / "argus.toml").write_text(
        f'[review]\nbackend = "command"\ncommand = "{sys.executable} {reviewer}"\n'
    )
    (root / "argus/tasks/ARGUS-1.toml").write_text(
        'acceptance = "- alerts are wrapped in brackets"\n'
    )
    _git(root, "init", "-q", "-b", "main")
    (root / "alerts.py").write_text("def fmt(a):\n    return a\n")
    _git(root, "add", ".")
    _git(root, "commit", "-qm", "base")
    _git(root, "checkout", "-qb", "feature")
    (root / "alerts.py").write_text("def fmt(a):\n    return f'[{a}]'\n")
    _git(root, "commit", "-qam", "wrap alerts")
    return root


def test_review_landed_reviews_the_merged_pr_of_the_event_and_never_fails_the_job(
    tmp_path: Path,
) -> None:
    root = _feature_repo(
        tmp_path,
        "import json, sys\nprompt = sys.stdin.read()\n"
        "ok = 'wrapped in brackets' in prompt and \"return f'[{a}]'\" in prompt\n"
        "ok = ok and 'other.py' not in prompt  # another PR's change is not this one's\n"
        "print(json.dumps({'verdict': 'partial' if ok else 'unmet', 'confidence': 0.6,"
        " 'rationale': 'saw the task and the diff' if ok else 'blind',"
        " 'missing_acceptance': []}))\n",
    )
    _git(root, "checkout", "-q", "main")
    (root / "other.py").write_text("x = 1\n")  # landed on main by someone else meanwhile
    _git(root, "add", "other.py")
    _git(root, "commit", "-qm", "another PR")
    _git(root, "merge", "-q", "--no-ff", "-m", "Merge pull request #5", "feature")
    merge = _git(root, "rev-parse", "HEAD")
    event = {
        "event.pull_request.number": "5",
        "event.pull_request.title": "--root=/elsewhere $(touch pwned)",
        "event.pull_request.body": "Wraps alerts.\n\nCloses ARGUS-1; see `$(touch pwned)`\n",
        "event.pull_request.merge_commit_sha": merge,
        "repository": "acme/alerts",
    }
    runner = FakeRunner({"review-landed": "true", "install": "none"}, root, tmp_path, event)
    runner.run()
    assert runner.outputs["run"]["exit-code"] == "0", runner.log
    assert not runner.failed, runner.log
    summary = runner.summary_file.read_text()
    assert "review 1: ARGUS-1 PR #5: partial (confidence 0.60)" in summary, runner.log
    assert "saw the task and the diff" in summary
    assert not (root / "pwned").exists(), "the PR's words are data, never shell"
    uploaded = runner.artifacts / "argus-report" / "review-landed.txt"
    assert "ARGUS-1" in uploaded.read_text()
    from argus.store import RunStore

    with RunStore.open(root) as store:
        (review,) = store.events(kind="acceptance_fidelity_review")
    assert review.payload["pr"]["title"] == "--root=/elsewhere $(touch pwned)"
    assert review.payload["evidence"] == {"merged commit": merge}


def test_review_landed_without_a_merged_pull_request_is_bad_input(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    runner = FakeRunner({"review-landed": "true", "install": "none"}, root, tmp_path)
    runner.run()
    assert runner.outputs["run"]["exit-code"] == "2", runner.log
    assert "review-landed needs a merged pull_request event" in runner.log


# Marks the reviewer reports back: which of the PR's two commits and another PR's change it
# was shown.
SEEN = {"first": "return f'[{a}]'", "second": "def test_fmt", "other": "x = 1"}


def _pr_of_two_commits(tmp_path: Path) -> Path:
    """A repository whose feature branch has two commits while another PR lands on main."""
    root = _feature_repo(
        tmp_path,
        "import json, sys\nprompt = sys.stdin.read()\n"
        f"seen = [k for k, v in {SEEN!r}.items() if v in prompt]\n"
        "print(json.dumps({'verdict': 'partial', 'confidence': 0.6,"
        " 'rationale': 'saw ' + '+'.join(seen), 'missing_acceptance': []}))\n",
    )
    (root / "test_alerts.py").write_text("def test_fmt():\n    pass\n")
    _git(root, "add", "test_alerts.py")
    _git(root, "commit", "-qm", "test the wrapping")
    _git(root, "checkout", "-q", "main")
    (root / "other.py").write_text("x = 1\n")
    _git(root, "add", "other.py")
    _git(root, "commit", "-qm", "another PR")
    return root


@pytest.mark.parametrize(
    ("how", "head_known", "seen"),
    [
        ("rebase", True, "first+second"),
        ("squash", True, "first+second"),
        ("rebase", False, "second"),
    ],
    ids=["rebase merge", "squash merge", "rebase merge, head not fetched"],
)
def test_review_landed_reviews_all_a_rebased_or_squashed_pr_brought(
    tmp_path: Path, how: str, head_known: bool, seen: str
) -> None:
    """A rebase merge puts copies of the PR's two commits on main: both are reviewed, not
    only the last (nor another PR's change). A squash is one commit with both. A rebase merge
    whose head the checkout cannot have is reviewed by its last commit, and the log says so."""
    root = _pr_of_two_commits(tmp_path)
    head = _git(root, "rev-parse", "feature")
    if how == "rebase":
        _git(root, "cherry-pick", "feature~1", "feature")  # authors, dates, messages kept
    else:
        _git(root, "merge", "-q", "--squash", "feature")
        _git(root, "commit", "-qm", "Wrap alerts (#5)")
    event = {
        "event.pull_request.number": "5",
        "event.pull_request.title": "Wrap alerts",
        "event.pull_request.body": "Closes ARGUS-1\n",
        "event.pull_request.merge_commit_sha": _git(root, "rev-parse", "HEAD"),
        "event.pull_request.head.sha": head if head_known else "0" * 40,
        "event.pull_request.commits": "2",
    }
    runner = FakeRunner({"review-landed": "true", "install": "none"}, root, tmp_path, event)
    runner.run()
    assert runner.outputs["run"]["exit-code"] == "0", runner.log
    summary = runner.summary_file.read_text()
    assert f"saw {seen}\n" in summary, runner.log
    told = "cannot be told from a squash" in runner.log
    assert told is not head_known, runner.log
