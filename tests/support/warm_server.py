"""The warm parent of tests/support/warm_runner.py: it imports a module's dependencies once,
then forks a child for each run, which becomes ``python -m MODULE ARGS`` as a new process would.

Started by the runner as ``python -c '...from tests.support.warm_server import main; main()' FD
MODULE [PRELOAD...]`` with only the start-up part of the environment
(``warm_runner.read_at_start``). FD is its end of a SOCK_SEQPACKET socket pair; each message is
JSON. The server first answers with what a child could inherit that it should not: the
environment variables its imports read, its open descriptors and its threads, and the top-level
modules it imported. Then, per run: a request (arguments, working directory, environment, and
the run's stdout and stderr files, and the read end of its stdin's pipe if it has one, as
descriptors) → ``{"pid"}`` → ``{"status"}``, the raw wait status; ``{"kill"}`` from the runner
meanwhile (its timeout) SIGKILLs the child. The server ends when the runner closes its end; a
child still running is killed first.

It does nothing else: no files, databases or threads of its own, and it never writes to its
standard streams, so a child starts with empty buffers.
"""

from __future__ import annotations

import importlib
import json
import os
import runpy
import select
import signal
import socket
import sys
import threading
import traceback
from typing import Any

MESSAGE_LIMIT = 1 << 20
ANY_VARIABLE = "*"  # the whole environment was read (iterated or copied)


def main() -> None:
    sock = socket.socket(fileno=int(sys.argv[1]))
    module, preload = sys.argv[2], sys.argv[3:]
    environ = dict(os.environ)  # as the interpreter's start-up left it (locale coercion)
    try:
        read = _preload(module, preload)
    except BaseException:
        _send(sock, {"error": traceback.format_exc()})
        raise SystemExit(1) from None
    others = [fd for fd in _open_fds() if fd not in (0, 1, 2, sock.fileno())]
    threads = threading.active_count()
    imported = sorted({name.partition(".")[0] for name in _imported_from_files()})
    ready = {"environ": environ, "read": read, "open": others, "threads": threads}
    _send(sock, {**ready, "imported": imported})
    job = _serve(sock)
    if job is not None:  # in a forked child: from here on, the run's own process
        _become(*job)


def _preload(module: str, preload: list[str]) -> list[str]:
    """Import what ``module`` imports (the module itself is run afresh in each child, as ``-m``
    runs it; a package's ``__main__`` was never imported) and the modules ``preload`` names, and
    return the environment variables read meanwhile."""
    read: set[str] = set()
    environ = type(os.environ)
    getitem, iterate = environ.__getitem__, environ.__iter__

    def spied_getitem(self: Any, key: str) -> str:  # get, in and getenv come here too
        read.add(key)
        return getitem(self, key)

    def spied_iter(self: Any) -> Any:
        read.add(ANY_VARIABLE)
        return iterate(self)

    environ.__getitem__, environ.__iter__ = spied_getitem, spied_iter  # type: ignore[method-assign]
    try:
        for name in (module, *preload):
            importlib.import_module(name)
    finally:
        environ.__getitem__, environ.__iter__ = getitem, iterate  # type: ignore[method-assign]
    if not hasattr(sys.modules[module], "__path__"):
        parent, _, name = module.rpartition(".")
        del sys.modules[module]
        if parent:
            delattr(sys.modules[parent], name)
    return sorted(read)


def _imported_from_files() -> list[str]:
    """The modules imported from a file (built-in and frozen ones are found before sys.path)."""
    return [
        name
        for name, loaded in list(sys.modules.items())
        if getattr(getattr(loaded, "__spec__", None), "has_location", False)
    ]


def _open_fds() -> list[int]:
    listed = [int(name) for name in os.listdir("/proc/self/fd")]
    return [fd for fd in listed if _is_open(fd)]  # the listing's own descriptor is closed now


def _is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


def _serve(sock: socket.socket) -> tuple[dict[str, Any], list[int]] | None:
    """Fork a child per request and report its wait status; return in the child, with its
    request and descriptors, or None in the server once the runner has gone."""
    while True:
        request, fds = _receive(sock)
        if request is None:
            return None
        pid = os.fork()
        if pid == 0:
            sock.close()
            return request, fds
        for fd in fds:
            os.close(fd)
        _send(sock, {"pid": pid})
        status, runner_gone = _wait(sock, pid)
        if runner_gone:
            return None
        _send(sock, {"status": status})


def _wait(sock: socket.socket, pid: int) -> tuple[int, bool]:
    """The child's wait status, killing it if the runner asks or goes; and whether it went."""
    pidfd = os.pidfd_open(pid)
    gone = False
    try:
        while True:
            ready, _, _ = select.select([pidfd, sock.fileno()], [], [])
            if pidfd in ready:
                return os.waitpid(pid, 0)[1], gone
            message, _ = _receive(sock)
            gone = gone or message is None
            os.kill(pid, signal.SIGKILL)  # not reaped yet: the pid is still this child's
    finally:
        os.close(pidfd)


def _become(request: dict[str, Any], fds: list[int]) -> None:
    """Turn this forked child into ``python -m MODULE ARGS`` started with the request's working
    directory, environment, stdout and stderr (its stdin is the pipe sent with them, or else
    the server's /dev/null, as a test process's is), then run the module; its exit is the
    interpreter's own."""
    for target, fd in zip((1, 2, 0), fds, strict=False):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    _forget_the_server()
    module, args = request["module"], request["args"]
    sys.path[0] = os.getcwd()  # what -m puts first (the server's is "", from -c)
    sys.orig_argv = [sys.executable, "-m", module, *args]
    sys.argv = [module, *args]  # run_module puts the module's file first, as -m does
    runpy.run_module(module, run_name="__main__", alter_sys=True)


def _forget_the_server() -> None:
    """What the server's start-up settled from its own environment or process that a new
    interpreter settles from the child's: the start-up hooks run again with the child's
    environment (the tests' sitecustomize reads ARGUS_TEST_ACCOUNT_STATE), and the random
    generator numpy seeded at its import is seeded again (``random`` seeds itself again after a
    fork). An import that read the environment itself was refused by the runner (``_preload``
    reports what it read), and the working directory is the server's (it is in its key)."""
    for name in ("sitecustomize", "usercustomize"):
        hook = sys.modules.get(name)
        if hook is not None:
            importlib.reload(hook)
    numpy_random = sys.modules.get("numpy.random")
    if numpy_random is not None:  # its global generator
        numpy_random.seed()


def _send(sock: socket.socket, message: dict[str, Any], fds: list[int] | None = None) -> None:
    data = json.dumps(message).encode()
    if len(data) > MESSAGE_LIMIT:
        raise ValueError(f"warm runner message of {len(data)} bytes (at most {MESSAGE_LIMIT})")
    socket.send_fds(sock, [data], fds or [])


def _receive(sock: socket.socket) -> tuple[dict[str, Any] | None, list[int]]:
    """The next message and the descriptors sent with it; None once the other end closed."""
    data, fds, flags, _ = socket.recv_fds(sock, MESSAGE_LIMIT, 3)
    if flags & (socket.MSG_TRUNC | socket.MSG_CTRUNC):
        raise ValueError("warm runner message truncated")
    return (json.loads(data) if data else None), fds
