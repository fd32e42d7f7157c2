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
from tests.support.processes import running

CHAIN = Path(__file__).with_name("chain.pl")
DEPTH = 2000


@pytest.fixture
def marker(tmp_path: Path) -> Iterator[str]:
    """A name for the chain's processes; whatever a failed test left of them is killed."""
    name = f"argus-chain-{os.getpid()}-{tmp_path.name}"
    yield name
    for _ in range(1000):  # a live chain replaces each link it loses: kill until none is left
        pids = running(name)
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
    assert running(marker) == []
