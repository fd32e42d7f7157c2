"""The argus process loads numpy with one OpenBLAS thread and gives the commands it starts the
user's environment back (argus._blas)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

pytestmark = pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")

# The threads the process has once a thread Argus joined has also left the kernel (a joined
# thread can still be listed for a moment after join() returns, as CI saw under load): the
# count is read until it is 1, for at most 2 s, so OpenBLAS's threads, which stay, still show.
# The tests that expect more threads than one read it at once (``settle=False``).
REPORT = """
import json, os, time
def count():
    return int(next(l for l in open('/proc/self/status') if l.startswith('Threads:')).split()[1])
deadline = time.monotonic() + SETTLE_S
while count() > 1 and time.monotonic() < deadline:
    time.sleep(0.01)
print(json.dumps({"threads": count(), "env": os.environ.get("OPENBLAS_NUM_THREADS")}))
"""
ONE_THREAD = (
    "from argus._blas import one_thread_while_numpy_loads\none_thread_while_numpy_loads()\n"
)


def _run(code: str, user_value: str | None = None, *, settle: bool = True) -> dict[str, object]:
    code += REPORT.replace("SETTLE_S", "2.0" if settle else "0.0")
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if user_value is not None:
        env["OPENBLAS_NUM_THREADS"] = user_value
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    result: dict[str, object] = json.loads(out.stdout.splitlines()[-1])
    return result


def test_numpy_loads_with_one_blas_thread_and_the_variable_is_gone_after() -> None:
    assert _run(ONE_THREAD + "import numpy\n") == {"threads": 1, "env": None}


def test_without_it_openblas_starts_a_thread_per_core() -> None:
    # The control that makes the test above mean something.
    if (os.cpu_count() or 1) < 2:
        pytest.skip("one core: OpenBLAS starts no extra thread")
    found = _run("import numpy\n", settle=False)
    assert found["env"] is None
    assert isinstance(found["threads"], int) and found["threads"] > 1


def test_a_users_own_setting_is_kept() -> None:
    if (os.cpu_count() or 1) < 2:
        pytest.skip("one core")
    assert _run(ONE_THREAD + "import numpy\n", user_value="2", settle=False) == {
        "threads": 2,
        "env": "2",
    }


def test_the_command_line_does_it(tmp_path: Path) -> None:
    a, b = tmp_path / "a.png", tmp_path / "b.png"
    pixels = np.zeros((8, 8, 3), np.uint8)
    Image.fromarray(pixels).save(a)
    pixels[2, 2] = 255
    Image.fromarray(pixels).save(b)
    code = f"from argus.cli import main\nassert main(['diff', {str(a)!r}, {str(b)!r}]) == 1\n"
    assert _run(code) == {"threads": 1, "env": None}


def test_once_numpy_is_loaded_nothing_is_set() -> None:
    from argus._blas import one_thread_while_numpy_loads

    assert np.__name__ in sys.modules
    before = os.environ.get("OPENBLAS_NUM_THREADS")
    one_thread_while_numpy_loads()
    assert os.environ.get("OPENBLAS_NUM_THREADS") == before
    assert not any(type(f).__name__ == "_Finder" for f in sys.meta_path)
