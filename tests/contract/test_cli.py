"""`argus contract` and `argus hook stop` as an agent and Claude Code call them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import RunArgus
from tests.contract.conftest import SUMMARY, write_contract

GO = json.dumps(
    {"verdict": "GO", "evidence": "done.txt reads 'done'", "findings": [], "nonce": "@NONCE@"}
)


def stop_hook(repo: Path) -> str:
    """What `argus hook stop` prints for a Stop event in ``repo`` (run from elsewhere)."""
    event = json.dumps({"session_id": "s", "cwd": str(repo), "stop_hook_active": False})
    done = subprocess.run(
        [sys.executable, "-m", "argus", "hook", "stop"],
        input=event,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=repo.parent,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_session_cannot_stop_until_the_contract_is_closed(
    run_argus: RunArgus, repo: Path
) -> None:
    env = {**os.environ, "GRADER_ANSWER": GO}

    def contract(*args: str) -> subprocess.CompletedProcess[str]:
        return run_argus("contract", *args, "--root", str(repo), env=env)

    assert contract("start", str(write_contract(repo))).returncode == 0
    blocked = json.loads(stop_hook(repo))
    assert blocked["decision"] == "block" and "'ship-it' is running" in blocked["reason"]
    assert contract("advance", "ship-it", "verifying").returncode == 0
    failed = contract("grade", "ship-it", "check")
    assert failed.returncode == 1 and "stage check: failed: exit 3" in failed.stdout
    (repo / "done.txt").write_text("done")
    passed = contract("grade", "ship-it", "check")
    assert passed.returncode == 0 and "stage check: passed: exit 0" in passed.stdout
    assert "argus contract judge ship-it review" in json.loads(stop_hook(repo))["reason"]
    early = contract("complete", "ship-it")
    assert early.returncode == 1 and "review not passed yet" in early.stderr
    judged = contract("judge", "ship-it", "review")
    assert judged.returncode == 0 and "stage review: passed" in judged.stdout
    wrong = contract("grade", "ship-it", "review")
    assert wrong.returncode == 2 and "is a judgment stage" in wrong.stderr
    unsummarized = contract("complete", "ship-it")
    assert unsummarized.returncode == 1 and "E_CLOSURE_SUMMARY_MISSING" in unsummarized.stderr
    assert "closure-summary-missing" in json.loads(stop_hook(repo))["reason"]
    wrote = subprocess.run(
        [sys.executable, "-m", "argus", "contract", "summary", "write", "ship-it"],
        input=SUMMARY,
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
    )
    assert wrote.returncode == 0, wrote.stderr
    closed = contract("complete", "ship-it")
    assert closed.returncode == 0 and "summary:" in closed.stdout
    assert stop_hook(repo) == "", "a closed contract lets the session end"
    status = json.loads(contract("status", "--json").stdout)
    assert [s["phase"] for s in status] == ["completed"]


def test_the_hook_allows_a_directory_without_contracts(tmp_path: Path) -> None:
    assert stop_hook(tmp_path) == ""


def test_bad_input_is_one_line(run_argus: RunArgus, repo: Path) -> None:
    done = run_argus("contract", "grade", "nope", "x", "--root", str(repo))
    assert done.returncode == 2 and "no contract run 'nope'" in done.stderr
    assert done.stderr.count("\n") == 1
    (repo / "bad.json").write_text('{"id": "x", "name": "x", "stages": []}')
    done = run_argus("contract", "start", str(repo / "bad.json"), "--root", str(repo))
    assert done.returncode == 2 and "argus schema contract" in done.stderr


def test_only_a_person_pauses_or_aborts(
    run_argus: RunArgus, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ARGUS_PERSON_KEY")  # an agent: it does not know the passphrase
    assert (
        run_argus("contract", "start", str(write_contract(repo)), "--root", str(repo)).returncode
        == 0
    )
    for action in ("pause", "abort"):
        done = run_argus(
            "contract", action, "ship-it", "--reason", "done enough", "--root", str(repo)
        )
        assert done.returncode == 2 and "a person's decision" in done.stderr
    assert json.loads(stop_hook(repo))["decision"] == "block", "the run still holds the session"


def test_a_run_id_is_a_name_never_a_path(run_argus: RunArgus, repo: Path) -> None:
    done = run_argus("contract", "status", "../../evil", "--root", str(repo))
    assert done.returncode == 2 and "is not a contract id" in done.stderr
