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
``subprocess.TimeoutExpired``. ``input`` is ``subprocess.run``'s: the child's stdin is then a
pipe holding it, closed after it, in place of /dev/null.

``preload`` names modules the server imports as well (``python -m argus``'s package imports
next to nothing; the commands import the rest): the server is then shared by every working
directory (it is started in an empty one, and each child changes to its run's), and a run is
refused when its working directory holds a module that would come first on the child's
``sys.path`` (a ``json.py``, a ``numpy/__init__.py``) with the name of one the server imported.

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
import contextlib
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
    *("OPENBLAS_", "OMP_", "GOTO", "MKL_", "NPY_", "NUMPY_", "PILLOW_", "PYDANTIC_"),
)
_AT_START_NAMES = frozenset({"LANG", "LANGUAGE", "TZ", "HOME", "SETUPTOOLS_USE_DISTUTILS"})

_CHECKOUT = Path(__file__).resolve().parents[2]
_Key = tuple[str, tuple[str, ...], str, tuple[tuple[str, str], ...]]
_servers: dict[_Key, _Server] = {}
_lock = threading.Lock()
_neutral: list[tempfile.TemporaryDirectory[str]] = []  # the one empty directory of shared servers


def read_at_start(name: str) -> bool:
    """Whether an interpreter reads the variable ``name`` while it starts and imports."""
    return name in _AT_START_NAMES or name.startswith(_AT_START_PREFIXES)


def run_module(
    args: list[str],
    *,
    cwd: Path | str,
    env: Mapping[str, str] | None,
    timeout: float,
    input: str | None = None,
    preload: tuple[str, ...] = (),
) -> subprocess.CompletedProcess[str]:
    """``subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True,
    timeout=timeout, check=False, input=input)`` for ``args = [sys.executable, "-m", MODULE,
    *ARGS]``, forked from a warm server (one that imported ``preload`` too)."""
    if args[:2] != [sys.executable, "-m"] or len(args) < 3:
        raise ValueError(f"warm runner: not [sys.executable, '-m', MODULE, ...]: {args}")
    run_env = dict(os.environ if env is None else env)
    start = tuple(sorted((k, v) for k, v in run_env.items() if read_at_start(k)))
    run_cwd = Path(cwd).resolve()
    with _lock:
        where = _neutral_directory() if preload else run_cwd
        key = (args[2], preload, str(where), start)
        server = _servers.get(key)
        if server is None:
            server = _servers[key] = _Server(args[2], preload, where, dict(start))
        server.check_shadows(run_cwd)
        try:
            return server.run(args, run_cwd, run_env, timeout, input)
        except _ServerGone:
            del _servers[key]
            raise


def shutdown() -> None:
    """End every server (each ends its running child first)."""
    with _lock:
        while _servers:
            _servers.popitem()[1].close()
        while _neutral:
            _neutral.pop().cleanup()


def _neutral_directory() -> Path:
    if not _neutral:
        _neutral.append(tempfile.TemporaryDirectory(prefix="warm-server-"))
    return Path(_neutral[0].name).resolve()


class _ServerGone(RuntimeError):
    pass


class _Server:
    def __init__(
        self, module: str, preload: tuple[str, ...], cwd: Path, env: dict[str, str]
    ) -> None:
        self.module = module
        self.cwd = cwd
        self._sock, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        # The server's stderr (a traceback if it fails), open as long as the server runs.
        self._log = tempfile.TemporaryFile()  # noqa: SIM115
        # The tests' package from this checkout, not on the child's sys.path once imported.
        code = (
            f"import sys; sys.path.insert(0, {str(_CHECKOUT)!r}); "
            "from tests.support.warm_server import main; del sys.path[0]; main()"
        )
        with theirs:
            self._process = subprocess.Popen(
                [sys.executable, "-c", code, str(theirs.fileno()), module, *preload],
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
        self._imported = frozenset(ready["imported"])

    def check_shadows(self, cwd: Path) -> None:
        """Refuse a run whose working directory (first on its ``sys.path``) holds a module of a
        name the server imported from elsewhere: a new interpreter would import that one."""
        if cwd == self.cwd:
            return  # the server imported with the same directory first
        found = {_module_name(entry) for entry in cwd.iterdir()} & self._imported
        if found:
            raise RuntimeError(
                f"warm runner: {cwd} holds {', '.join(sorted(found))}, which a new interpreter "
                f"would import from there and the server of {self.module} imported from "
                "elsewhere: run it with subprocess"
            )

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
        self, args: list[str], cwd: Path, env: dict[str, str], timeout: float, data: str | None
    ) -> subprocess.CompletedProcess[str]:
        env = {**env, **self._started}
        request = {"module": self.module, "args": args[3:], "env": env, "cwd": str(cwd)}
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            fds = [out.fileno(), err.fileno()]
            if data is None:
                self._send(request, fds)
            else:
                self._send_with_input(request, fds, data)
            self._receive()  # {"pid"}: the child runs
            try:
                status = self._receive(timeout)["status"]
            except TimeoutError:
                self._send({"kill": True})
                self._receive()
                raise subprocess.TimeoutExpired(args, timeout, _text(out), _text(err)) from None
            code = os.waitstatus_to_exitcode(status)
            return subprocess.CompletedProcess(args, code, _text(out), _text(err))

    def _send_with_input(self, request: dict[str, Any], fds: list[int], data: str) -> None:
        """Send the request with the read end of a pipe for the child's stdin, and write
        ``data`` into it from a thread (as ``subprocess.run`` writes it), closing it after."""
        read_end, write_end = os.pipe()
        try:
            self._send(request, [*fds, read_end])
        finally:
            os.close(read_end)
        encoded = data.encode(locale.getpreferredencoding(False))

        def write() -> None:
            rest = memoryview(encoded)
            try:
                with contextlib.suppress(BrokenPipeError):  # the child exited without reading
                    while rest:
                        rest = rest[os.write(write_end, rest) :]
            finally:
                os.close(write_end)

        threading.Thread(target=write, daemon=True).start()

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


def _module_name(entry: Path) -> str:
    """The top-level module an entry of a ``sys.path`` directory provides ("" for none)."""
    if entry.is_dir():
        return entry.name if (entry / "__init__.py").is_file() else ""
    name, _, suffix = entry.name.partition(".")
    return name if suffix == "py" or suffix == "so" or suffix.endswith(".so") else ""


def _text(stream: IO[bytes]) -> str:
    """What ``subprocess.run(text=True)`` makes of a child's output: the locale's encoding,
    universal newlines."""
    stream.seek(0)
    data = stream.read().decode(locale.getpreferredencoding(False))
    return data.replace("\r\n", "\n").replace("\r", "\n")


atexit.register(shutdown)  # for runs outside pytest; in pytest, at the session's end
