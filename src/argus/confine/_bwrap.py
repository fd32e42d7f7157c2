"""The bubblewrap backend: the program runs in namespaces that hold it, whatever it does.

``bwrap`` (Debian's ``bubblewrap``) sets everything up before it execs the program, so no code
of the program (nor any interpreter start-up) runs outside. What it gets:

- a read-only view of the whole filesystem (``--ro-bind / /``), with the policy's writable
  paths bound writable on top and its read-only paths inside them bound read-only again; a
  read-only mount refuses writes and metadata changes alike (chmod, utime, xattrs, ``chattr``),
  and a bound file cannot be replaced, renamed or removed;
- a private ``/tmp`` (a tmpfs, ``TMPDIR=/tmp``), fresh ``/proc`` and ``/dev``; the host's
  ``/tmp`` is hidden, but for what the command and its environment name (its program, a
  script, its working folder, the folders of ``PATH``, ``PYTHONPATH`` and ``VIRTUAL_ENV``,
  ``HOME``),
  bound back read-only where they are named, symlinks and all: a virtualenv's interpreter
  with its whole virtualenv, so that it is the same program inside as outside;
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
from collections.abc import Mapping, Sequence
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


# Variables naming folders a program is looked up or imported from, or reads its settings
# from (as anywhere else on the host, read-only).
_SEARCHED = ("PATH", "PYTHONPATH", "VIRTUAL_ENV", "HOME")


def _words(cwd: Path, command: Sequence[str], env: Mapping[str, str]) -> list[str]:
    """The paths the command may reach by name: its working folder, its words (a shell
    command line split), and the folders of the environment's search paths."""
    words = [str(cwd)]
    for word in command:
        try:
            words += shlex.split(word) if " " in word else [word]
        except ValueError:
            words.append(word)
    for name in _SEARCHED:
        words += [part for part in env.get(name, "").split(os.pathsep) if part]
    return words


def _shown(path: str) -> str:
    """The folder to show for ``path``: a file's own folder (a script's siblings too), and
    for a virtualenv's ``bin`` (or anything in it) the virtualenv, whose ``pyvenv.cfg`` and
    packages its interpreter needs; a file right in ``/tmp`` alone."""
    if os.path.isdir(path):
        folder = path
    elif (folder := os.path.dirname(path)) == "/tmp":
        return path  # a file right in /tmp: itself, not the whole of it
    above = os.path.dirname(folder)
    if above != "/tmp" and os.path.isfile(os.path.join(above, "pyvenv.cfg")):
        return above
    return folder


def _hidden_but_named(cwd: Path, command: Sequence[str], env: Mapping[str, str]) -> list[str]:
    """Existing folders under the host's ``/tmp`` (hidden by the private one) that the
    command or its environment names, as named and as resolved (a symlink under ``/tmp`` to
    a virtualenv elsewhere is reached by its name): bound back read-only so that it runs."""
    found: list[str] = []
    for word in _words(cwd, command, env):
        if not word.startswith("/tmp/") or not os.path.exists(word):
            continue
        for path in (os.path.abspath(word), os.path.realpath(word)):
            folder = _shown(path)
            if folder.startswith("/tmp/") and folder not in found:
                found.append(folder)
    return sorted(found, key=lambda folder: len(Path(folder).parts))


def argv(
    policy: Policy, cwd: Path, command: Sequence[str], env: Mapping[str, str] | None = None
) -> list[str]:
    """The argv running ``command`` in ``cwd`` with ``env`` (None: this process's) under
    ``policy``."""
    bwrap = program() or "bwrap"
    binds: list[str] = []
    for folder in _hidden_but_named(cwd, command, os.environ if env is None else env):
        binds += ["--ro-bind", os.path.realpath(folder), folder]
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
