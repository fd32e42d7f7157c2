"""A writer killed with SIGKILL at random moments never leaves a torn state file."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from argus.loop.records.state import LoopSettings, LoopState, load_state, save_state

# One interpreter imports the state module and reads the state once (building its schema
# checker), then forks a writer for each line it reads: a new interpreter for each of the 30
# kills, each building the checker again, took most of this test's time. A writer loops
# forever, one gate-fail per write; a long list of red gate names makes each file tens of
# kilobytes, so a non-atomic writer would be caught half-way often. The writer says
# "ready <pid>" after its first write; the test kills it with SIGKILL; the server reaps it and
# says how it ended ("ended <exit code>", a signal as its negative number, as subprocess does).
_SERVER = textwrap.dedent(
    """
    import os
    import sys
    from pathlib import Path
    from argus.loop.records.state import load_state, save_state

    path = Path(sys.argv[1])
    names = [f"gate-{n:05d}" for n in range(3000)]
    load_state(path)  # its schema checker is built once, here, not in every writer
    for line in sys.stdin:
        pid = os.fork()
        if pid == 0:
            try:
                state = save_state(path, load_state(path).gate_fail(names))
                print("ready", os.getpid(), flush=True)
                while True:
                    state = save_state(path, state.gate_fail(names))
            finally:
                os._exit(1)
        _, status = os.waitpid(pid, 0)
        print("ended", os.waitstatus_to_exitcode(status), flush=True)
    """
)

KILLS = 30


def test_sigkill_leaves_old_or_new_state(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    budget = LoopSettings(2, 3, 10**9)
    save_state(path, LoopState("habits", "list", "populated", "light", budget))
    rng = random.Random(20240611)
    seen = 0
    server = subprocess.Popen(
        [sys.executable, "-c", _SERVER, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert server.stdin is not None and server.stdout is not None
    try:
        for _ in range(KILLS):
            server.stdin.write("write\n")
            server.stdin.flush()
            word, pid = server.stdout.readline().split()
            assert word == "ready"
            # A random moment inside the write loop; how long it sleeps is not under test.
            time.sleep(rng.uniform(0, 0.05))
            os.kill(int(pid), signal.SIGKILL)
            assert server.stdout.readline().split() == ["ended", str(-signal.SIGKILL)]

            json.loads(path.read_text())  # never torn
            state = load_state(path)  # and still a valid state
            assert state.iteration > seen  # the writer's last completed write, or a later one
            assert len(state.red_gates) == 3000
            seen = state.iteration
    finally:
        server.stdin.close()
        assert server.wait(timeout=30) == 0
        server.stdout.close()
