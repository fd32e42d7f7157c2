"""The implementer runner: templating, status, crash, timeout, missing command."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from argus.errors import ConfigError
from argus.loop._implementer import expand_command, run_implementer
from argus.loop.records.status import Status

VALUES = {
    "prompt_file": "/tmp/p q/prompt.md",
    "feature": "habits",
    "target": "list",
    "state": "populated",
    "appearance": "dark",
    "workdir": "/repo",
}


def test_expand_fills_placeholders_inside_one_argument_each() -> None:
    argv = expand_command("agent --prompt={prompt_file} -m 'fix {target}/{state}'", VALUES)
    assert argv == ["agent", "--prompt=/tmp/p q/prompt.md", "-m", "fix list/populated"]


def test_expand_fills_the_model() -> None:
    argv = expand_command("agent --model {model} {prompt_file}", {**VALUES, "model": "gpt-4o"})
    assert argv == ["agent", "--model", "gpt-4o", "/tmp/p q/prompt.md"]


def test_expand_leaves_json_braces_alone() -> None:
    argv = expand_command("""agent '{"a": 1}' {appearance}""", VALUES)
    assert argv == ["agent", '{"a": 1}', "dark"]


@pytest.mark.parametrize(
    ("template", "message"),
    [
        ("", "empty"),
        ("agent {diff}", "unknown placeholder {diff}"),
        ("agent 'unclosed", "cannot split"),
    ],
)
def test_expand_rejects_bad_templates(template: str, message: str) -> None:
    with pytest.raises(ConfigError, match="implementer"):
        expand_command(template, VALUES)
    try:
        expand_command(template, VALUES)
    except ConfigError as err:
        assert message in str(err)


def _script(tmp_path: Path, body: str) -> str:
    script = tmp_path / "impl.py"
    script.write_text(body)
    return f"{sys.executable} {script} {{prompt_file}} {{target}}"


def test_status_and_output_are_recorded(tmp_path: Path) -> None:
    command = _script(
        tmp_path,
        "import sys, os\n"
        "print('prompt', open(sys.argv[1]).read())\n"
        "print('env', os.environ['ARGUS_TARGET'])\n"
        "print('STATUS: DONE_WITH_CONCERNS', file=sys.stderr)\n",
    )
    prompt = tmp_path / "prompt.md"
    prompt.write_text("fix it")
    log = tmp_path / "it" / "implementer.log"
    result = run_implementer(
        command,
        {**VALUES, "prompt_file": str(prompt)},
        cwd=tmp_path,
        timeout=30,
        log_path=log,
    )
    assert result.outcome == "ok"
    assert result.status is Status.DONE_WITH_CONCERNS
    assert result.exit_code == 0
    text = log.read_text()
    assert "prompt fix it" in text
    assert "env list" in text


def test_crash_is_data_not_an_exception(tmp_path: Path) -> None:
    command = _script(tmp_path, "import sys\nprint('STATUS: BLOCKED')\nsys.exit(3)\n")
    result = run_implementer(command, VALUES, cwd=tmp_path, timeout=30, log_path=tmp_path / "log")
    assert result.outcome == "crashed"
    assert result.exit_code == 3
    assert result.status is Status.BLOCKED
    assert "code 3" in result.error


def test_missing_status_line_is_reported(tmp_path: Path) -> None:
    command = _script(tmp_path, "print('edited')\n")
    result = run_implementer(command, VALUES, cwd=tmp_path, timeout=30, log_path=tmp_path / "log")
    assert result.outcome == "no_status"
    assert result.status is None
    assert "STATUS" in result.error


def test_command_that_does_not_exist(tmp_path: Path) -> None:
    result = run_implementer(
        "no-such-agent-xyz {prompt_file}",
        VALUES,
        cwd=tmp_path,
        timeout=30,
        log_path=tmp_path / "log",
    )
    assert result.outcome == "not_started"
    assert "no-such-agent-xyz" in result.error


def _alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    return "\nState:\tZ" not in status  # a zombie is dead, just not yet reaped


def test_timeout_stops_the_whole_process_group(tmp_path: Path) -> None:
    pid_file = tmp_path / "grandchild.pid"
    # The implementer spawns a grandchild; a timeout must stop the grandchild too.
    command = _script(
        tmp_path,
        "import subprocess, sys, time\n"
        "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
        f"open({str(pid_file)!r}, 'w').write(str(child.pid))\n"
        "time.sleep(60)\n",
    )
    result = run_implementer(command, VALUES, cwd=tmp_path, timeout=2, log_path=tmp_path / "log")
    assert result.outcome == "timeout", (tmp_path / "log").read_text()
    assert result.timed_out
    assert result.exit_code is None
    grandchild = int(pid_file.read_text())
    for _ in range(50):
        if not _alive(grandchild):
            break
        time.sleep(0.1)
    assert not _alive(grandchild)
