"""Commands Argus runs in their own process group: start, wait with a timeout, stop, read the tail.

A project's build, the implementer agent, the web server, a judge command or an adapter may
spawn children of their own. Each is started as the leader of a new session, so stopping it
signals its whole process group, and when it ends, what is left of its group is killed too.
A child that left the group (``setsid``, a double fork) is caught with ``end_escapees``: on
Linux, Argus is made the "child subreaper" for the run, so an orphan of the command is
reparented to Argus instead of init, and every new child of Argus left when the command ends
is killed.

    run = run_in_group(["my-agent", prompt], cwd=root, timeout=900, log_path=log)
    run.exit_code, run.timed_out, run.seconds     # exit_code None: stopped on timeout
    one_line(read_tail(log))                      # the output's end, for a one-line error
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

STOP_GRACE_S = 5.0
TAIL_BYTES = 64 * 1024
TAIL_CHARS = 400

Command = str | Sequence[str]  # a string is a shell command line, a sequence an argv (no shell)


@dataclass(frozen=True)
class GroupRun:
    """How a command run by ``run_in_group`` ended."""

    exit_code: int | None  # None when it was stopped on timeout
    timed_out: bool
    seconds: float


def start_in_group(
    command: Command,
    *,
    cwd: Path,
    log: IO[bytes] | int,
    env: Mapping[str, str] | None = None,
    preexec: Callable[[], None] | None = None,
) -> subprocess.Popen[bytes]:
    """Start ``command`` as the leader of a new process group, stdout and stderr to ``log``,
    stdin empty; ``preexec`` runs in the child between fork and exec (argus.confine). OSError
    when it cannot start."""
    shell = isinstance(command, str)
    # preexec_fn in a threaded process is safe only for code that takes no lock another thread
    # may have held at the fork (no import, no dlopen; glibc resets malloc's locks in the
    # child): argus.confine's hooks make pre-resolved syscalls only.
    return subprocess.Popen(
        command if shell else list(command),
        shell=shell,
        cwd=cwd,
        env=None if env is None else dict(env),
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        preexec_fn=preexec,
    )


def signal_group(pid: int, sig: signal.Signals) -> bool:
    """Send ``sig`` to the process group ``pid`` leads; False when the group is already gone."""
    try:
        os.killpg(pid, sig)
    except ProcessLookupError:
        return False
    return True


def stop_group(process: subprocess.Popen[Any], grace: float = STOP_GRACE_S) -> None:
    """Stop ``process`` and its whole group: SIGTERM, then after ``grace`` seconds SIGKILL
    (``grace`` 0: SIGKILL at once). Returns once the leader is reaped."""
    if grace > 0 and signal_group(process.pid, signal.SIGTERM):
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=grace)
    # The leader may have exited while members of its group linger: SIGKILL the group anyway.
    signal_group(process.pid, signal.SIGKILL)
    process.wait()


def run_in_group(
    command: Command,
    *,
    cwd: Path,
    timeout: float,
    log_path: Path,
    env: Mapping[str, str] | None = None,
    grace: float = STOP_GRACE_S,
    end_escapees: bool = False,
    preexec: Callable[[], None] | None = None,
    stop: Callable[[subprocess.Popen[bytes], float], None] | None = None,
) -> GroupRun:
    """Run ``command`` to its end, or for ``timeout`` seconds and then stop its group; its
    output (stdout and stderr) goes to ``log_path``. Whatever is left of its process group
    when it ends is killed; with ``end_escapees`` also every process it left behind outside
    its group (Linux); ``stop`` replaces ``stop_group`` on timeout. OSError when it cannot
    start."""
    log_path.parent.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    ours = child_pids(os.getpid()) if end_escapees else set()
    reaping = end_escapees and _set_subreaper(True)
    try:
        with log_path.open("wb") as log:
            process = start_in_group(command, cwd=cwd, log=log, env=env, preexec=preexec)
            try:
                code = process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                (stop or stop_group)(process, grace)
                return GroupRun(None, True, time.monotonic() - started)
            except BaseException:
                # A Ctrl-C (or any error) while it runs: its group is in a session of its
                # own, which the terminal's SIGINT does not reach, so Argus ends it here.
                signal_group(process.pid, signal.SIGKILL)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(timeout=STOP_GRACE_S)
                raise
            signal_group(process.pid, signal.SIGKILL)  # nothing of its group outlives it
        return GroupRun(code, False, time.monotonic() - started)
    finally:
        if reaping:
            end_newchild_pids(ours)
            _set_subreaper(False)


# prctl(2) option: orphaned descendants are reparented to this process instead of init.
_PR_SET_CHILD_SUBREAPER = 36
_SWEEP_ROUNDS = 1000


def _set_subreaper(on: bool) -> bool:
    """Make this process the child subreaper (Linux); False where that is not possible."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(_PR_SET_CHILD_SUBREAPER, int(on), 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def child_pids(pid: int) -> set[int]:
    """The pids whose parent is ``pid``, from /proc (empty where there is no /proc)."""
    found: set[int] = set()
    try:
        entries = os.listdir("/proc")
    except OSError:
        return found
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            continue  # gone meanwhile
        # "pid (comm) state ppid ...": comm may hold spaces and parentheses.
        fields = stat[stat.rfind(b")") + 2 :].split()
        if len(fields) > 1 and fields[1].isdigit() and int(fields[1]) == pid:
            found.add(int(entry))
    return found


def end_newchild_pids(keep: set[int]) -> None:
    """SIGKILL and reap every child of this process not in ``keep``, round after round (a
    killed process's own children are reparented to us), until none is left."""
    me = os.getpid()
    for _ in range(_SWEEP_ROUNDS):
        new = child_pids(me) - keep
        if not new:
            return
        for pid in new:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        for pid in new:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)


def read_tail(path: Path, max_bytes: int = TAIL_BYTES) -> str:
    """The text of the last ``max_bytes`` of a log file ("" when it cannot be read)."""
    try:
        with path.open("rb") as fh:
            fh.seek(0, os.SEEK_END)
            fh.seek(max(0, fh.tell() - max_bytes))
            return fh.read().decode("utf-8", errors="replace")
    except OSError:
        return ""


def one_line(output: str | bytes, max_chars: int = TAIL_CHARS, empty: str = "(no output)") -> str:
    """The end of a command's output as one line for an error: whitespace collapsed, at most
    ``max_chars`` characters, ``empty`` when there was none."""
    if isinstance(output, bytes):
        output = output.decode("utf-8", errors="replace")
    text = " ".join(output.split())
    return text[-max_chars:] if text else empty
