"""``python -m MODULE`` runs without paying for the imports each time: a warm parent forks them.

A test that drives the loop as a process (tests/loop/test_kill_resume.py, test_forgery.py) runs
``python -m tests.loop.drive_fake_loop`` several times, SIGKILLed at chosen points and then
resumed, and each new interpreter spent about 0.9 s importing before the loop began.
``run_module(args, cwd=..., env=..., timeout=...)`` takes the place of ``subprocess.run(args,
cwd=..., env=..., capture_output=True, text=True, timeout=..., check=False)`` for
``args = [sys.executable, "-m", MODULE, *ARGS]``: the run is still a process of its own (a
SIGKILL kills it alone, and what it leaves behind is what a killed process leaves), forked by a
server (tests/support/warm_server.py) that has imported what MODULE imports. The child gets the
run's argv, working directory and whole environment, fresh stdout and stderr, /dev/null as
stdin; the result is a ``subprocess.CompletedProcess`` whose return code is subprocess's
(``-signal.SIGKILL`` when killed), and a timeout kills the child and raises
``subprocess.TimeoutExpired``.

The server is never the pytest worker (xdist's threads make forking it unsafe): it is a small
process of its own, started on the first run, one per module, working directory and start-up
environment, and ended by ``shutdown()`` at the end of the session (tests/support/fixtures.py)
or when the worker goes. Its environment holds only what an interpreter reads while it starts
and imports (``read_at_start``); everything else a child gets from its own run. The server
refuses to serve when its imports read any other variable (a child would see the server's
value), or left a file, a database or a thread open.

Where a run still differs from a new interpreter: MODULE is imported by the server, so it must
do its work under ``if __name__ == "__main__"``; the hash seed is the server's for all its
children, and so are the files its imports read (read once); an uncaught exception's traceback
shows the server's frames above the module's; and stdout and stderr are files, so a grandchild
that keeps them open does not hold the run up as it holds up ``subprocess.run``'s pipes. What
only a new interpreter shows (its start-up, what it inherits, signals during imports) stays
with ``subprocess``.
"""

from __future__ import annotations

import atexit
import json
import locale
import os
import socket
import subprocess
import sys
import tempfile
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any

from tests.support.warm_server import ANY_VARIABLE, MESSAGE_LIMIT

# Read by the interpreter, site (.pth files included) and the libraries a module imports, while
# it starts: a server is started for each set of values a run has.
_AT_START_PREFIXES = (
    *("PYTHON", "_PYTHON", "LC_", "COVERAGE_"),
    *("OPENBLAS_", "OMP_", "GOTO", "MKL_", "NPY_", "NUMPY_", "PILLOW_"),
)
_AT_START_NAMES = frozenset({"LANG", "LANGUAGE", "TZ", "HOME", "SETUPTOOLS_USE_DISTUTILS"})

_Key = tuple[str, str, tuple[tuple[str, str], ...]]
_servers: dict[_Key, _Server] = {}
_lock = threading.Lock()


def read_at_start(name: str) -> bool:
    """Whether an interpreter reads the variable ``name`` while it starts and imports."""
    return name in _AT_START_NAMES or name.startswith(_AT_START_PREFIXES)


def run_module(
    args: list[str], *, cwd: Path | str, env: Mapping[str, str] | None, timeout: float
) -> subprocess.CompletedProcess[str]:
    """``subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True,
    timeout=timeout, check=False)`` for ``args = [sys.executable, "-m", MODULE, *ARGS]``, forked
    from a warm server."""
    if args[:2] != [sys.executable, "-m"] or len(args) < 3:
        raise ValueError(f"warm runner: not [sys.executable, '-m', MODULE, ...]: {args}")
    run_env = dict(os.environ if env is None else env)
    start = tuple(sorted((k, v) for k, v in run_env.items() if read_at_start(k)))
    key = (args[2], str(Path(cwd).resolve()), start)
    with _lock:
        server = _servers.get(key)
        if server is None:
            server = _servers[key] = _Server(args[2], Path(key[1]), dict(start))
        try:
            return server.run(args, run_env, timeout)
        except _ServerGone:
            del _servers[key]
            raise


def shutdown() -> None:
    """End every server (each ends its running child first)."""
    with _lock:
        while _servers:
            _servers.popitem()[1].close()


class _ServerGone(RuntimeError):
    pass


class _Server:
    def __init__(self, module: str, cwd: Path, env: dict[str, str]) -> None:
        self.module = module
        self._sock, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        # The server's stderr (a traceback if it fails), open as long as the server runs.
        self._log = tempfile.TemporaryFile()  # noqa: SIM115
        code = "from tests.support.warm_server import main; main()"
        with theirs:
            self._process = subprocess.Popen(
                [sys.executable, "-c", code, str(theirs.fileno()), module],
                cwd=cwd,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=self._log,
                pass_fds=[theirs.fileno()],
            )
        try:
            ready = self._receive()
            self._check(ready)
        except BaseException:
            self.close()
            raise
        # What the interpreter's start-up adds to its environment (PEP 538's LC_CTYPE), which
        # depends only on the start-up variables, so on this server: each child gets it too.
        self._started = {k: v for k, v in ready["environ"].items() if env.get(k) != v}

    def _check(self, ready: dict[str, Any]) -> None:
        if "error" in ready:
            raise RuntimeError(f"warm runner: importing {self.module} failed:\n{ready['error']}")
        stale = [name for name in ready["read"] if name == ANY_VARIABLE or not read_at_start(name)]
        if stale:
            raise RuntimeError(
                f"warm runner: importing {self.module} read {', '.join(stale)} from the "
                "environment, so its children would see the server's value: read it at run "
                "time, or add it to the start-up variables in tests/support/warm_runner.py"
            )
        if ready["open"] or ready["threads"] != 1:
            raise RuntimeError(
                f"warm runner: importing {self.module} left descriptors {ready['open']} and "
                f"{ready['threads']} threads, which every child would share"
            )

    def run(
        self, args: list[str], env: dict[str, str], timeout: float
    ) -> subprocess.CompletedProcess[str]:
        env = {**env, **self._started}
        request = {"module": self.module, "args": args[3:], "env": env}
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            self._send(request, [out.fileno(), err.fileno()])
            self._receive()  # {"pid"}: the child runs
            try:
                status = self._receive(timeout)["status"]
            except TimeoutError:
                self._send({"kill": True})
                self._receive()
                raise subprocess.TimeoutExpired(args, timeout, _text(out), _text(err)) from None
            code = os.waitstatus_to_exitcode(status)
            return subprocess.CompletedProcess(args, code, _text(out), _text(err))

    def _send(self, message: dict[str, Any], fds: list[int] | None = None) -> None:
        data = json.dumps(message).encode()
        if len(data) > MESSAGE_LIMIT:
            raise ValueError(f"warm runner: a request of {len(data)} bytes")
        socket.send_fds(self._sock, [data], fds or [])

    def _receive(self, timeout: float | None = None) -> dict[str, Any]:
        self._sock.settimeout(timeout)
        data = self._sock.recv(MESSAGE_LIMIT)
        if not data:
            status = self._process.wait()
            log = _text(self._log)
            raise _ServerGone(f"warm runner: the server of {self.module} ended ({status}): {log}")
        message: dict[str, Any] = json.loads(data)
        return message

    def close(self) -> None:
        self._sock.close()  # the server ends at end of file, killing a running child first
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        self._log.close()


def _text(stream: IO[bytes]) -> str:
    """What ``subprocess.run(text=True)`` makes of a child's output: the locale's encoding,
    universal newlines."""
    stream.seek(0)
    data = stream.read().decode(locale.getpreferredencoding(False))
    return data.replace("\r\n", "\n").replace("\r", "\n")


atexit.register(shutdown)  # for runs outside pytest; in pytest, at the session's end
