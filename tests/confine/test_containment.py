"""After an untrusted command ends, nothing it started is alive, whatever it did: a chain of
2,000 re-parenting setsid children that never ends is gone when the command returns (the
PID namespace under bubblewrap, the cgroup under Landlock)."""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from argus.confine import Confinement, run_confined, workspace

CHAIN = Path(__file__).with_name("chain.pl")
DEPTH = 2000


def _alive(marker: str) -> list[int]:
    """Live processes (zombies aside) whose command line holds ``marker``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
            state = Path(f"/proc/{entry}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if marker.encode() in cmdline and state != b"Z":
            found.append(int(entry))
    return found


@pytest.fixture
def marker(tmp_path: Path) -> Iterator[str]:
    """A name for the chain's processes; whatever a failed test left of them is killed."""
    name = f"argus-chain-{os.getpid()}-{tmp_path.name}"
    yield name
    for _ in range(1000):  # a live chain replaces each link it loses: kill until none is left
        pids = _alive(name)
        if not pids:
            break
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


@pytest.mark.process  # 2,000 processes one after another: seconds on a loaded machine
def test_a_deep_setsid_chain_is_gone_when_the_command_ends(
    backend: Confinement, repo: Path, tmp_path: Path, marker: str
) -> None:
    if backend.backend == "landlock":
        from argus.confine.contain import Cgroup

        probe = Cgroup.make()
        if probe is None:
            pytest.skip("no cgroup v2 with cgroup.kill here: the sweep alone is said instead")
        probe.kill()
    log = tmp_path / "chain.log"
    run = run_confined(
        ["perl", str(CHAIN), marker, str(DEPTH)],
        workspace("test", repo),
        cwd=repo,
        timeout=120,
        log_path=log,
        confinement=backend,
    )
    said = log.read_text()
    assert (run.exit_code, said.strip()) == (0, "deep"), (run, said)  # 2,000 links deep
    assert _alive(marker) == []
