"""Every `argus contract` action is reachable from the CLI and the MCP alike, and each contract
tool runs the action it names (argus.agents._mcp_contract.CLI_VERBS)."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
from typing import Any

import pytest

from argus.agents import _mcp_call, _mcp_contract, build_server
from argus.agents._mcp_contract import CLI_VERBS
from argus.cli import build_parser
from tests.agents.test_mcp import calls, result_of
from tests.conftest import PERSON_PASSPHRASE
from tests.contract.conftest import write_contract

RUN = {"contract_id": "ship-it"}
STAGE = {**RUN, "stage": "review"}
# Arguments each tool accepts (what it does with them is checked by the tests of its command).
ARGUMENTS: dict[str, dict[str, Any]] = {
    "contract_validate": {"contract": "contract.json"},
    "contract_doctor": {"contract": "contract.json", "grader_model": "openai/gpt-5"},
    "contract_pin": {"contract": "contract.json"},
    "contract_start": {"contract": "contract.json"},
    "contract_advance": RUN,
    "contract_status": RUN,
    "contract_verify": RUN,
    "contract_executor_stage_input": STAGE,
    "contract_executor_stage_complete": {
        **STAGE, "input_fingerprint": "a" * 64, "output_digest": "b" * 64,
        "evidence_refs": ["out.txt"],
    },
    "contract_grade": STAGE,
    "contract_judge": STAGE,
    "contract_stage_verifier_dispatch": STAGE,
    "contract_loop_grader_dispatch": STAGE,
    "contract_summary_write": {**RUN, "body": "## Summary\nshipped\n"},
    "contract_summary_show": RUN,
    "contract_complete": RUN,
    "contract_block": {**RUN, "reason": "waiting on the design team"},
    "contract_retarget": {**RUN, "contract": "amended.json"},
    "contract_pause": {**RUN, "reason": "a person looks"},
    "contract_resume": RUN,
    "contract_abort": {**RUN, "reason": "wrong plan"},
}  # fmt: skip
# Tools that answer without running a command of their own.
IN_PROCESS = {"contract_stop_evaluate"}


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def cli_actions() -> set[str]:
    """`contract ACTION` for every action of the CLI (`contract summary write|show` apart)."""
    found = set()
    for name, parser in _subcommands(
        _subcommands(build_parser(only="contract"))["contract"]
    ).items():
        what = next((a for a in parser._actions if a.dest == "what"), None)
        choices = list(what.choices) if what is not None and what.choices else [""]
        found |= {f"contract {name} {choice}".strip() for choice in choices}
    return found


def contract_tools(root: Path) -> set[str]:
    (names,) = asyncio.run(calls(build_server(root)))
    return {name for name in names if name.startswith("contract_")}


def test_every_contract_verb_has_a_tool_and_every_tool_a_verb(tmp_path: Path) -> None:
    tools = contract_tools(tmp_path)
    assert tools == set(CLI_VERBS), (
        "a contract tool is missing from CLI_VERBS (or listed but absent)"
    )
    verbs = {verb for verb in CLI_VERBS.values() if verb.startswith("contract ")}
    assert not cli_actions() - verbs, f"CLI actions with no MCP tool: {cli_actions() - verbs}"
    assert not verbs - cli_actions(), f"MCP tools naming no CLI action: {verbs - cli_actions()}"
    others = {verb for verb in CLI_VERBS.values() if not verb.startswith("contract ")}
    assert others == {"hook stop"} and "stop" in _subcommands(
        _subcommands(build_parser(only="hook"))["hook"]
    )


def test_the_check_fails_on_a_verb_without_a_tool(monkeypatch: pytest.MonkeyPatch) -> None:
    # The check above has teeth: a CLI action nobody mapped is reported by name.
    monkeypatch.delitem(CLI_VERBS, "contract_summary_show")
    verbs = {verb for verb in CLI_VERBS.values() if verb.startswith("contract ")}
    assert cli_actions() - verbs == {"contract summary show"}


def test_each_tool_runs_the_action_it_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mcp_types import ElicitResult

    ran: list[list[str]] = []

    def recorded(root: Path, args: list[str], *_: Any, **__: Any) -> dict[str, Any]:
        ran.append(args)
        return {"exit_code": 0, "stdout": "", "stderr": ""}

    monkeypatch.setattr(_mcp_call, "run_argus", recorded)
    monkeypatch.setattr(_mcp_contract, "run_argus", recorded)

    async def person(context: Any, params: Any) -> Any:
        return ElicitResult(action="accept", content={"confirm": True, "passphrase": "p"})

    assert set(ARGUMENTS) | IN_PROCESS == set(CLI_VERBS)
    requests = list(ARGUMENTS.items())
    _, *answers = asyncio.run(calls(build_server(tmp_path), *requests, elicitation=person))
    assert [a.is_error for a in answers] == [False] * len(requests), [
        result_of(a) for a in answers if a.is_error
    ]
    for (tool, _), args in zip(requests, ran, strict=True):
        words = args[: args.index("--")] if "--" in args else args
        assert " ".join(w for w in words if not w.startswith("-")) == CLI_VERBS[tool], tool


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("contract_pause", {**RUN, "reason": "a person looks"}),
        ("contract_abort", {**RUN, "reason": "wrong plan"}),
        ("contract_pin", {"contract": "contract.json"}),
    ],
)
def test_a_person_s_decision_is_refused_without_the_person(
    repo: Path, tool: str, arguments: dict[str, Any]
) -> None:
    from mcp.shared.exceptions import MCPError
    from mcp_types import ElicitResult

    from argus.contract import run
    from argus.contract.state import load_state

    run.start(repo, write_contract(repo), "anthropic/the-builder", "")
    with pytest.raises(BaseExceptionGroup) as info:
        asyncio.run(calls(build_server(repo), (tool, arguments)))  # no elicitation
    assert info.group_contains(MCPError, match="elicitation")

    async def guess(context: Any, params: Any) -> Any:
        return ElicitResult(action="accept", content={"confirm": True, "passphrase": "a guess"})

    _, refused = asyncio.run(calls(build_server(repo), (tool, arguments), elicitation=guess))
    assert refused.is_error is True and "person" in result_of(refused)["stderr"]
    assert load_state(repo, "ship-it").phase == "running"


def test_a_person_pauses_a_run_through_the_mcp(repo: Path) -> None:
    from mcp_types import ElicitResult

    from argus.contract import run
    from argus.contract.state import load_state

    run.start(repo, write_contract(repo), "anthropic/the-builder", "")
    asked: list[str] = []

    async def person(context: Any, params: Any) -> Any:
        asked.append(params.message)
        content = {"confirm": True, "passphrase": PERSON_PASSPHRASE}
        return ElicitResult(action="accept", content=content)

    request = ("contract_pause", {**RUN, "reason": "a person looks"})
    _, paused = asyncio.run(calls(build_server(repo), request, elicitation=person))
    assert paused.is_error is False, result_of(paused)
    state = load_state(repo, "ship-it")
    assert (state.phase, state.reason) == ("paused", "a person looks")
    assert "pause the contract run 'ship-it' because 'a person looks'" in asked[0]
