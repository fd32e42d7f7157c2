"""Start an untrusted program under a policy: the one way Argus runs what the builder controls.

    run = run_confined("npm run lint", policy.workspace("gate lint", root), cwd=root,
                       timeout=300, log_path=log)            # to its end, then nothing is left
    with start_confined(command, pol, cwd=root, log=fh) as process:   # a server, for a block
        ...

Under bubblewrap the argv is wrapped (bwrap.py); under Landlock the ruleset and a cgroup are
prepared here and applied in the child between fork and exec (landlock.py, contain.py); with
neither, the program runs as before, its process group and re-parented children swept
(argus.proc), and the caller reports "hash-checked only". After the program ends, whatever it
started is gone: the PID namespace's init died, the cgroup was killed, or the sweep ran.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from argus.confine import _bwrap as bwrap
from argus.confine._landlock import Ruleset, allow_list
from argus.confine._policy import Policy
from argus.confine.contain import Cgroup
from argus.confine.detection import Confinement, detect
from argus.confine.program import check_program
from argus.person import CONFINED_ENV, SECRET_ENV
from argus.proc import (
    STOP_GRACE_S,
    Command,
    GroupRun,
    child_pids,
    run_in_group,
    signal_group,
    start_in_group,
    stop_group,
)

SHELL = "/bin/sh"
_PR_SET_PDEATHSIG = 1
_spawner: ThreadPoolExecutor | None = None


class _Prepared:
    """What one start needs: the argv wrapper, the child's hook, the environment, and what to
    clean up afterwards (``close``)."""

    def __init__(
        self, confinement: Confinement, policy: Policy, cwd: Path, env: Mapping[str, str] | None
    ) -> None:
        self.confinement = confinement
        self.policy = policy
        self.cwd = cwd
        self.env = dict(os.environ if env is None else env)
        # A confined program is never a person (argus.person): the kernel's no_new_privs, set
        # by both backends, is the proof; the variable is a hint. It never gets the passphrase.
        self.env.pop(SECRET_ENV, None)
        if confinement.active:
            self.env[CONFINED_ENV] = confinement.backend
        self.ruleset: Ruleset | None = None
        self.cgroup: Cgroup | None = None
        self.scratch: str | None = None
        if confinement.backend == "landlock":
            self.scratch = tempfile.mkdtemp(prefix="argus-confined-")
            self.env.update(dict.fromkeys(("TMPDIR", "TMP", "TEMP"), self.scratch))
            rules = allow_list(
                [*map(str, policy.writable), self.scratch], map(str, policy.read_only)
            )
            try:
                self.ruleset = Ruleset(confinement.abi, rules)
            except OSError:
                self.close()
                raise
            self.cgroup = Cgroup.make()
            self._prctl = ctypes.CDLL(None, use_errno=True).prctl

    def argv(self, command: Command) -> list[str]:
        """The argv to start: a string is a shell command line (``/bin/sh -c``, as
        ``shell=True`` would run it), wrapped by bwrap under bubblewrap. ProgramNotFound
        (an OSError) when its program does not exist, the same under every backend."""
        check_program(command, self.cwd, self.env)
        words = [SHELL, "-c", command] if isinstance(command, str) else list(command)
        if self.confinement.backend != "bubblewrap":
            return words
        return bwrap.argv(self.policy, self.cwd, words, self.env)

    def preexec(self) -> Callable[[], None] | None:
        ruleset, cgroup = self.ruleset, self.cgroup
        if ruleset is None:
            return None
        prctl = self._prctl

        def confine_child() -> None:
            # Between fork and exec: only pre-resolved syscalls (see landlock.py).
            prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
            if cgroup is not None:
                cgroup.join()
            ruleset.restrict_self()

        return confine_child

    def stop(self, process: subprocess.Popen[bytes], grace: float = STOP_GRACE_S) -> None:
        """Stop ``process`` and all it started; returns once they are gone. Under bubblewrap
        the namespace's init (bwrap's only child, in a session of its own) is killed first:
        bwrap then reaps it only once the kernel has killed and reaped every process of the
        namespace, so when bwrap is reaped nothing is left (killing bwrap first would leave
        the namespace to die a moment later, after Argus moved on)."""
        if self.confinement.backend == "bubblewrap" and process.poll() is None:
            for pid in child_pids(process.pid):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        stop_group(process, grace)

    def kill(self, pid: int) -> None:
        """SIGKILL the program ``pid`` leads and all it started (the namespace's init first,
        as ``stop`` does); for programs started without a Popen (asyncio)."""
        if self.confinement.backend == "bubblewrap":
            for child in child_pids(pid):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(child, signal.SIGKILL)
        signal_group(pid, signal.SIGKILL)

    @property
    def sweeps(self) -> bool:
        """Whether only the subreaper sweep ends what the program left behind."""
        return self.confinement.backend != "bubblewrap" and self.cgroup is None

    def close(self) -> None:
        if self.ruleset is not None:
            self.ruleset.close()
        if self.cgroup is not None:
            self.cgroup.kill()
            self.cgroup = None
        if self.scratch is not None:
            shutil.rmtree(self.scratch, ignore_errors=True)
            self.scratch = None


@contextmanager
def launching(
    policy: Policy,
    cwd: Path,
    env: Mapping[str, str] | None = None,
    confinement: Confinement | None = None,
) -> Iterator[_Prepared]:
    """What starting one program under ``policy`` takes (``argv``, ``preexec``, ``env``,
    ``kill``), for a caller that spawns it itself (asyncio); cleaned up on leaving (its cgroup
    killed, its private folder removed)."""
    prepared = _Prepared(confinement or detect(), policy, cwd, env)
    try:
        yield prepared
    finally:
        with contextlib.suppress(OSError):
            prepared.close()


def _could_not_confine(exc: subprocess.SubprocessError, who: str) -> OSError:
    return OSError(f"{who}: the confinement could not be applied ({exc})")


def run_confined(
    command: Command,
    policy: Policy,
    *,
    cwd: Path,
    timeout: float,
    log_path: Path,
    env: Mapping[str, str] | None = None,
    grace: float = STOP_GRACE_S,
    confinement: Confinement | None = None,
) -> GroupRun:
    """Run ``command`` under ``policy`` to its end (or ``timeout``), output to ``log_path``;
    nothing it started is alive afterwards. OSError when it cannot start or be confined."""
    prepared = _Prepared(confinement or detect(), policy, cwd, env)
    try:
        return run_in_group(
            prepared.argv(command),
            cwd=cwd,
            timeout=timeout,
            log_path=log_path,
            env=prepared.env,
            grace=grace,
            end_escapees=prepared.sweeps,
            preexec=prepared.preexec(),
            stop=prepared.stop,
        )
    except subprocess.SubprocessError as exc:
        raise _could_not_confine(exc, policy.who) from exc
    finally:
        prepared.close()


def _spawn(start: Callable[[], subprocess.Popen[bytes]]) -> subprocess.Popen[bytes]:
    """Start a long-lived program from one thread that lives as long as Argus: the kernel's
    "parent died" signal (``--die-with-parent``, PR_SET_PDEATHSIG) follows the thread that
    forked, so a program started from a short-lived worker thread would die with it."""
    global _spawner
    if _spawner is None:
        _spawner = ThreadPoolExecutor(max_workers=1, thread_name_prefix="argus-spawn")
    return _spawner.submit(start).result()


@contextmanager
def start_confined(
    command: Command,
    policy: Policy,
    *,
    cwd: Path,
    log: IO[bytes] | int,
    env: Mapping[str, str] | None = None,
    confinement: Confinement | None = None,
) -> Iterator[subprocess.Popen[bytes]]:
    """Start ``command`` under ``policy`` for the block; on leaving it the program and all it
    started are stopped. It dies with Argus too (killed or not). OSError when it cannot start
    or be confined."""
    prepared = _Prepared(confinement or detect(), policy, cwd, env)
    try:
        preexec = prepared.preexec()
        try:
            process = _spawn(
                lambda: start_in_group(
                    prepared.argv(command), cwd=cwd, log=log, env=prepared.env, preexec=preexec
                )
            )
        except subprocess.SubprocessError as exc:
            raise _could_not_confine(exc, policy.who) from exc
        try:
            yield process
        finally:
            prepared.stop(process)
    finally:
        with contextlib.suppress(OSError):
            prepared.close()


@contextmanager
def popen_confined(
    argv: Command,
    policy: Policy,
    *,
    cwd: Path,
    env: Mapping[str, str] | None = None,
    confinement: Confinement | None = None,
    **popen: Any,
) -> Iterator[subprocess.Popen[bytes]]:
    """``subprocess.Popen`` under ``policy`` in a new session, for a program talked to through
    pipes (a grader, a judge command); on leaving the block its whole group is killed and
    nothing it started is left. OSError when it cannot start or be confined."""
    prepared = _Prepared(confinement or detect(), policy, cwd, env)
    try:
        try:
            process = subprocess.Popen(  # argus.proc explains preexec_fn with threads
                prepared.argv(argv),
                cwd=cwd,
                env=prepared.env,
                start_new_session=True,
                preexec_fn=prepared.preexec(),
                **popen,
            )
        except subprocess.SubprocessError as exc:
            raise _could_not_confine(exc, policy.who) from exc
        try:
            yield process
        finally:
            prepared.stop(process, 0)
    finally:
        with contextlib.suppress(OSError):
            prepared.close()
