"""A writer killed with SIGKILL at random moments never leaves a torn state file."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from argus.loop.records.state import LoopSettings, LoopState, load_state, save_state

# The writer loops forever, one gate-fail per write. A long list of red gate names makes each
# file tens of kilobytes, so a non-atomic writer would be caught half-way often.
_WRITER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from argus.loop.records.state import load_state, save_state

    path = Path(sys.argv[1])
    state = load_state(path)
    names = [f"gate-{n:05d}" for n in range(3000)]
    first = True
    while True:
        state = save_state(path, state.gate_fail(names))
        if first:
            print("ready", flush=True)
            first = False
    """
)

KILLS = 30


def test_sigkill_leaves_old_or_new_state(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    budget = LoopSettings(2, 3, 10**9)
    save_state(path, LoopState("habits", "list", "populated", "light", budget))
    rng = random.Random(20240611)
    seen = 0
    for _ in range(KILLS):
        writer = subprocess.Popen(
            [sys.executable, "-c", _WRITER, str(path)], stdout=subprocess.PIPE, text=True
        )
        assert writer.stdout is not None
        assert writer.stdout.readline().strip() == "ready"
        # A random moment inside the write loop; how long it sleeps is not under test.
        time.sleep(rng.uniform(0, 0.05))
        writer.send_signal(signal.SIGKILL)
        writer.wait(timeout=30)
        writer.stdout.close()
        assert writer.returncode == -signal.SIGKILL

        json.loads(path.read_text())  # never torn
        state = load_state(path)  # and still a valid state
        assert state.iteration > seen  # the writer's last completed write, or a later one
        assert len(state.red_gates) == 3000
        seen = state.iteration
