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
    def __init__(self, inputs: dict[str, str], workspace: Path, tmp: Path) -> None:
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
