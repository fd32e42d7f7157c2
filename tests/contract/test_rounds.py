"""A reviewer stage's grading rounds spent on NO-GO block the run, through the CLI and the MCP."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from argus.cli import main
from tests.contract.conftest import write_contract
from tests.contract.test_run import GO, NO_GO

BLOCKER = "grading rounds spent on 'review': 2 round(s) without a GO (the last: NO-GO)"


def contract(repo: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["contract", *args, "--root", str(repo)])
    out, err = capsys.readouterr()
    return code, out + err


@pytest.fixture
def verifying(repo: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    (repo / "done.txt").write_text("done")
    assert contract(repo, capsys, "start", str(write_contract(repo)))[0] == 0
    assert contract(repo, capsys, "advance", "ship-it", "verifying")[0] == 0
    assert contract(repo, capsys, "grade", "ship-it", "check")[0] == 0
    return repo


def test_rounds_spent_on_no_go_block_the_run_through_the_cli(
    verifying: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GRADER_ANSWER", NO_GO)
    code, said = contract(verifying, capsys, "judge", "ship-it", "review")
    assert code == 1 and said.startswith("stage review: failed: done.txt is empty")
    code, said = contract(verifying, capsys, "judge", "ship-it", "review")
    assert code == 1 and said.startswith(f"stage review: blocked: {BLOCKER}")
    code, said = contract(verifying, capsys, "status", "ship-it", "--json")
    (run,) = json.loads(said)
    assert code == 0 and run["phase"] == "blocked" and run["reason"].startswith(BLOCKER)
    assert run["stages"]["review"]["status"] == "blocked"


def test_a_go_in_the_last_round_passes_through_the_cli(
    verifying: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GRADER_ANSWER", NO_GO)
    assert contract(verifying, capsys, "judge", "ship-it", "review")[0] == 1
    monkeypatch.setenv("GRADER_ANSWER", GO)
    code, said = contract(verifying, capsys, "judge", "ship-it", "review")
    assert code == 0 and said.startswith("stage review: passed")
    (run,) = json.loads(contract(verifying, capsys, "status", "ship-it", "--json")[1])
    assert run["phase"] == "verifying"


@pytest.mark.usefixtures("warm_tool_calls")  # its tool calls forked warm (tests/agents too)
def test_rounds_spent_on_no_go_block_the_run_through_the_mcp(
    verifying: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from argus.agents import build_server
    from tests.agents.test_mcp import calls, result_of

    monkeypatch.setenv("GRADER_ANSWER", NO_GO)
    review = {"contract_id": "ship-it", "stage": "review"}
    _, first, second, status = asyncio.run(
        calls(
            build_server(verifying),
            ("contract_judge", review),
            ("contract_judge", review),
            ("contract_status", {"contract_id": "ship-it"}),
        )
    )
    assert "stage review: failed" in result_of(first)["stdout"]
    blocked = result_of(second)
    assert second.is_error is True and f"stage review: blocked: {BLOCKER}" in blocked["stdout"]
    (run,) = result_of(status)["json"]
    assert run["phase"] == "blocked" and run["reason"].startswith(BLOCKER)
