"""The Stop and SessionStart hooks decided directly (argus.contract.hook): which runs hold the
session, which next command each names, and every unreadable event blocking."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from argus.contract import run
from argus.contract.hook import (
    MAX_EVENT_BYTES,
    candidate_roots,
    decide,
    hook_starts,
    read_event,
    run_stop_hook,
    session_start,
    stop_decision,
    vanished,
)
from argus.contract.model import load_contract
from argus.contract.pins import pin_problem
from argus.contract.registry import registry_dir, remember
from argus.contract.state import load_state
from tests.contract.conftest import summarize, write_contract
from tests.contract.test_newer import newer_contract
from tests.contract.test_pins import _unpin_all
from tests.judge.stub_llm import StubLLM

GO = json.dumps(
    {"verdict": "GO", "evidence": "done.txt reads 'done'", "findings": [], "nonce": "@NONCE@"}
)
CONTRACTS = Path(".argus") / "contracts"


def git(repo: Path, *args: str) -> None:
    base = ["git", "-c", "user.email=a@b", "-c", "user.name=a"]
    subprocess.run([*base, *args], cwd=repo, check=True, capture_output=True)


def reason(root: Path) -> str:
    decision = stop_decision(root)
    assert decision is not None and decision["decision"] == "block"
    assert set(decision) == {"decision", "reason"}
    return decision["reason"]


def started(repo: Path) -> Path:
    run.start(repo, write_contract(repo), "anthropic/the-builder", "")
    return repo


def test_candidate_roots_are_every_directory_above_with_runs_each_once(tmp_path: Path) -> None:
    top, inner = tmp_path / "top", tmp_path / "top" / "a" / "b"
    for directory in (top, inner):
        (directory / CONTRACTS).mkdir(parents=True)
    (tmp_path / "top" / "a" / ".argus").mkdir()  # no contracts directory: not a root
    deep = inner / "c" / "d"
    deep.mkdir(parents=True)
    assert candidate_roots([deep, inner, top, tmp_path / "missing"]) == [inner, top]
    assert candidate_roots([top / "a"]) == [top]
    assert candidate_roots([tmp_path]) == []
    loop = tmp_path / "loop"
    loop.symlink_to(tmp_path / "loop2")
    (tmp_path / "loop2").symlink_to(loop)
    assert candidate_roots([loop / "x", inner]) == [inner, top]  # an unresolvable start skipped


def test_a_running_run_names_the_advance_and_the_first_stage(repo: Path) -> None:
    started(repo)
    text = reason(repo)
    assert (
        "`argus contract advance ship-it verifying`, then `argus contract grade ship-it check`"
        in text
    )
    assert "check, review." in text and "earlier working tree" not in text  # the ids, then stop
    run.advance(repo, "ship-it", "verifying")
    text = reason(repo)
    assert "advance" not in text and "then `argus contract grade ship-it check`" in text


def test_a_verifying_run_names_the_judge_then_the_summary_then_complete(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started(repo)
    run.advance(repo, "ship-it", "verifying")
    (repo / "done.txt").write_text("done")
    assert run.grade(repo, "ship-it", "check").status == "passed"
    text = reason(repo)
    assert "`argus contract judge ship-it review`" in text and "check" not in text.split(":")[1]
    monkeypatch.setenv("GRADER_ANSWER", GO)
    assert run.judge(repo, "ship-it", "review").status == "passed"
    text = reason(repo)
    assert "closure-summary-missing" in text and "summary write ship-it" in text
    summarize(repo)
    text = reason(repo)
    assert "closure-summary-missing" not in text and "`argus contract complete ship-it`" in text
    run.complete(repo, "ship-it")
    assert stop_decision(repo) is None
    assert session_start(b"{}", None, repo) == ""  # a completed run is not briefed


def test_an_executor_stage_names_stage_input(repo: Path) -> None:
    run.start(repo, newer_contract(repo), "anthropic/the-builder", "")
    run.advance(repo, "answer", "verifying")
    assert "`argus contract stage-input answer produce`" in reason(repo)


def test_a_paused_or_aborted_run_lets_go_a_blocked_one_holds(repo: Path) -> None:
    started(repo)
    summarize(repo)
    run.block(repo, "ship-it", "waiting on a key")
    assert "is blocked (waiting on a key)" in reason(repo)
    run.pause(repo, "ship-it", "lunch")
    assert stop_decision(repo) is None
    run.resume(repo, "ship-it")
    assert stop_decision(repo) is not None
    summarize(repo)
    run.abort(repo, "ship-it", "replanned")
    assert stop_decision(repo) is None


def test_an_edited_contract_holds_the_session(repo: Path) -> None:
    started(repo)
    path = repo / "contract.json"
    path.write_text(path.read_text().replace("Ship the feature", "Ship something else"))
    assert "was edited after its run started" in reason(repo)


def test_a_run_that_cannot_be_read_blocks_naming_it(repo: Path) -> None:
    started(repo)
    (repo / CONTRACTS / "ship-it" / "state.json").write_text("{")
    lines = reason(repo).splitlines()
    assert lines[-1].startswith(f"contract run ship-it in {repo.resolve()} cannot be read")


def test_several_runs_one_reason_a_line(repo: Path) -> None:
    started(repo)
    other = json.loads((repo / "contract.json").read_text())
    other["id"] = "second"
    (repo / "second.json").write_text(json.dumps(other))
    run.start(repo, repo / "second.json", "anthropic/the-builder", "")
    lines = reason(repo).splitlines()
    assert [line.split("'")[1] for line in lines] == ["second", "ship-it"]


def test_decide_allows_only_with_no_problem_and_no_open_run(repo: Path) -> None:
    assert decide([repo], problem=None) is None
    assert decide([repo], problem="the event is odd") == {
        "decision": "block",
        "reason": "the event is odd",
    }
    started(repo)
    blocked = decide([repo], problem="the event is odd")
    assert blocked is not None
    first, second = blocked["reason"].split("\n")
    assert first == "the event is odd" and "'ship-it'" in second


def test_a_remembered_run_whose_files_vanished_holds(repo: Path) -> None:
    started(repo)
    run_id = load_state(repo, "ship-it").run_id
    assert vanished([repo]) == []
    shutil.rmtree(repo / ".argus")
    gone = vanished([repo / "sub"])
    assert len(gone) == 1 and "'ship-it'" in gone[0] and str(repo.resolve()) in gone[0]
    assert f"({run_id}, running)" in gone[0]  # which run, in which phase
    assert vanished([repo.parent / "elsewhere"]) == []
    assert reason(repo) == gone[0]
    # replaced by a run with another id: still vanished
    started(repo)
    assert vanished([repo]) == []
    remember(repo, "ship-it", "run-other", "running")
    assert len(vanished([repo])) == 1


@pytest.mark.parametrize(
    "raw",
    [b"\xff\xfe", b"[1, 2]", b"{", b'"text"', b"1" * 5000],
)
def test_an_unreadable_event_is_a_problem(raw: bytes) -> None:
    payload, problem = read_event(raw)
    assert payload == {} and problem


def test_the_event_size_limit_is_exact() -> None:
    at_limit = b"{}" + b" " * (MAX_EVENT_BYTES - 2)
    assert read_event(at_limit) == ({}, None)
    payload, problem = read_event(at_limit + b" ")
    assert payload == {} and problem and str(MAX_EVENT_BYTES) in problem
    assert read_event(b"") == ({}, "the Stop event is empty")
    assert read_event(b"  \n") == ({}, "the Stop event is empty")
    assert read_event(b'{"cwd": "/x"}') == ({"cwd": "/x"}, None)


def test_the_stop_hook_finds_runs_from_the_event_the_project_or_its_own_cwd(
    repo: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert run_stop_hook(b"{}", None, elsewhere) == ""
    started(repo)
    event = json.dumps({"cwd": str(repo)}).encode()
    for raw, project, cwd in (
        (event, None, elsewhere),
        (b"{}", str(repo), elsewhere),
        (b"{}", None, repo / CONTRACTS),
    ):
        out = json.loads(run_stop_hook(raw, project, cwd))
        assert out["decision"] == "block" and "'ship-it'" in out["reason"]
    nul = json.loads(run_stop_hook(b"{}", str(repo) + "\0", elsewhere))  # a NUL: not a place
    assert "CLAUDE_PROJECT_DIR is not a directory name" in nul["reason"]


@pytest.mark.parametrize("cwd", ["", 7, None, "a\u0000b"])
def test_a_bad_cwd_blocks_even_with_no_run(tmp_path: Path, cwd: object) -> None:
    out = json.loads(run_stop_hook(json.dumps({"cwd": cwd}).encode(), None, tmp_path))
    assert out["decision"] == "block"
    assert len(out["reason"].splitlines()) == 2  # the problem, then what to do about it


def test_an_unreadable_event_blocks_and_still_lists_the_runs(repo: Path) -> None:
    started(repo)
    out = json.loads(run_stop_hook(b"\xff", str(repo), repo))
    lines = out["reason"].splitlines()
    assert len(lines) == 3 and "'ship-it'" in lines[1]


def test_a_failing_hook_blocks(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr("argus.contract.hook.decide", broken)
    out = json.loads(run_stop_hook(b"{}", None, repo))
    assert out["decision"] == "block" and "disk on fire" in out["reason"]

    def verbose(*_: object) -> None:
        raise RuntimeError("x" * 1000)

    monkeypatch.setattr("argus.contract.hook.decide", verbose)
    assert len(json.loads(run_stop_hook(b"{}", None, repo))["reason"]) == 500  # cut at 500

    def interrupted(*_: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("argus.contract.hook.decide", interrupted)
    with pytest.raises(KeyboardInterrupt):
        run_stop_hook(b"{}", None, repo)


def test_session_start_briefs_each_open_run(repo: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert session_start(b"{}", None, repo) == ""
    started(repo)

    def context(raw: bytes = b"{}", project: str | None = None, cwd: Path = repo) -> list[str]:
        out = json.loads(session_start(raw, project, cwd))
        assert out["hookSpecificOutput"]["hookEventName"] == "SessionStart"
        lines: list[str] = out["hookSpecificOutput"]["additionalContext"].splitlines()
        return lines[1:]

    assert len(context()) == 1 and "advance ship-it verifying" in context()[0]
    event = json.dumps({"cwd": str(repo)}).encode()
    assert context(event, None, elsewhere) == context()
    assert context(b"{}", str(repo), elsewhere) == context()
    assert session_start(b"{}", str(repo) + "\0", elsewhere) == ""
    summarize(repo)
    run.block(repo, "ship-it", "waiting on a key")
    assert context() == [
        "- contract 'ship-it' is blocked (waiting on a key); a person decides what next"
    ]
    run.pause(repo, "ship-it", "lunch")
    (paused,) = context()
    assert "'ship-it' is paused by a person (lunch)" in paused  # the person's reason is kept
    assert load_state(repo, "ship-it").reason == "lunch"
    run.resume(repo, "ship-it")
    summarize(repo)
    run.abort(repo, "ship-it", "replanned")
    assert session_start(b"{}", None, repo) == ""


def test_session_start_names_a_run_it_cannot_read(repo: Path) -> None:
    started(repo)
    (repo / CONTRACTS / "ship-it" / "state.json").write_text("{")
    out = json.loads(session_start(b"{}", None, repo))
    (line,) = out["hookSpecificOutput"]["additionalContext"].splitlines()[1:]
    assert line.startswith(f"- contract run ship-it in {repo.resolve()} cannot be read")


@pytest.mark.parametrize("cwd", [7, None, "", "a\u0000b"])
def test_session_start_skips_a_bad_cwd_and_briefs_every_run(repo: Path, cwd: object) -> None:
    started(repo)
    other = json.loads((repo / "contract.json").read_text())
    other["id"] = "second"
    (repo / "second.json").write_text(json.dumps(other))
    run.start(repo, repo / "second.json", "anthropic/the-builder", "")
    out = json.loads(session_start(json.dumps({"cwd": cwd}).encode(), str(repo), repo.parent))
    lines = out["hookSpecificOutput"]["additionalContext"].splitlines()
    assert [line.split("'")[1] for line in lines[1:]] == ["second", "ship-it"]
    assert all(line.startswith("- contract '") for line in lines[1:])


def test_the_unreadable_event_problem_names_the_error() -> None:
    assert "UnicodeDecodeError" in str(read_event(b"\xff")[1])
    assert "JSONDecodeError" in str(read_event(b"{")[1])


def test_stale_passes_are_named_by_stage(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (repo / "done.txt").write_text("done")
    (repo / ".gitignore").write_text(".argus/\n")
    git(repo, "init", "-q")
    write_contract(repo)
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "work")
    started(repo)
    run.advance(repo, "ship-it", "verifying")
    assert run.grade(repo, "ship-it", "check").status == "passed"
    monkeypatch.setenv("GRADER_ANSWER", GO)
    assert run.judge(repo, "ship-it", "review").status == "passed"
    (repo / "done.txt").write_text("changed after the passes")
    text = reason(repo)
    assert "check, review (check, review passed on an earlier working tree)" in text
    assert "then `argus contract grade ship-it check`" in text


def test_a_model_graded_run_is_judged_against_the_executor(
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
    assert "closure-summary-missing" in reason(repo)


def test_vanished_looks_past_an_unresolvable_start_and_other_projects(
    repo: Path, tmp_path: Path
) -> None:
    started(repo)
    shutil.rmtree(repo / ".argus")
    loop = tmp_path / "loop"
    loop.symlink_to(tmp_path / "loop2")
    (tmp_path / "loop2").symlink_to(loop)
    unrelated = {"root": str(tmp_path / "other"), "contract_id": "x", "run_id": "r"}
    (registry_dir() / "!first.json").write_text(json.dumps(unrelated))  # sorted first
    gone = vanished([loop / "x", repo])
    assert len(gone) == 1 and "'ship-it'" in gone[0]


@pytest.mark.parametrize("raw", [b"", b" ", b"\n\t  \r\n"])
def test_an_empty_or_blank_event_blocks_even_with_no_run(tmp_path: Path, raw: bytes) -> None:
    out = json.loads(run_stop_hook(raw, None, tmp_path))
    assert out["decision"] == "block" and "the Stop event is empty" in out["reason"]
    assert run_stop_hook(json.dumps({"cwd": str(tmp_path)}).encode(), None, tmp_path) == ""


@pytest.mark.parametrize("where", ["gone", "relative", "file"])
def test_a_cwd_that_cannot_be_resolved_blocks(tmp_path: Path, where: str) -> None:
    (tmp_path / "a-file").write_text("x")
    cwd = {
        "gone": str(tmp_path / "no-such-directory"),
        "relative": "some/where",
        "file": str(tmp_path / "a-file"),
    }[where]
    out = json.loads(run_stop_hook(json.dumps({"cwd": cwd}).encode(), None, tmp_path))
    assert out["decision"] == "block" and "the Stop event's cwd" in out["reason"]
    project = json.loads(run_stop_hook(b"{}", cwd, tmp_path))
    assert project["decision"] == "block" and "CLAUDE_PROJECT_DIR" in project["reason"]


def test_a_hook_whose_own_directory_is_gone_blocks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io
    import sys

    from argus.cli import main

    def gone() -> Path:
        raise FileNotFoundError(2, "No such file or directory")

    event = json.dumps({"cwd": str(tmp_path)}).encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(event)))
    monkeypatch.setattr(Path, "cwd", staticmethod(gone))
    assert main(["hook", "stop"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["decision"] == "block" and "the hook's working directory" in out["reason"]
    assert json.loads(run_stop_hook(event, None, None))["decision"] == "block"


def test_a_state_home_pointed_elsewhere_still_finds_the_open_run(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started(repo)
    shutil.rmtree(repo / CONTRACTS)  # the run's files are gone; only the registry holds it
    monkeypatch.setenv("ARGUS_STATE_HOME", str(tmp_path / "somewhere-else"))
    out = json.loads(run_stop_hook(json.dumps({"cwd": str(repo)}).encode(), None, repo))
    assert out["decision"] == "block" and "files are gone" in out["reason"]
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    assert vanished([repo]) != []


def test_a_run_whose_contract_is_no_longer_pinned_holds_the_session(
    repo: Path, real_pins: None
) -> None:
    started(repo)  # write_contract pinned it, as a person would
    assert "cannot close" not in reason(repo)
    _unpin_all()
    why = pin_problem(repo, load_contract(repo / "contract.json"))
    assert why is not None and "is not pinned" in why
    assert reason(repo) == (
        f"contract 'ship-it' cannot close: {why}; the run holds the session until a person "
        "pins its contract or aborts the run"
    )


def test_a_place_is_shown_cut_at_200_characters(tmp_path: Path) -> None:
    relative, absent = "r" * 300, "/" + "a" * 299
    starts, problems = hook_starts({"cwd": relative}, absent, tmp_path)
    assert starts == [tmp_path]
    assert problems == [
        f"the Stop event's cwd ({'r' * 200!r}) is not an absolute path",
        f"CLAUDE_PROJECT_DIR ({absent[:200]!r}) is not a directory that exists",
    ]


def test_a_hook_without_a_working_directory_says_so() -> None:
    assert hook_starts({}, None, None) == (
        [],
        ["the hook's working directory is not a directory name"],
    )


def test_an_unreadable_event_is_the_problem_named_before_unresolved_places(
    tmp_path: Path,
) -> None:
    out = json.loads(run_stop_hook(b"\xff", "relative/place", tmp_path))
    assert out["reason"].splitlines()[0] == "the Stop event could not be read (UnicodeDecodeError)"
    # ...and the places it could not resolve are named after it, not dropped.
    assert out["reason"].splitlines()[1:] == [
        "CLAUDE_PROJECT_DIR ('relative/place') is not an absolute path",
        "(argus hook stop could not read its event, so it cannot prove no run is open; "
        "fix the hook's input, or a person stops the session)",
    ]
    out = json.loads(run_stop_hook(b"{}", "relative/place", tmp_path))
    assert out["reason"].splitlines() == [
        "CLAUDE_PROJECT_DIR ('relative/place') is not an absolute path",
        "(argus hook stop could not resolve every place it was told to look in, so it cannot "
        "prove no run is open; fix the hook's settings, or a person stops the session)",
    ]


def test_session_start_briefs_the_loop_runs_it_is_given_after_the_contract_runs(
    repo: Path,
) -> None:
    asked: list[list[Path]] = []

    def loop_runs(starts: list[Path]) -> list[str]:
        asked.append(starts)
        return ["loop run one", "loop run two"]

    def context(cwd: Path) -> str:
        out = json.loads(session_start(b"{}", None, cwd, loop_runs))
        text: str = out["hookSpecificOutput"]["additionalContext"]
        return text

    assert context(repo) == "Argus loop runs in this project:\n- loop run one\n- loop run two"
    assert asked == [[repo]]
    started(repo)
    lines = context(repo).splitlines()
    assert lines[0] == "Argus contract runs in this project:"
    assert lines[1].startswith("- contract 'ship-it' is running")
    assert lines[2:] == ["Argus loop runs in this project:", "- loop run one", "- loop run two"]
    assert session_start(b"{}", None, repo, lambda _: []).count("loop") == 0
