"""Run the `argus` command line for a test: in this process by default, as a process on request.

A new Python process costs ~0.3 s before Argus does anything (interpreter, imports), and ~240
tests call the CLI. In-process, ``argus.cli.main`` runs with the same argv, working directory,
environment and standard streams a process would have had, and the result has the shape of
``subprocess.CompletedProcess``, so a test reads the same either way. A new process (the test
marked ``process``) is kept for what only a process can show: start-up cost, signals and kills,
what a child inherits.

Browser tests call the CLI in-process too: Argus drives Chromium only through Playwright's async
API, on an event loop of its own thread (argus.sense.sensor), so it runs beside a test's own
warm sensor. What cannot share this thread is Playwright's sync API (it refuses to start where
an event loop is running): a test holding a sync Playwright page (pytest-playwright's ``page``)
must not call the CLI in-process while that page is open, or must be marked ``process``.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
import traceback
from collections.abc import Iterator, Mapping
from pathlib import Path

from argus.cli import main


def run_in_process(
    args: tuple[str, ...], cwd: Path | None, env: Mapping[str, str] | None, stdin: bytes = b""
) -> subprocess.CompletedProcess[str]:
    """``argus ARGS`` run by ``argus.cli.main`` with a process's surroundings (``stdin`` on its
    standard input); an exception that escapes is printed as a traceback on stderr and exits
    1, as the interpreter would."""
    stdout, stderr = _stream(), _stream()
    with _surroundings(cwd, env, stdout, stderr, stdin):
        try:
            code = main(list(args))
        except SystemExit as ended:  # argparse's usage errors, --help
            code = _exit_code(ended.code, stderr)
        except BaseException:  # what an uncaught exception does to a process
            traceback.print_exc()
            code = 1
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
    return subprocess.CompletedProcess(["argus", *args], code, _text(stdout), _text(stderr))


def code_under_test(env: Mapping[str, str]) -> dict[str, str]:
    """``env`` with the source of the ``argus`` this test imported first on PYTHONPATH, so a
    new ``python -m argus`` runs the code under test, not whatever copy is installed (an
    editable install points at one checkout; a client may pass a child a trimmed environment
    without the test run's own PYTHONPATH)."""
    import argus

    source = str(Path(argus.__file__).resolve().parents[1])
    rest = env.get("PYTHONPATH", "")
    return {**env, "PYTHONPATH": os.pathsep.join([source, rest] if rest else [source])}


def run_as_process(
    args: tuple[str, ...],
    cwd: Path | None,
    env: Mapping[str, str] | None,
    timeout: float,
    stdin: bytes = b"",
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "argus", *args],
        cwd=cwd,
        env=None if env is None else dict(env),
        capture_output=True,
        input=stdin.decode("utf-8") if stdin else None,  # none given: inherited, as before
        text=True,
        timeout=timeout,
        check=False,
    )


def _stream() -> io.TextIOWrapper:
    return io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace")


def _text(stream: io.TextIOWrapper) -> str:
    stream.flush()
    buffer = stream.buffer
    assert isinstance(buffer, io.BytesIO)
    return buffer.getvalue().decode("utf-8", "replace")


def _exit_code(code: object, stderr: io.TextIOWrapper) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=stderr)
    return 1


@contextlib.contextmanager
def _surroundings(
    cwd: Path | None,
    env: Mapping[str, str] | None,
    stdout: io.TextIOWrapper,
    stderr: io.TextIOWrapper,
    stdin: bytes = b"",
) -> Iterator[None]:
    """The working directory, environment and standard streams of a process started from here
    (``stdin`` its standard input), put back afterwards whatever happens."""
    saved_env = dict(os.environ)
    saved_cwd = os.getcwd()
    saved_streams = sys.stdin, sys.stdout, sys.stderr
    if env is not None:
        os.environ.clear()
        os.environ.update(env)
    if cwd is not None:
        os.chdir(cwd)
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    sys.stdout, sys.stderr = stdout, stderr
    try:
        yield
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved_streams
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
