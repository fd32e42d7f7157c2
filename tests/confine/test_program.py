"""A command whose program does not exist fails before it starts, the same way whatever
confines it (bubblewrap's execvp error, the shell's 127 and Popen's FileNotFoundError
otherwise differ), and the shell's own "not found" is read back for a compound line."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from argus.confine import Confinement, Policy, run_confined
from argus.confine.launch import popen_confined
from argus.confine.program import ProgramNotFound, check_program, program_of, shell_not_found

MISSING = "argus-no-such-program-x7"
NONE = Confinement("none", why_not="test")


@pytest.fixture(params=["confined", "unconfined"])
def confinement(request: pytest.FixtureRequest, backend: Confinement) -> Confinement:
    return backend if request.param == "confined" else NONE


@pytest.mark.parametrize("command", [MISSING, f"FOO=1 {MISSING} --flag", [MISSING, "-x"]])
def test_a_missing_program_is_named_before_it_starts(
    tmp_path: Path, confinement: Confinement, command: str | list[str]
) -> None:
    with pytest.raises(ProgramNotFound, match=f"program '{MISSING}' not found on PATH"):
        run_confined(
            command,
            Policy("test", (tmp_path,)),
            cwd=tmp_path,
            timeout=30,
            log_path=tmp_path / "log",
            confinement=confinement,
        )


def test_a_missing_program_behind_a_path_or_through_pipes(
    tmp_path: Path, confinement: Confinement
) -> None:
    with (
        pytest.raises(ProgramNotFound, match=r"'\./lint\.sh' not found at that path"),
        popen_confined(
            ["./lint.sh"], Policy("test", (tmp_path,)), cwd=tmp_path, confinement=confinement
        ),
    ):
        pass


def test_a_present_program_runs(tmp_path: Path, confinement: Confinement) -> None:
    with popen_confined(
        [sys.executable, "-c", "print(1)"],
        Policy("test", (tmp_path,)),
        cwd=tmp_path,
        confinement=confinement,
        stdout=subprocess.PIPE,
    ) as process:
        assert process.communicate()[0].strip() == b"1"


def test_the_shell_reports_a_program_later_in_the_line(
    tmp_path: Path, confinement: Confinement
) -> None:
    log = tmp_path / "log"
    ran = run_confined(
        f"cd . && {MISSING} .",
        Policy("test", (tmp_path,)),
        cwd=tmp_path,
        timeout=30,
        log_path=log,
        confinement=confinement,
    )
    assert ran.exit_code == 127
    assert shell_not_found(log.read_text()) == MISSING


@pytest.mark.parametrize(
    ("command", "program"),
    [
        ("eslint .", "eslint"),
        ("CI=1 npm run lint", "npm"),
        ("cd web && npm run lint", None),  # a builtin first: the shell tells
        ("$TOOL run", None),  # an expansion
        ("(make)", None),
        ("test -f built", None),
        ("# only a comment", None),
        ("./node_modules/.bin/eslint src", "./node_modules/.bin/eslint"),
        (["npx", "eslint"], "npx"),
        ("'unclosed", None),
        ([], None),
    ],
)
def test_program_of(command: str | list[str], program: str | None) -> None:
    assert program_of(command) == program


def test_shell_not_found_reads_dash_and_bash() -> None:
    assert shell_not_found("x\n/bin/sh: 1: eslint: not found\n") == "eslint"
    assert shell_not_found("/bin/sh: line 1: tsc: command not found\n") == "tsc"
    assert shell_not_found("eslint: 3 problems found\n") is None


def test_a_program_named_by_a_path_is_looked_for_in_the_working_folder(tmp_path: Path) -> None:
    (tmp_path / "lint.sh").write_text("#!/bin/sh\n")
    check_program("./lint.sh --all", tmp_path, {"PATH": ""})  # there: no error
    check_program(["sh", "-c", "true"], tmp_path, {"PATH": os.defpath})
    with pytest.raises(ProgramNotFound, match="'sh' not found on PATH"):
        check_program("sh -c true", tmp_path, {"PATH": str(tmp_path)})


def test_a_line_that_opens_with_a_comment_starts_the_program_after_it() -> None:
    assert program_of("# set up first\nnosuchprog --flag") == "nosuchprog"


def test_a_missing_program_is_enoent_and_names_the_program(tmp_path: Path) -> None:
    import errno

    with pytest.raises(ProgramNotFound) as raised:
        check_program("nosuchprog-argus --flag", tmp_path, {"PATH": str(tmp_path)})
    assert (raised.value.errno, raised.value.program) == (errno.ENOENT, "nosuchprog-argus")


def test_an_environment_without_path_looks_in_the_default_path_not_ours(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    program = tmp_path / "only-here-argus"
    program.write_text("#!/bin/sh\nexit 0\n")
    program.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ.get('PATH', '')}")
    check_program("only-here-argus", tmp_path, {"PATH": str(tmp_path)})  # found on its PATH
    with pytest.raises(ProgramNotFound):
        check_program("only-here-argus", tmp_path, {})  # the command's own environment


@pytest.fixture
def in_host_tmp() -> Iterator[Path]:
    """A folder right under the host's /tmp, which bubblewrap's private /tmp hides (pytest's
    own tmp_path may lie elsewhere, as TMPDIR says)."""
    folder = Path(tempfile.mkdtemp(prefix="argus-named-", dir="/tmp"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _output(
    command: str | list[str],
    cwd: Path,
    confinement: Confinement,
    env: dict[str, str] | None = None,
) -> tuple[int, str, str]:
    """The exit code, standard output and error of ``command`` run under a policy that may
    write ``cwd`` only."""
    with popen_confined(
        command,
        Policy("test", (cwd,)),
        cwd=cwd,
        env=env,
        confinement=confinement,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as process:
        out, err = process.communicate()
    return process.returncode, out, err


def test_a_program_found_on_a_path_folder_in_tmp_runs(
    tmp_path: Path, in_host_tmp: Path, confinement: Confinement
) -> None:
    """The program Argus found on PATH (check_program) is the one that runs: a PATH folder
    in the host's /tmp is shown inside the private one."""
    tool = in_host_tmp / "argus-tool-x7"
    tool.write_text("#!/bin/sh\necho from-tmp\n")
    tool.chmod(0o755)
    env = {**os.environ, "PATH": f"{in_host_tmp}{os.pathsep}{os.environ.get('PATH', '')}"}
    code, out, err = _output("argus-tool-x7", tmp_path, confinement, env)
    assert (code, out.strip()) == (0, "from-tmp"), err


@pytest.mark.skipif(sys.prefix == sys.base_prefix, reason="the suite runs outside a virtualenv")
def test_a_virtualenv_in_tmp_reached_through_a_symlink_is_the_same_inside(
    tmp_path: Path, in_host_tmp: Path, confinement: Confinement
) -> None:
    """A virtualenv's interpreter named by a path in the host's /tmp that resolves elsewhere
    (a symlinked virtualenv): the same interpreter with the same packages runs inside."""
    venv = in_host_tmp / "venv"
    venv.symlink_to(sys.prefix, target_is_directory=True)
    argv = [str(venv / "bin" / "python"), "-c", "import sys, argus; print(sys.prefix)"]
    code, out, err = _output(argv, tmp_path, confinement)
    assert (code, out.strip()) == (0, str(venv)), err
