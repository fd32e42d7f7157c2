"""Closing a contract run (argus.contract._completion): from verifying only, on the working tree
its passes were earned on, with every required stage proven by the ledger and a fresh summary;
the closure report lists every stage as the run ends."""

from __future__ import annotations

import json
import subprocess
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from argus.contract import run
from argus.contract._completion import NotReady
from argus.contract.model import load_contract
from argus.contract.state import load_state, state_dir
from argus.contract.summary import SummaryMissing
from argus.errors import InputError
from tests.contract.conftest import pin_as_the_person, summarize, write_contract
from tests.judge.stub_llm import StubLLM

GO = json.dumps(
    {"verdict": "GO", "evidence": "done.txt reads 'done'", "findings": [], "nonce": "@NONCE@"}
)


def git(repo: Path, *args: str) -> None:
    base = ["git", "-c", "user.email=a@b", "-c", "user.name=a"]
    subprocess.run([*base, *args], cwd=repo, check=True, capture_output=True)


def passed(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both stages of the run passed on the current tree."""
    run.advance(repo, "ship-it", "verifying")
    assert run.grade(repo, "ship-it", "check").status == "passed"
    monkeypatch.setenv("GRADER_ANSWER", GO)
    assert run.judge(repo, "ship-it", "review").status == "passed"


@pytest.fixture
def committed(repo: Path) -> Path:
    """A git repository (so passes belong to a working tree) with a started run."""
    (repo / "done.txt").write_text("done")
    (repo / ".gitignore").write_text(".argus/\n")
    git(repo, "init", "-q")
    write_contract(repo)
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "work")
    run.start(repo, repo / "contract.json", "anthropic/the-builder", "")
    return repo


def report_lines(repo: Path, written: Path) -> list[str]:
    """The closure report expected for the completed run, line by line, and its time."""
    contract = load_contract(repo / "contract.json")
    state = load_state(repo, "ship-it")
    rows = []
    for stage in contract.stages:
        s = state.stages[stage.id]
        rows.append(
            f"| {stage.id} | {stage.type} | {s.status} | {s.attempts} | "
            f"{s.evidence_sha256 or ''} | {s.worktree or ''} |"
        )
    return [
        "# Ship the feature",
        "",
        f"- contract: ship-it (sha256 {contract.digest})",
        f"- run: {state.run_id}",
        f"- fingerprint: {state.fingerprint}",
        "- completed: TIME",
        "",
        "| stage | type | status | attempts | evidence sha256 | working tree |",
        "| --- | --- | --- | --- | --- | --- |",
        *rows,
        "",
        f"## The executor's closure summary ({written.name})",
        "",
        *written.read_text("utf-8").splitlines(),
    ]


def check_report(repo: Path, path: Path, written: Path) -> None:
    assert path == state_dir(repo, "ship-it") / "summary.md"
    text = path.read_text("utf-8")
    assert text.endswith("\n") and not text.endswith("\n\n")
    lines = text.splitlines()
    completed = lines[5].removeprefix("- completed: ")
    assert lines[5] != completed
    assert datetime.fromisoformat(completed).utcoffset() == timedelta(0)
    lines[5] = "- completed: TIME"
    assert lines == report_lines(repo, written)


def test_a_completed_run_writes_its_closure_report(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run.start(repo, write_contract(repo), "anthropic/the-builder", "")
    (repo / "done.txt").write_text("done")
    passed(repo, monkeypatch)
    written = summarize(repo)
    path = run.complete(repo, "ship-it")
    state = load_state(repo, "ship-it")
    assert state.phase == "completed"
    assert state.reason == "every required stage passed"
    assert [h["to"] for h in state.history] == ["running", "verifying", "completed"]
    check_report(repo, path, written)
    rows = [line for line in path.read_text().splitlines() if line.startswith("| check ")]
    assert rows[0].endswith(" |  |"), "no git: no working tree recorded"
    with pytest.raises(InputError):  # completed is final
        run.complete(repo, "ship-it")


def test_a_stage_not_required_and_never_run_is_reported_pending_with_no_evidence(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_contract(repo)
    data = json.loads(path.read_text("utf-8"))
    notes = {**data["stages"][0], "id": "notes", "name": "Notes", "required": False}
    data["stages"].append(notes)
    path.write_text(json.dumps(data), "utf-8")
    pin_as_the_person(repo, path)
    run.start(repo, path, "anthropic/the-builder", "")
    (repo / "done.txt").write_text("done")
    passed(repo, monkeypatch)
    summarize(repo)
    report = run.complete(repo, "ship-it").read_text("utf-8").splitlines()
    assert [line for line in report if line.startswith("| notes ")] == [
        "| notes | mechanical | pending | 0 |  |  |"
    ]


def test_on_a_git_tree_the_report_names_each_pass_s_tree(
    committed: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    passed(committed, monkeypatch)
    written = summarize(committed)
    path = run.complete(committed, "ship-it")
    check_report(committed, path, written)
    state = load_state(committed, "ship-it")
    assert all(len(s.worktree or "") == 64 for s in state.stages.values())


def test_a_run_completes_only_from_verifying(started_repo: Path) -> None:
    summarize(started_repo)
    with pytest.raises(InputError) as refused:
        run.complete(started_repo, "ship-it")
    assert not isinstance(refused.value, NotReady)
    assert "'ship-it'" in str(refused.value) and "running" in str(refused.value)  # which, why
    assert load_state(started_repo, "ship-it").phase == "running"


@pytest.fixture
def started_repo(repo: Path) -> Path:
    (repo / "done.txt").write_text("done")
    run.start(repo, write_contract(repo), "anthropic/the-builder", "")
    return repo


def test_an_unproven_stage_is_not_ready_exit_1(
    started_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run.advance(started_repo, "ship-it", "verifying")
    assert run.grade(started_repo, "ship-it", "check").status == "passed"
    summarize(started_repo)
    with pytest.raises(NotReady) as refused:
        run.complete(started_repo, "ship-it")
    assert refused.value.exit_code == 1
    assert "review" in str(refused.value) and "check" not in str(refused.value).split(":", 1)[1]
    assert load_state(started_repo, "ship-it").phase == "verifying"


def test_every_unproven_stage_is_named(started_repo: Path) -> None:
    run.advance(started_repo, "ship-it", "verifying")
    summarize(started_repo)
    with pytest.raises(NotReady) as refused:
        run.complete(started_repo, "ship-it")
    assert str(refused.value) == (
        "contract 'ship-it' cannot complete: check not passed yet; review not passed yet"
    )


def test_without_a_fresh_summary_nothing_closes(
    started_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    passed(started_repo, monkeypatch)
    with pytest.raises(SummaryMissing) as refused:
        run.complete(started_repo, "ship-it")
    message = str(refused.value)
    assert message.startswith("contract 'ship-it': E_CLOSURE_SUMMARY_MISSING: ")
    assert message.endswith(
        "; complete needs a fresh one: argus contract summary write ship-it < summary.md"
    )
    state = load_state(started_repo, "ship-it")
    assert state.phase == "verifying"
    assert not (state_dir(started_repo, "ship-it") / "summary.md").exists()


def test_passes_from_another_tree_are_reset_and_saved(
    committed: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    passed(committed, monkeypatch)
    summarize(committed)
    before = load_state(committed, "ship-it")
    (committed / "done.txt").write_text("changed after the passes")
    with pytest.raises(NotReady) as refused:
        run.complete(committed, "ship-it")
    assert refused.value.exit_code == 1
    assert str(refused.value) == (
        "contract 'ship-it': the working tree changed after check, review passed; grade them again"
    )
    after = load_state(committed, "ship-it")
    assert after.phase == "verifying"
    for stage_id in ("check", "review"):
        record = after.stages[stage_id]
        assert (record.status, record.evidence_sha256, record.worktree) == ("pending", None, None)
        assert record.last["stale"] == "the working tree changed after this pass"
        assert {k: v for k, v in record.last.items() if k != "stale"} == (
            before.stages[stage_id].last
        )
    assert after.history[-1]["stale"] == ["check", "review"]
    datetime.fromisoformat(after.history[-1]["at"])
    assert after.fingerprint != before.fingerprint
    # the reset fingerprint is the one of a run with nothing passed
    fresh = load_state(committed, "ship-it")
    fresh.refresh_fingerprint(load_contract(committed / "contract.json"))
    assert fresh.fingerprint == after.fingerprint
    with pytest.raises(NotReady):  # still not ready: nothing passed on this tree
        run.complete(committed, "ship-it")
    assert load_state(committed, "ship-it").history == after.history, "nothing more to reset"


def test_a_state_edited_outside_argus_is_refused_naming_its_file(
    started_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    passed(started_repo, monkeypatch)
    summarize(started_repo)
    path = state_dir(started_repo, "ship-it") / "state.json"
    data = json.loads(path.read_text("utf-8"))
    data["stages"]["check"]["attempts"] += 1
    path.write_text(json.dumps(data), "utf-8")
    with pytest.raises(InputError) as refused:
        run.complete(started_repo, "ship-it")
    assert str(refused.value) == (
        f"{path}: does not match the run's ledger (edited outside Argus); a person aborts the run"
    )
    assert not (state_dir(started_repo, "ship-it") / "summary.md").exists()


def test_passes_earned_before_there_was_a_tree_do_not_close_on_one(
    started_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    passed(started_repo, monkeypatch)  # no git yet: the passes name no working tree
    assert load_state(started_repo, "ship-it").stages["check"].worktree is None
    (started_repo / ".gitignore").write_text(".argus/\n")
    git(started_repo, "init", "-q")
    git(started_repo, "add", ".")
    git(started_repo, "commit", "-qm", "work")
    summarize(started_repo)
    with pytest.raises(NotReady):  # the ledger cannot show they passed on this tree
        run.complete(started_repo, "ship-it")
    assert load_state(started_repo, "ship-it").phase == "verifying"


def test_a_model_graded_run_completes_with_its_reason(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with StubLLM() as stub:
        monkeypatch.setenv("OPENAI_API_KEY", "sk-stub")
        monkeypatch.setenv("OPENAI_API_BASE", stub.url)
        path = write_contract(repo)
        data = json.loads(path.read_text())
        data["stages"][1]["grader"] = {"model": "openai/stub-grader"}
        path.write_text(json.dumps(data))
        run.start(repo, path, "anthropic/the-builder", "")
        run.advance(repo, "ship-it", "verifying")
        (repo / "done.txt").write_text("done")
        assert run.grade(repo, "ship-it", "check").status == "passed"
        stub.queue(content=GO)
        assert run.judge(repo, "ship-it", "review").status == "passed"
    summarize(repo)
    run.complete(repo, "ship-it")
    state = load_state(repo, "ship-it")
    assert state.phase == "completed"
    assert isinstance(state.reason, str) and state.reason  # why it closed, never blank
    assert state.history[-1]["reason"] == state.reason
