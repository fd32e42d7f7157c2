"""The bubblewrap backend: the program runs in namespaces that hold it, whatever it does.

``bwrap`` (Debian's ``bubblewrap``) sets everything up before it execs the program, so no code
of the program (nor any interpreter start-up) runs outside. What it gets:

- a read-only view of the whole filesystem (``--ro-bind / /``), with the policy's writable
  paths bound writable on top and its read-only paths inside them bound read-only again; a
  read-only mount refuses writes and metadata changes alike (chmod, utime, xattrs, ``chattr``),
  and a bound file cannot be replaced, renamed or removed;
- a private ``/tmp`` (a tmpfs, ``TMPDIR=/tmp``), fresh ``/proc`` and ``/dev``; the host's
  ``/tmp`` is hidden, but for what the command names (its program, a script, its working
  folder), bound back read-only;
- its own user namespace with every capability dropped (run as root, bwrap would otherwise
  keep root's capabilities, and a remount would make the root writable again);
- its own PID namespace: bwrap is its init, so when the program ends, or bwrap is killed,
  every process it started dies with it (``setsid`` and double forks included); and
  ``--die-with-parent``: if Argus dies (``kill -9``), so does everything it confined.

The host network is kept (policy.py says why).
"""

from __future__ import annotations

import functools
import os
import shlex
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

from argus.confine._policy import Policy

PROBE_TIMEOUT_S = 20.0
NAMESPACES = (
    "--unshare-user",
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
    "--die-with-parent",
    "--new-session",
    "--cap-drop",
    "ALL",
)
BASE = (
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--tmpfs",
    "/tmp",
    "--tmpfs",
    "/dev/shm",
    "--setenv",
    "TMPDIR",
    "/tmp",
)


def program() -> str | None:
    """The bwrap executable on PATH, or None."""
    return shutil.which("bwrap")


def _hidden_but_named(cwd: Path, command: Sequence[str]) -> list[str]:
    """Existing paths under the host's ``/tmp`` (hidden by the private one) that the command
    names, or its working folder: bound back read-only so that it can run."""
    words = [str(cwd)]
    for word in command:
        try:
            words += shlex.split(word) if " " in word else [word]
        except ValueError:
            words.append(word)
    found: list[str] = []
    for word in words:
        if not word.startswith("/tmp/"):
            continue
        real = os.path.realpath(word)
        if os.path.isfile(real) and os.path.dirname(real) != "/tmp":
            real = os.path.dirname(real)  # a script's own folder: its siblings too
        if real.startswith("/tmp/") and os.path.exists(real) and real not in found:
            found.append(real)
    return found


def argv(policy: Policy, cwd: Path, command: Sequence[str]) -> list[str]:
    """The argv running ``command`` in ``cwd`` under ``policy``."""
    bwrap = program() or "bwrap"
    binds: list[str] = []
    for real in _hidden_but_named(cwd, command):
        binds += ["--ro-bind", real, real]
    # Shallower first, so a deeper bind lands on top: a read-only folder inside the writable
    # workspace, or a writable output folder inside a read-only one.
    layered = [(p, "--bind") for p in policy.writable] + [
        (p, "--ro-bind") for p in policy.read_only
    ]
    for path, how in sorted(layered, key=lambda bind: len(Path(os.path.realpath(bind[0])).parts)):
        real = os.path.realpath(path)
        binds += [how, real, real]
    return [bwrap, *NAMESPACES, *BASE, *binds, "--chdir", str(cwd), "--", *command]


@functools.cache
def _probe(bwrap: str) -> str:
    try:
        done = subprocess.run(
            [bwrap, *NAMESPACES, *BASE, "--", "true"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=PROBE_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bwrap cannot run here ({exc})"
    if done.returncode != 0:
        said = " ".join(done.stderr.decode("utf-8", "replace").split())[:200]
        return f"bwrap cannot make its namespaces here ({said or done.returncode})"
    return ""


def problem() -> str:
    """Why bubblewrap cannot confine here ("" when it can): tried once per process."""
    bwrap = program()
    if bwrap is None:
        return "bwrap is not installed (Debian: apt-get install bubblewrap)"
    return _probe(bwrap)
