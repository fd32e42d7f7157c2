"""Who counts as a person (argus.person): not a terminal, not an environment variable; a
process Argus did not confine that knows the person's passphrase."""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from argus import person
from argus.cli import main
from argus.contract import run
from argus.contract.hook import run_stop_hook
from argus.contract.state import load_state
from argus.errors import InputError
from tests.conftest import PERSON_PASSPHRASE
from tests.contract.conftest import summarize, write_contract
from tests.support.habits import copy_habits


@pytest.fixture
def no_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ARGUS_PERSON_KEY")


@pytest.fixture
def started(repo: Path) -> Path:
    run.start(repo, write_contract(repo), "anthropic/the-builder", "")
    summarize(repo)
    return repo


def _env_without_the_secret(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "ARGUS_PERSON_KEY"}
    env["PYTHONPATH"] = os.pathsep.join(sys.path)
    return {**env, **extra}


def _answer_on_a_pseudo_terminal(argv: list[str], cwd: Path, answer: bytes) -> int:
    """Run ``argv`` on a pseudo-terminal as an agent can (``script -qec``, or a pty of its
    own where util-linux is missing) and type ``answer`` once it asks for the passphrase
    (^D ends the input)."""
    script = shutil.which("script")
    if script is not None:
        process = subprocess.Popen(
            [script, "-qec", shlex.join(argv), "/dev/null"], cwd=cwd, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=_env_without_the_secret(),
        )  # fmt: skip
        assert process.stdin is not None and process.stdout is not None
        _read_until_asked(lambda: process.stdout.read1(4096))  # type: ignore[union-attr]
        with contextlib.suppress(BrokenPipeError):
            process.stdin.write(answer)
            process.stdin.close()
        process.stdout.read()
        return process.wait(timeout=120)
    main_fd, child_fd = os.openpty()
    process = subprocess.Popen(
        argv, cwd=cwd, stdin=child_fd, stdout=child_fd, stderr=child_fd,
        env=_env_without_the_secret(), start_new_session=True,
    )  # fmt: skip
    os.close(child_fd)
    with contextlib.suppress(OSError):  # EIO once the child has gone
        _read_until_asked(lambda: os.read(main_fd, 4096))
        os.write(main_fd, answer)
        while os.read(main_fd, 4096):
            pass
    os.close(main_fd)
    return process.wait(timeout=120)


def _read_until_asked(read: Callable[[], bytes]) -> None:
    seen = b""
    while b"passphrase: " not in seen:
        chunk = read()
        if not chunk:
            return
        seen += chunk


ABORT = [sys.executable, "-m", "argus", "contract", "abort", "ship-it", "--reason", "done"]


@pytest.mark.process
@pytest.mark.parametrize("typed", [b"\x04", b"a guess\n", b"\n", b"y\n"])
def test_a_pseudo_terminal_is_not_a_person(started: Path, typed: bytes) -> None:
    assert _answer_on_a_pseudo_terminal(ABORT, started, typed) == 2
    assert load_state(started, "ship-it").phase == "running"
    assert json.loads(run_stop_hook(b"{}", None, started))["decision"] == "block"


@pytest.mark.process
def test_the_person_s_passphrase_on_a_terminal_aborts(started: Path) -> None:
    code = _answer_on_a_pseudo_terminal(ABORT, started, PERSON_PASSPHRASE.encode() + b"\n")
    assert code == 0 and load_state(started, "ship-it").phase == "aborted"


@pytest.mark.process
@pytest.mark.skipif(shutil.which("setpriv") is None, reason="util-linux setpriv is not installed")
def test_a_confined_process_cannot_abort_even_with_the_passphrase(started: Path) -> None:
    # The confined process knows the passphrase and drops the marker variable: the kernel's
    # no_new_privs flag, which no descendant can clear, still refuses it.
    done = subprocess.run(
        ["setpriv", "--no-new-privs", "env", "-u", "ARGUS_CONFINED", sys.executable, "-m",
         "argus", "contract", "abort", "ship-it", "--reason", "done"],
        cwd=started,
        env={**_env_without_the_secret(), "ARGUS_PERSON_KEY": PERSON_PASSPHRASE},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )  # fmt: skip
    assert done.returncode == 2 and "no_new_privs" in done.stderr
    assert load_state(started, "ship-it").phase == "running"


def test_no_new_privs_and_the_marker_each_mean_confined(monkeypatch: pytest.MonkeyPatch) -> None:
    assert person.confinement("Name:\tpython\nNoNewPrivs:\t1\n") is not None
    assert person.confinement("Name:\tpython\nNoNewPrivs:\t0\n") is None
    assert person.confinement("") is None
    monkeypatch.setenv("ARGUS_CONFINED", "landlock")
    assert person.confinement("NoNewPrivs:\t0\n") == "ARGUS_CONFINED is set"
    with pytest.raises(InputError, match="confined by Argus"):
        person.require_person("argus contract abort")


@pytest.mark.parametrize(
    "action", [["pause", "--reason", "x"], ["resume"], ["abort", "--reason", "x"]]
)
def test_human_only_contract_actions_need_the_passphrase(
    started: Path, no_secret: None, action: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["contract", action[0], "--root", str(started), "ship-it", *action[1:]]) == 2
    assert "person's decision" in capsys.readouterr().err
    assert load_state(started, "ship-it").phase == "running"


def test_approve_needs_the_passphrase(
    tmp_path: Path, no_secret: None, capsys: pytest.CaptureFixture[str]
) -> None:
    root = copy_habits(tmp_path)
    assert main(["approve", "--root", str(root), "--feature", "habits", "--target", "list"]) == 2
    assert "argus approve is a person's decision" in capsys.readouterr().err


def test_the_passphrase_lets_the_person_pause_and_resume(started: Path) -> None:
    assert main(["contract", "pause", "--root", str(started), "ship-it", "--reason", "x"]) == 0
    assert load_state(started, "ship-it").phase == "paused"
    assert main(["contract", "resume", "--root", str(started), "ship-it"]) == 0
    assert load_state(started, "ship-it").phase == "running"


def test_without_a_key_nothing_counts_as_a_person(no_secret: None) -> None:
    (Path(os.environ["ARGUS_STATE_HOME"]) / "person-key.json").unlink()
    with pytest.raises(InputError, match="no person key is set"):
        person.require_person("argus contract abort", secret=PERSON_PASSPHRASE)


def test_a_wrong_or_unreadable_key_refuses(no_secret: None) -> None:
    with pytest.raises(InputError, match="not given or is wrong"):
        person.require_person("argus contract abort", secret="not the passphrase")
    person.require_person("argus contract abort", secret=PERSON_PASSPHRASE)
    key = Path(os.environ["ARGUS_STATE_HOME"]) / "person-key.json"
    record = json.loads(key.read_text())
    key.write_text(json.dumps({**record, "n": 2}))  # a cheaper cost factor is not the key
    assert not person.verify(PERSON_PASSPHRASE)
    key.write_text("{not json")
    assert not person.verify(PERSON_PASSPHRASE)


def test_a_state_home_of_one_s_own_does_not_get_past_the_person_s_key(
    tmp_path: Path, no_secret: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARGUS_STATE_HOME", str(tmp_path / "mine"))
    person.set_key("the agent's passphrase")  # no key in this home yet: it takes
    account = person.state_homes()[-1]
    (account / "person-key.json").parent.mkdir(parents=True, exist_ok=True)
    (account / "person-key.json").write_text(
        (Path(os.environ["ARGUS_STATE_HOME"]) / "person-key.json").read_text()
    )
    monkeypatch.setenv("ARGUS_STATE_HOME", str(tmp_path / "elsewhere"))
    person.set_key("the person's passphrase", current="the agent's passphrase")
    monkeypatch.setenv("ARGUS_STATE_HOME", str(tmp_path / "mine"))
    assert not person.verify("the agent's passphrase"), "every key must accept it"


def test_person_init_sets_then_changes_only_with_the_current_passphrase(
    no_secret: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (Path(os.environ["ARGUS_STATE_HOME"]) / "person-key.json").unlink()
    answers = iter(["first passphrase", "first passphrase"])
    monkeypatch.setattr("argus.person._prompt", lambda _: next(answers))
    assert main(["person", "init"]) == 0
    assert person.verify("first passphrase")
    answers = iter(["a wrong guess", "second passphrase", "second passphrase"])
    assert main(["person", "init"]) == 2
    assert "give the current passphrase" in capsys.readouterr().err
    answers = iter(["first passphrase", "second passphrase", "second passphrase"])
    assert main(["person", "init"]) == 0
    assert person.verify("second passphrase") and not person.verify("first passphrase")
    answers = iter(["second passphrase", "short", "short"])
    assert main(["person", "init"]) == 2
    answers = iter(["second passphrase", "one passphrase", "another one"])
    assert main(["person", "init"]) == 2
    assert "differ" in capsys.readouterr().err
    assert person.verify("second passphrase")


def test_no_program_argus_starts_inherits_the_passphrase(repo: Path) -> None:
    probe = (
        f'{sys.executable} -c "import os, pathlib; '
        "pathlib.Path('seen.txt').write_text(os.environ.get('ARGUS_PERSON_KEY', 'none'))\""
    )
    check = {"id": "check", "name": "A stage command", "type": "mechanical", "command": probe}
    write_contract(repo, stages=[check])
    root = ["--root", str(repo)]
    assert main(["contract", "start", str(repo / "contract.json"), *root]) == 0
    assert main(["contract", "advance", "ship-it", "verifying", *root]) == 0
    assert main(["contract", "grade", "ship-it", "check", *root]) == 0
    assert (repo / "seen.txt").read_text() == "none"
    assert os.environ["ARGUS_PERSON_KEY"] == PERSON_PASSPHRASE, "given back after the command"


@pytest.mark.process
@pytest.mark.parametrize("backend", ["bubblewrap", "landlock"])
def test_a_program_argus_confined_cannot_abort(
    started: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, backend: str
) -> None:
    from argus.confine import detect, run_confined, workspace

    monkeypatch.setenv("ARGUS_SANDBOX", "landlock" if backend == "landlock" else "")
    confinement = detect()
    if confinement.backend != backend:
        pytest.skip(f"{backend} is not available here ({confinement.why_not})")
    log = tmp_path / "confined.log"
    env = {**_env_without_the_secret(), "ARGUS_PERSON_KEY": PERSON_PASSPHRASE}
    # It even knows the passphrase and sheds the marker: the kernel's flag still refuses it.
    argv = ["env", "-u", "ARGUS_CONFINED", *ABORT]
    ran = run_confined(
        argv, workspace("a test", started), cwd=started, timeout=120, log_path=log, env=env,
        confinement=confinement,
    )  # fmt: skip
    assert ran.exit_code == 2, log.read_text()
    assert "confined by Argus" in log.read_text() and "no_new_privs" in log.read_text()
    assert load_state(started, "ship-it").phase == "running"
