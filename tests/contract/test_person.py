"""Who counts as a person (argus.person): not a terminal, not an environment variable; a
process Argus did not confine that knows the person's passphrase."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

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


def _key_file() -> Path:
    return Path(os.environ["ARGUS_STATE_HOME"]) / "person-key.json"


def test_without_proc_status_only_the_marker_says_confined(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = Path.read_text

    def no_proc(self: Path, *args: Any, **kwargs: Any) -> str:
        if str(self) == "/proc/self/status":
            raise FileNotFoundError(2, "No such file or directory")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Path, "read_text", no_proc)
    assert person.confinement() is None
    monkeypatch.setenv("ARGUS_CONFINED", "bubblewrap")
    assert person.confinement() == "ARGUS_CONFINED is set"


def test_the_kernel_flag_is_named_as_the_reason() -> None:
    status = "Name:\tpython\nSeccomp:\t1\nNoNewPrivs:\t1\n"
    assert person.confinement(status) == "the kernel's no_new_privs flag is set on this process"
    assert person.confinement("Seccomp:\t1\nNoNewPrivs:\t0\n") is None


def test_a_key_file_is_read_only_up_to_4_kib(no_secret: None) -> None:
    record = json.loads(_key_file().read_text())
    body = json.dumps(record)
    fits = body[:-1] + " " * (4096 - len(body)) + "}"
    assert len(fits.encode()) == 4096
    _key_file().write_text(fits)
    assert person.verify(PERSON_PASSPHRASE)
    _key_file().write_text(body[:-1] + " " * (4097 - len(body)) + "}")  # the brace cut off
    assert not person.verify(PERSON_PASSPHRASE)
    assert person.has_key(), "a key that cannot be read still counts as set: it refuses"


@pytest.mark.parametrize(
    "change",
    [{"salt": "not hex"}, {"scrypt": "zz"}, {"n": "many"}, {"r": 4}, {"p": 2}, {"n": 2**15}],
)
def test_a_key_record_with_a_bad_or_other_field_refuses(
    no_secret: None, change: dict[str, Any]
) -> None:
    record = json.loads(_key_file().read_text())
    _key_file().write_text(json.dumps({**record, **change}))
    assert not person.verify(PERSON_PASSPHRASE)


@pytest.mark.parametrize("text", ["[1, 2]", '"a key"', "[" * 100_000, "\xff"])
def test_a_key_file_that_is_not_a_record_refuses(no_secret: None, text: str) -> None:
    _key_file().write_text(text, "latin-1")
    assert not person.verify(PERSON_PASSPHRASE)
    with pytest.raises(InputError, match="not given or is wrong"):
        person.require_person("argus approve", secret=PERSON_PASSPHRASE)


def test_a_field_missing_from_the_key_refuses(no_secret: None) -> None:
    for field in ("salt", "scrypt", "n", "r", "p"):
        record = json.loads(_key_file().read_text())
        del record[field]
        _key_file().write_text(json.dumps(record))
        assert not person.verify(PERSON_PASSPHRASE), field


def test_an_empty_passphrase_never_counts(no_secret: None) -> None:
    salt = bytes(16)
    empty = person._digest("", salt, person.SCRYPT).hex()
    _key_file().write_text(json.dumps({**person.SCRYPT, "salt": salt.hex(), "scrypt": empty}))
    assert not person.verify("")


def test_without_a_key_nothing_verifies(no_secret: None) -> None:
    _key_file().unlink()
    assert not person.has_key() and not person.verify(PERSON_PASSPHRASE)


def test_the_passphrase_is_read_from_standard_input_without_its_line_end(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("my words \r\nnext line\n"))
    assert person.ask("give it: ") == "my words "
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert person.ask("give it: ") == ""
    monkeypatch.setattr(sys, "stdin", None)
    assert person.ask("give it: ") == ""


def test_on_a_terminal_the_passphrase_is_asked_without_echo(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    asked: list[str] = []
    monkeypatch.setattr(sys, "stdin", Terminal("typed where it echoes\n"))
    monkeypatch.setattr("getpass.getpass", lambda text: asked.append(text) or "hidden")
    assert person.ask("give it: ") == "hidden" and asked == ["give it: "]


@pytest.mark.parametrize(
    "error",
    [EOFError(), OSError(5, "I/O"), UnicodeDecodeError("utf-8", b"\xff", 0, 1, "x"), ValueError()],
)
def test_a_passphrase_that_cannot_be_read_is_empty(
    monkeypatch: pytest.MonkeyPatch, error: Exception
) -> None:
    def fail(_: str) -> str:
        raise error

    monkeypatch.setattr("argus.person._prompt", fail)
    assert person.ask("give it: ") == ""


def test_the_held_or_given_passphrase_comes_before_asking(
    no_secret: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[str] = []
    monkeypatch.setattr("argus.person._prompt", lambda text: asked.append(text) or "typed")
    assert person.person_secret("argus approve") == "typed"
    assert asked == ["argus approve is a person's decision; your Argus person passphrase: "]
    monkeypatch.setenv("ARGUS_PERSON_KEY", "from the shell")
    assert person.person_secret("argus approve") == "from the shell"
    monkeypatch.setattr(person, "held_secret", "held")
    assert person.person_secret("argus approve") == "held"
    assert len(asked) == 1
    person.require_person("argus approve", secret=PERSON_PASSPHRASE)  # given: not asked
    monkeypatch.setattr(person, "held_secret", PERSON_PASSPHRASE)
    person.require_person("argus approve")
    assert len(asked) == 1


def test_each_refusal_names_the_action_and_why(
    no_secret: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(InputError) as wrong:
        person.require_person("argus approve", secret="a guess")
    assert str(wrong.value) == (
        "argus approve is a person's decision: the Argus person passphrase was not given or "
        "is wrong (a terminal alone does not prove a person)"
    )
    _key_file().unlink()
    with pytest.raises(InputError) as unset:
        person.require_person("argus approve", secret=PERSON_PASSPHRASE)
    assert str(unset.value) == (
        "argus approve is a person's decision and no person key is set; the person sets one "
        "with `argus person init` in their own terminal"
    )
    monkeypatch.setenv("ARGUS_CONFINED", "1")
    with pytest.raises(InputError) as confined:
        person.require_person("argus approve", secret=PERSON_PASSPHRASE)
    assert str(confined.value) == (
        "argus approve is a person's decision and this process was confined by Argus "
        "(ARGUS_CONFINED is set); a person runs it outside the confinement"
    )


def test_set_key_writes_a_fresh_salted_scrypt_record_only_the_person_reads(
    no_secret: None,
) -> None:
    _key_file().unlink()
    with pytest.raises(InputError) as short:
        person.set_key("7 chars")
    assert str(short.value) == "argus person init: the passphrase needs 8 characters"
    assert not _key_file().exists()
    assert person.set_key("8 chars!") == _key_file()
    record = json.loads(_key_file().read_text())
    assert set(record) == {"n", "r", "p", "salt", "scrypt"}
    assert {k: record[k] for k in ("n", "r", "p")} == {"n": 2**14, "r": 8, "p": 1}
    salt = bytes.fromhex(record["salt"])
    assert len(salt) == 16 and salt != bytes(16)
    assert (
        record["scrypt"]
        == hashlib.scrypt(b"8 chars!", salt=salt, n=2**14, r=8, p=1, dklen=32).hex()
    )
    assert _key_file().stat().st_mode & 0o777 == 0o600
    person.set_key("another one", current="8 chars!")
    assert json.loads(_key_file().read_text())["salt"] != record["salt"], "a new salt each time"


def test_set_key_replaces_every_home_s_key_and_writes_the_chosen_one(
    no_secret: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    account = person.state_homes()[-1]
    account.mkdir(parents=True, exist_ok=True)
    (account / "person-key.json").write_text(_key_file().read_text())
    chosen = tmp_path / "chosen"
    monkeypatch.setenv("ARGUS_STATE_HOME", str(chosen))
    assert person.set_key("a new passphrase", current=PERSON_PASSPHRASE) == (
        chosen / "person-key.json"
    )
    assert person.verify("a new passphrase") and not person.verify(PERSON_PASSPHRASE)
    assert (account / "person-key.json").read_text() == (chosen / "person-key.json").read_text()


def test_set_key_refuses_a_confined_process_and_a_wrong_current_passphrase(
    no_secret: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _key_file().read_text()
    with pytest.raises(InputError) as wrong:
        person.set_key("a new passphrase", current="a guess")
    assert str(wrong.value) == (
        "argus person init: a person key is already set; give the current passphrase to change it"
    )
    monkeypatch.setenv("ARGUS_CONFINED", "1")
    with pytest.raises(InputError) as confined:
        person.set_key("a new passphrase", current=PERSON_PASSPHRASE)
    assert str(confined.value) == (
        "argus person init: refused from a confined process (ARGUS_CONFINED is set)"
    )
    assert _key_file().read_text() == before


def test_a_status_file_that_is_not_utf_8_still_shows_the_kernel_flag(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The process name in /proc/self/status is the kernel's bytes, not always UTF-8 (a
    # program may name itself so): the flag's line is still read.
    stand_in = tmp_path / "status"
    stand_in.write_bytes(b"Name:\t\xff\xfeagent\nNoNewPrivs:\t1\n")
    real = Path.read_text

    def proc_status(self: Path, *args: Any, **kwargs: Any) -> str:
        return real(stand_in if str(self) == "/proc/self/status" else self, *args, **kwargs)

    monkeypatch.setattr(Path, "read_text", proc_status)
    assert person.confinement() == "the kernel's no_new_privs flag is set on this process"
    stand_in.write_bytes(b"Name:\t\xff\xfeagent\nNoNewPrivs:\t0\n")
    assert person.confinement() is None


def test_a_key_file_that_cannot_be_read_refuses(no_secret: None) -> None:
    _key_file().unlink()
    _key_file().mkdir()  # reading it fails with an OSError
    assert person.has_key() and not person.verify(PERSON_PASSPHRASE)
    with pytest.raises(InputError, match="not given or is wrong"):
        person.require_person("argus approve", secret=PERSON_PASSPHRASE)


@pytest.mark.parametrize(
    ("typed", "read"), [("ends in MAX\n", "ends in MAX"), ("XX\r\n\r\n", "XX"), ("a\rb\n", "a\rb")]
)
def test_only_the_line_end_is_taken_off_a_passphrase_from_standard_input(
    monkeypatch: pytest.MonkeyPatch, typed: str, read: str
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    assert person.ask("give it: ") == read


def test_require_person_asks_naming_the_action(
    no_secret: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[str] = []
    monkeypatch.setattr(
        "argus.person._prompt", lambda text: asked.append(text) or PERSON_PASSPHRASE
    )
    person.require_person("argus contract pin")
    assert asked == ["argus contract pin is a person's decision; your Argus person passphrase: "]


def test_set_key_without_a_current_passphrase_takes_the_held_one_or_asks(
    no_secret: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(person, "held_secret", PERSON_PASSPHRASE)
    person.set_key("a second passphrase")
    assert person.verify("a second passphrase") and not person.verify(PERSON_PASSPHRASE)
    monkeypatch.setattr(person, "held_secret", None)
    asked: list[str] = []
    monkeypatch.setattr(
        "argus.person._prompt", lambda text: asked.append(text) or "a second passphrase"
    )
    person.set_key("a third passphrase")
    assert asked == ["argus person init is a person's decision; your Argus person passphrase: "]
    assert person.verify("a third passphrase")


def test_set_key_still_writes_the_key_where_its_mode_cannot_be_set(
    no_secret: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A file system without Unix permissions (a FAT drive, some mounts) refuses chmod: the
    # key is written all the same.
    def refuse(self: Path, mode: int) -> None:
        raise PermissionError(1, "Operation not permitted", str(self))

    monkeypatch.setattr(Path, "chmod", refuse)
    assert person.set_key("a new passphrase", current=PERSON_PASSPHRASE) == _key_file()
    assert person.verify("a new passphrase")
