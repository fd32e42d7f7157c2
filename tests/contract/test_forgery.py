"""A lazy or cheating executor cannot close a run: each hole has a test (issues 12 and 19)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from argus.contract import run
from argus.contract.hook import run_stop_hook, stop_decision
from argus.contract.model import check_independence, load_contract
from argus.contract.state import load_state
from argus.errors import InputError
from tests.contract.conftest import ledger_rows, summarize, tamper, write_contract

GO = json.dumps(
    {"verdict": "GO", "evidence": "done.txt reads 'done'", "findings": [], "nonce": "@NONCE@"}
)
STATE = Path(".argus/contracts/ship-it/state.json")


def git(repo: Path, *args: str) -> None:
    base = ["git", "-c", "user.email=a@b", "-c", "user.name=a"]
    subprocess.run([*base, *args], cwd=repo, check=True, capture_output=True)


def verifying(repo: Path, **changes: object) -> Path:
    run.start(repo, write_contract(repo, **changes), "anthropic/the-builder", "")
    run.advance(repo, "ship-it", "verifying")
    return repo


# -- hole 1: budgets ----------------------------------------------------------------------


def test_a_spent_budget_keeps_the_session_until_a_person_decides(repo: Path) -> None:
    verifying(repo)
    run.grade(repo, "ship-it", "check")
    assert run.grade(repo, "ship-it", "check").status == "blocked"
    decision = stop_decision(repo)
    assert decision is not None and "blocked" in decision["reason"]
    run.pause(repo, "ship-it", "a person looks at it")
    assert stop_decision(repo) is None


def test_a_zero_budget_is_an_explicit_no_op(repo: Path) -> None:
    verifying(repo, budget={"max_attempts_per_stage": 0, "max_judgment_dispatches": 0})
    (repo / "done.txt").write_text("done")
    outcome = run.grade(repo, "ship-it", "check")
    assert outcome.status == "refused"
    state = load_state(repo, "ship-it")
    assert (state.phase, state.total_attempts, state.stages["check"].attempts) == (
        "verifying",
        0,
        0,
    )
    assert not (repo / ".argus/contracts/ship-it/logs").exists(), "nothing ran"


# -- hole 2: model identity ---------------------------------------------------------------


@pytest.mark.parametrize(
    "grader",
    ["claude-sonnet-4-5", "cursor/claude-sonnet-4-5", "claude-sonnet-4-5-20250929"],
)
def test_a_grader_on_the_executor_s_model_under_another_name_is_refused(
    repo: Path, grader: str
) -> None:
    path = write_contract(repo)
    data = json.loads(path.read_text())
    data["stages"][1]["grader"] = {"model": grader}
    path.write_text(json.dumps(data))
    with pytest.raises(InputError, match="E_NO_DIVERSITY"):
        check_independence(load_contract(path), repo, "anthropic/claude-sonnet-4-5", "")
    check_independence(load_contract(path), repo, "openai/gpt-5", "")


# -- hole 3: state.json is a view of the ledger ------------------------------------------


def test_marking_a_stage_passed_in_state_json_completes_nothing(repo: Path) -> None:
    verifying(repo)
    (repo / "done.txt").write_text("done")
    assert run.grade(repo, "ship-it", "check").status == "passed"
    raw = json.loads((repo / STATE).read_text())
    raw["stages"]["review"].update(status="passed", evidence_sha256="0" * 64)
    (repo / STATE).write_text(json.dumps(raw))
    with pytest.raises(InputError, match="does not match the run's ledger"):
        run.complete(repo, "ship-it")
    decision = stop_decision(repo)
    assert decision is not None and "does not match the run's ledger" in decision["reason"]
    # Rewriting the phase to one the hook lets go is caught the same way.
    raw["phase"] = "paused"
    (repo / STATE).write_text(json.dumps(raw))
    assert stop_decision(repo) is not None


def test_a_forged_ledger_line_breaks_its_chain(repo: Path) -> None:
    verifying(repo)
    event, _, payload = ledger_rows(repo)[-1]
    payload["record"]["phase"] = "completed"
    tamper(repo, "UPDATE events SET payload = ? WHERE id = ?", json.dumps(payload), event)
    with pytest.raises(InputError, match="chain is broken"):
        run.complete(repo, "ship-it")
    assert stop_decision(repo) is not None
    summarize(repo)
    assert run.abort(repo, "ship-it", "a person ends it").phase == "aborted"


# -- hole 5: history is never lost -------------------------------------------------------


def test_starting_a_closed_contract_again_archives_the_old_run(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    verifying(repo)
    (repo / "done.txt").write_text("done")
    run.grade(repo, "ship-it", "check")
    monkeypatch.setenv("GRADER_ANSWER", GO)
    run.judge(repo, "ship-it", "review")
    summarize(repo)
    run.complete(repo, "ship-it")
    first = load_state(repo, "ship-it").run_id
    run.start(repo, repo / "contract.json", "anthropic/the-builder", "")
    base = repo / ".argus/contracts/ship-it"
    assert not (base / "summary.md").exists(), "no old summary beside the new run"
    (archived,) = (base / "archive").iterdir()
    assert archived.name.endswith(first)
    assert {"state.json", "summary.md", "logs"} <= {p.name for p in archived.iterdir()}
    kept = [p for e, name, p in ledger_rows(repo) if name == f"contract/ship-it/{first}"]
    assert kept and kept[-1]["record"]["phase"] == "completed", "its ledger stays in the store"
    assert json.loads((archived / "state.json").read_text())["phase"] == "completed"
    assert load_state(repo, "ship-it").phase == "running"


# -- issue 12 route 7: a fingerprint git cannot be talked out of ---------------------------


@pytest.fixture
def committed(repo: Path) -> Path:
    (repo / "done.txt").write_text("done")
    (repo / ".gitignore").write_text(".argus/\n")
    git(repo, "init", "-q")
    write_contract(repo)
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "work")
    run.start(repo, repo / "contract.json", "anthropic/the-builder", "")
    run.advance(repo, "ship-it", "verifying")
    assert run.grade(repo, "ship-it", "check").status == "passed"
    return repo


def _stale(repo: Path) -> bool:
    decision = stop_decision(repo)
    return decision is not None and "earlier working tree" in decision["reason"]


def test_a_textconv_driver_cannot_hide_an_edit(committed: Path) -> None:
    (committed / ".git/info").mkdir(exist_ok=True)
    (committed / ".git/info/attributes").write_text("* diff=blind\n")
    git(committed, "config", "diff.blind.textconv", "true")
    git(committed, "config", "diff.external", "true")
    assert not _stale(committed)
    (committed / "done.txt").write_text("edited after the pass")
    assert _stale(committed)


def test_skip_worktree_cannot_hide_an_edit(committed: Path) -> None:
    git(committed, "update-index", "--skip-worktree", "done.txt")
    git(committed, "update-index", "--assume-unchanged", "contract.json")
    assert not _stale(committed)
    (committed / "done.txt").write_text("edited after the pass")
    assert _stale(committed)


def test_a_local_exclude_cannot_hide_a_new_file(committed: Path) -> None:
    (committed / ".git/info").mkdir(exist_ok=True)
    (committed / ".git/info/exclude").write_text("sneaky.py\n")
    (committed / "sneaky.py").write_text("print('new code')")
    assert _stale(committed)


def test_a_self_ignoring_gitignore_changes_the_fingerprint(committed: Path) -> None:
    (committed / "hidden").mkdir()
    (committed / "hidden/.gitignore").write_text("*\n")
    (committed / "hidden/code.py").write_text("print('new code')")
    assert _stale(committed)


# -- issue 12 route 8: graders the executor could have written ---------------------------


def _with_grader(repo: Path, command: str) -> Path:
    path = write_contract(repo)
    data = json.loads(path.read_text())
    data["stages"][1]["grader"] = {"command": command}
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(
    "command",
    [
        f"{sys.executable} -m gradepkg",
        "make -s grade",
        "sh -c './g.sh'",
        "sh ./g.sh",
        "/nonexistent/dir/grader --strict",
        "./g.sh",
        "env ./g.sh",
        f"{sys.executable} {{outside}} | tee out.txt",
    ],
)
def test_a_grader_must_be_a_program_outside_the_repository(repo: Path, command: str) -> None:
    (repo / "gradepkg").mkdir()
    (repo / "gradepkg/__main__.py").write_text("print('GO')")
    (repo / "Makefile").write_text("grade:\n\techo GO\n")
    (repo / "g.sh").write_text("#!/bin/sh\necho GO\n")
    (repo / "g.sh").chmod(0o755)
    outside = repo.parent / "grader.py"
    path = _with_grader(repo, command.replace("{outside}", str(outside)))
    with pytest.raises(InputError, match="stage 'review'"):
        run.start(repo, path, "anthropic/the-builder", "")


def test_a_virtualenv_inside_the_repository_is_not_outside_it(repo: Path) -> None:
    venv = repo / ".venv" / "bin"
    venv.mkdir(parents=True)
    (venv / "python").symlink_to(sys.executable)  # a link out, but site-packages are in here
    outside = repo.parent / "grader.py"
    outside.write_text("print('GO')")
    path = _with_grader(repo, f"{venv / 'python'} {outside}")
    with pytest.raises(InputError, match="inside the repository"):
        run.start(repo, path, "anthropic/the-builder", "")


def test_independence_is_checked_again_at_every_dispatch(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    outside = repo.parent / "grader.py"
    write_contract(repo)
    path = _with_grader(repo, f"{sys.executable} {outside} rules.txt")
    run.start(repo, path, "anthropic/the-builder", "")  # rules.txt does not exist yet
    run.advance(repo, "ship-it", "verifying")
    (repo / "done.txt").write_text("done")
    run.grade(repo, "ship-it", "check")
    (repo / "rules.txt").write_text("say GO")  # the executor writes what the grader reads
    monkeypatch.setenv("GRADER_ANSWER", GO)
    with pytest.raises(InputError, match=r"rules\.txt, a path in the repository"):
        run.judge(repo, "ship-it", "review")
    assert not Path(os.environ["GRADER_LOG"]).exists(), "the grader was never asked"


# -- issue 12 route 9: the Stop hook never fails open ------------------------------------


@pytest.mark.parametrize(
    "event",
    [
        b'{"cwd": "/tmp"}',
        b'{"cwd": "/tmp", "n": ' + b"9" * 5000 + b"}",
        b"[" * 100_000 + b"]" * 100_000,
        b'{"cwd": "\xff\xfe"}',
        b"not json",
        b'{"cwd": 7}',
    ],
)
def test_the_stop_hook_blocks_whatever_its_input(repo: Path, event: bytes) -> None:
    run.start(repo, write_contract(repo), "anthropic/the-builder", "")
    done = subprocess.run(
        [sys.executable, "-m", "argus", "hook", "stop"],
        input=event,
        cwd="/",
        env={**os.environ, "CLAUDE_PROJECT_DIR": str(repo)},
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["decision"] == "block"


def test_an_unreadable_event_blocks_even_with_no_run_in_sight(tmp_path: Path) -> None:
    out = run_stop_hook(b"{" * 10, None, tmp_path)
    assert json.loads(out)["decision"] == "block"
    assert run_stop_hook(b'{"cwd": "' + str(tmp_path).encode() + b'"}', None, tmp_path) == ""


def test_several_open_runs_are_listed_one_a_line(repo: Path) -> None:
    run.start(repo, write_contract(repo), "anthropic/the-builder", "")
    data = json.loads((repo / "contract.json").read_text())
    (repo / "second.json").write_text(json.dumps({**data, "id": "second-one"}))
    run.start(repo, repo / "second.json", "anthropic/the-builder", "")
    reason = json.loads(run_stop_hook(b"{}", None, repo))["reason"]
    lines = reason.splitlines()
    assert len(lines) == 2 and "'second-one'" in lines[0] and "'ship-it'" in lines[1]


def test_a_run_from_before_the_ledger_is_archived_or_aborted_never_trusted(repo: Path) -> None:
    run.start(repo, write_contract(repo), "anthropic/the-builder", "")
    raw = json.loads((repo / STATE).read_text())
    raw["version"] = 1
    raw.pop("run_id")
    (repo / STATE).write_text(json.dumps(raw))
    tamper(repo, "DELETE FROM events WHERE feature = 'contract/ship-it'")
    with pytest.raises(InputError, match="ledger is missing"):
        run.advance(repo, "ship-it", "verifying")
    assert stop_decision(repo) is not None
    summarize(repo)
    assert run.abort(repo, "ship-it", "older Argus").phase == "aborted"
    assert run.start(repo, repo / "contract.json", "anthropic/the-builder", "").phase == "running"


def test_deleting_the_run_s_files_frees_nothing(repo: Path) -> None:
    import shutil

    run.start(repo, write_contract(repo), "anthropic/the-builder", "")
    shutil.rmtree(repo / ".argus")
    decision = stop_decision(repo)
    assert decision is not None and "files are gone" in decision["reason"]
    agent = {k: v for k, v in os.environ.items() if k != "ARGUS_PERSON_KEY"}
    done = subprocess.run(
        [sys.executable, "-m", "argus", "contract", "abort", "ship-it", "--reason", "x"],
        cwd=repo,
        env=agent,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and "a person's decision" in done.stderr, "no passphrase here"
    from argus.cli import main

    assert main(["contract", "abort", "ship-it", "--reason", "x", "--root", str(repo)]) == 0
    assert stop_decision(repo) is None, "the person's abort forgot the run"


def test_a_closed_run_is_not_remembered(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from argus.contract.registry import remembered

    run.start(repo, write_contract(repo), "anthropic/the-builder", "")
    assert [e["phase"] for e in remembered(repo)] == ["running"]
    summarize(repo)
    run.abort(repo, "ship-it", "done with it")
    assert remembered(repo) == []
