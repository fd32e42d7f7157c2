"""Process containment without namespaces: a cgroup v2 per program, ended with ``cgroup.kill``.

Under bubblewrap the PID namespace holds every process the program starts. Under Landlock
there is none, and a sweep of re-parented children can be outrun (a chain of ``setsid`` double
forks, each exiting as soon as its child is born, stays one step ahead of any scan). A cgroup
cannot be outrun: the child joins a fresh cgroup between fork and exec, everything it starts
is born inside, and writing ``1`` to ``cgroup.kill`` (Linux 5.14+) SIGKILLs all of it at once.
Where no cgroup v2 can be made (no cgroup2 mount, no permission, an older kernel) ``make``
returns None and the caller falls back to the subreaper sweep (argus.proc), which it says.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import time
from pathlib import Path

KILL_WAIT_S = 10.0
_POLL_S = 0.01
_serial = itertools.count()


def _cgroup2_mount() -> Path | None:
    try:
        with open("/proc/self/mountinfo", encoding="utf-8") as fh:
            for line in fh:
                left, _, right = line.partition(" - ")
                if right.split(" ", 1)[0] == "cgroup2":
                    return Path(left.split()[4])
    except OSError:
        return None
    return None


def _own_cgroup() -> str | None:
    try:
        with open("/proc/self/cgroup", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("0::"):
                    return line[3:].strip()
    except OSError:
        return None
    return None


def _parent() -> Path | None:
    mount, own = _cgroup2_mount(), _own_cgroup()
    if mount is None or own is None:
        return None
    return mount / own.lstrip("/")


def end_orphans() -> None:
    """End what an Argus process killed with ``kill -9`` left in its cgroups (a web server it
    started must not live on to be reused); nothing where there are no cgroups."""
    parent = _parent()
    if parent is not None:
        _end_orphans(parent)


def _end_orphans(parent: Path) -> None:
    """Kill and remove the cgroups an Argus process that is gone left behind (it was killed
    with ``kill -9``: a web server it started must not live on to be reused)."""
    for path in parent.glob("argus-*-*"):
        pid = path.name.split("-")[1]
        if not pid.isdigit() or int(pid) == os.getpid() or Path(f"/proc/{pid}").exists():
            continue
        _kill(path)


def _populated(path: Path) -> bool:
    try:
        return "populated 1" in (path / "cgroup.events").read_text(encoding="ascii")
    except OSError:
        return False


def _kill(path: Path) -> bool:
    """SIGKILL every process in the cgroup ``path``, wait until it is empty and remove it.
    False when it could not be emptied."""
    try:
        (path / "cgroup.kill").write_text("1", encoding="ascii")
    except OSError:
        return False
    deadline = time.monotonic() + KILL_WAIT_S
    while _populated(path) and time.monotonic() < deadline:
        time.sleep(_POLL_S)
    with contextlib.suppress(OSError):
        path.rmdir()
    return not _populated(path)


class Cgroup:
    """One program's cgroup: ``join`` (in the child, between fork and exec), then ``kill``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._procs = os.open(path / "cgroup.procs", os.O_WRONLY | os.O_CLOEXEC)

    @classmethod
    def make(cls) -> Cgroup | None:
        """A new cgroup beneath this process's own, or None where none can be made."""
        parent = _parent()
        if parent is None:
            return None
        _end_orphans(parent)
        path = parent / f"argus-{os.getpid()}-{next(_serial)}"
        try:
            path.mkdir()
        except OSError:
            return None
        try:
            if not (path / "cgroup.kill").exists():
                raise OSError("before Linux 5.14: no way to kill a whole cgroup at once")
            return cls(path)
        except OSError:
            with contextlib.suppress(OSError):
                path.rmdir()
            return None

    def join(self) -> None:
        """Move the calling process into the cgroup (writing 0 moves the writer)."""
        os.write(self._procs, b"0")

    def kill(self) -> bool:
        """SIGKILL every process in the cgroup, wait until it is empty and remove it. False
        when it could not be emptied (said by the caller)."""
        with contextlib.suppress(OSError):
            os.close(self._procs)
        return _kill(self.path)


def available() -> bool:
    """Whether a cgroup with ``cgroup.kill`` can be made here (one is made and removed)."""
    probe = Cgroup.make()
    if probe is None:
        return False
    probe.kill()
    return True
