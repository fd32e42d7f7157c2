"""The command judge: an agent CLI given the packet path, answering JSON on stdout."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

from argus.config import ProjectConfig
from argus.errors import ConfigError, JudgeError
from argus.evidence.content import FENCE_TAG
from argus.judge.base import run_judge
from argus.judge.command import CommandJudge
from argus.judge.registry import get_judge
from tests.judge.conftest import RUBRIC, PacketFactory, answer, config_for

# The stub agent: records its arguments and stdin, then plays the next scripted behaviour.
AGENT = textwrap.dedent(
    """
    import json, pathlib, sys, time
    here = pathlib.Path(sys.argv[0]).parent
    log = here / "calls.jsonl"
    prompt = sys.stdin.read()
    cwd = pathlib.Path.cwd()
    with log.open("a") as fh:
        call = {
            "argv": sys.argv[1:],
            "cwd": str(cwd),
            "stdin": prompt,
            "sees": sorted(p.name for p in cwd.iterdir()),
            "parent_sees": sorted(p.name for p in cwd.parent.iterdir()),
        }
        fh.write(json.dumps(call) + "\\n")
    script = json.loads((here / "script.json").read_text())
    calls = sum(1 for _ in log.open())
    step = script[min(calls, len(script)) - 1]
    if step["kind"] == "sleep":
        time.sleep(step["seconds"])
    if step["kind"] == "fail":
        print("agent crashed", file=sys.stderr)
        sys.exit(3)
    print(step.get("stdout", ""))
    """
)


@pytest.fixture
def agent(tmp_path: Path) -> Path:
    folder = tmp_path / "agent"
    folder.mkdir()
    script = folder / "agent.py"
    script.write_text(AGENT, "utf-8")
    return script


def _script(agent: Path, *steps: dict[str, object]) -> None:
    (agent.parent / "script.json").write_text(json.dumps(list(steps)), "utf-8")


def _calls(agent: Path) -> list[dict[str, object]]:
    log = agent.parent / "calls.jsonl"
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def _judge(agent: Path, root: Path, timeout: float = 30) -> CommandJudge:
    command = f"{sys.executable} {agent} --packet {{packet}}"
    return CommandJudge(config_for(root, backend="command", command=command, timeout=timeout))


def test_the_agent_gets_the_packet_path_and_the_prompt(
    agent: Path, make_packet: PacketFactory, tmp_path: Path
) -> None:
    _script(agent, {"kind": "ok", "stdout": answer({"hierarchy": 0.5})})
    packet = make_packet()
    verdict = run_judge(_judge(agent, tmp_path), packet, RUBRIC)
    assert verdict.outcome == "fail" and verdict.failed_dimensions == ("hierarchy",)
    (call,) = _calls(agent)
    assert call["argv"] == ["--packet", call["cwd"]]  # a copy of the packet, run in it
    prompt = str(call["stdin"])
    assert "judge-v1" in prompt and f"<{FENCE_TAG} " in prompt
    assert f"{call['cwd']}/render.png" in prompt  # images are named by path, in the copy
    assert {d["judged_by"] for d in verdict.to_json()["dimensions"].values()} == {"command"}


def test_a_whole_verdict_on_stdout_is_accepted_and_its_claims_rederived(
    agent: Path, make_packet: PacketFactory, tmp_path: Path
) -> None:
    whole = json.loads(answer({"typography": 0}))
    whole.update(all_pass=True, failed_dimensions=[], iteration=99, feature="other")
    _script(agent, {"kind": "ok", "stdout": "Here you go:\n" + json.dumps(whole)})
    verdict = run_judge(_judge(agent, tmp_path), make_packet(), RUBRIC)
    assert verdict.failed_dimensions == ("typography",)
    assert verdict.feature == "habits" and verdict.iteration == 1  # identity from the packet


def test_a_failing_exit_is_retried_once(
    agent: Path, make_packet: PacketFactory, tmp_path: Path
) -> None:
    _script(agent, {"kind": "fail"}, {"kind": "ok", "stdout": answer()})
    verdict = run_judge(_judge(agent, tmp_path), make_packet(reference="human"), RUBRIC)
    assert len(_calls(agent)) == 2
    assert verdict.outcome == "pass"


def test_unparsable_output_twice_is_inconclusive(
    agent: Path, make_packet: PacketFactory, tmp_path: Path
) -> None:
    _script(agent, {"kind": "ok", "stdout": "I think it looks great"})
    verdict = run_judge(_judge(agent, tmp_path), make_packet(), RUBRIC)
    assert len(_calls(agent)) == 2
    assert verdict.outcome == "inconclusive" and not verdict.all_pass
    assert "not JSON" in verdict.to_json()["error"]


def test_a_timeout_is_inconclusive(agent: Path, make_packet: PacketFactory, tmp_path: Path) -> None:
    _script(agent, {"kind": "sleep", "seconds": 30, "stdout": answer()})
    verdict = run_judge(_judge(agent, tmp_path, timeout=0.5), make_packet(), RUBRIC)
    assert verdict.outcome == "inconclusive"
    assert "did not answer within 0.5s (judge.timeout)" in verdict.to_json()["error"]


def test_an_empty_command_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"judge\.command is empty"):
        get_judge("command", config_for(tmp_path, backend="command"))


def test_a_command_on_the_implementers_model_is_refused(tmp_path: Path) -> None:
    config = config_for(
        tmp_path,
        backend="command",
        command="claude -p",
        model="claude-sonnet-4",
        implementer_model="anthropic/claude-sonnet-4",
    )
    with pytest.raises(JudgeError, match="implementer's model"):
        get_judge("command", config)


@pytest.mark.parametrize(
    ("judge_command", "implementer_command", "refused"),
    [
        ("claude -p --output-format text", "claude -p --output-format text {prompt_file}", True),
        ("codex exec -", "codex  exec - {prompt_file}", True),
        (
            "claude -p --model claude-opus-4",
            "claude -p --model claude-sonnet-4 {prompt_file}",
            False,
        ),
        ("codex exec -", "claude -p {prompt_file}", False),
    ],
)
def test_the_implementers_own_command_as_the_judge_is_refused(
    tmp_path: Path, judge_command: str, implementer_command: str, refused: bool
) -> None:
    config = ProjectConfig.model_validate(
        {
            "root": tmp_path,
            "judge": {"backend": "command", "command": judge_command},
            "implementer": {"command": implementer_command},
        }
    )
    if refused:
        with pytest.raises(JudgeError, match="the implementer's own command"):
            get_judge("command", config)
    else:
        get_judge("command", config)


def test_the_agent_sees_a_copy_of_the_packet_and_nothing_beside_it(
    agent: Path, make_packet: PacketFactory, tmp_path: Path
) -> None:
    packet = make_packet(reference="human")
    # As in the loop, the packet sits in an iteration directory beside the implementer's files.
    for name in ("prompt.md", "implementer.log", "implementer.json"):
        (packet.directory.parent / name).write_text("I changed the margins to make it pass")
    _script(agent, {"kind": "ok", "stdout": answer()})
    verdict = run_judge(_judge(agent, tmp_path), packet, RUBRIC)
    assert verdict.outcome == "pass"
    (call,) = _calls(agent)
    cwd = Path(str(call["cwd"]))
    assert not cwd.is_relative_to(tmp_path)  # outside the project and the run directory
    assert call["sees"] == sorted(p.name for p in packet.directory.iterdir())
    assert call["parent_sees"] == [cwd.name]  # the copy alone in its own temporary directory
    assert str(packet.directory) not in str(call["stdin"])  # images named inside the copy
    assert not cwd.exists()  # removed after the answer


def test_a_missing_program_is_named_and_inconclusive(
    make_packet: PacketFactory, tmp_path: Path
) -> None:
    missing = "argus-no-such-agent-x7"
    judge = CommandJudge(config_for(tmp_path, backend="command", command=f"{missing} {{packet}}"))
    with pytest.raises(JudgeError, match=f"'{missing}' not found on PATH"):
        judge.run_command(tmp_path, "prompt")
    verdict = run_judge(judge, make_packet(), RUBRIC)
    assert verdict.outcome == "inconclusive"
    assert f"'{missing}' not found on PATH" in verdict.to_json()["error"]
