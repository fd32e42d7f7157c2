"""The loop end to end on the Habits example, in a real Chromium, through the CLI: a dimension
frozen, a missing reference that needs a person, and a run killed twice then resumed (the demo
and report-only runs: test_loop_e2e.py).

Each test works on its own copy of the example, served by the test (so a killed loop leaves no
server behind), narrowed to the canonical view.
"""

from __future__ import annotations

import json
import os
import signal
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from argus.store.runstore import RunStore
from tests.support.habits import HABITS_SPEC
from tests.support.habits_loop import (
    EXAMPLE_IMPLEMENTER,
    implementer_script,
    run_loop,
    served_copy,
    signoff_records,
)

pytestmark = pytest.mark.browser


def test_unfixable_defect_freezes_its_dimension(
    tmp_path: Path, serve: Callable[[Path], str], run_argus: Any
) -> None:
    root = served_copy(tmp_path, serve, ["missing_row"])
    # An implementer that claims success but changes nothing.
    claims = implementer_script(tmp_path, "print('I fixed the list.')\nprint('STATUS: DONE')\n")
    result = run_loop(run_argus, root, "--implementer", claims)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "DONE_WITH_CONCERNS" in result.stdout
    assert "concern: frozen: functional_correctness" in result.stdout
    (record,) = signoff_records(root)
    # The missing row also changes the pixels of the approved candidate reference: the
    # regression check fails visual_fidelity too, and neither can be fixed by this implementer.
    assert record["concerns"] == ["frozen: visual_fidelity", "frozen: functional_correctness"]


def test_missing_reference_needs_context_then_approval_continues(
    tmp_path: Path, serve: Callable[[Path], str], run_argus: Any
) -> None:
    root = served_copy(tmp_path, serve, [])
    spec_path = root / HABITS_SPEC
    spec = json.loads(spec_path.read_text())
    (spec_path.parent / "references/list-populated-light.png").unlink()
    spec["targets"][0]["references"] = [
        {"state": "populated", "appearance": "light", "status": "needed"}
    ]
    spec_path.write_text(json.dumps(spec, indent=2))

    first = run_loop(run_argus, root)
    assert first.returncode == 3, first.stdout + first.stderr
    command = "argus approve --feature habits --target list --state populated --appearance light"
    assert command in first.stdout
    candidate = spec_path.parent / ".argus-runs/candidates/list-populated-light.png"
    assert candidate.is_file()

    approved = run_argus(*command.split()[1:], cwd=root)
    assert approved.returncode == 0, approved.stderr
    second = run_loop(run_argus, root)
    assert second.returncode == 0, second.stdout + second.stderr
    (record,) = signoff_records(root)
    assert record["reference_source"] == "candidate"


@pytest.mark.process  # the loop SIGKILLs itself (ARGUS_TEST_KILL_AT): a process of its own
def test_kill_and_resume(tmp_path: Path, serve: Callable[[Path], str], run_argus: Any) -> None:
    root = served_copy(tmp_path, serve, ["missing_id"])
    env = dict(os.environ, ARGUS_TEST_KILL_AT="after_gates:2")
    killed = run_loop(run_argus, root, "--implementer", EXAMPLE_IMPLEMENTER, env=env)
    assert killed.returncode == -signal.SIGKILL
    env = dict(os.environ, ARGUS_TEST_KILL_AT="after_signoff_record")
    killed = run_loop(run_argus, root, "--implementer", EXAMPLE_IMPLEMENTER, env=env)
    assert killed.returncode == -signal.SIGKILL
    done = run_loop(run_argus, root, "--implementer", EXAMPLE_IMPLEMENTER)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "(resumed)" in done.stdout
    (record,) = signoff_records(root)
    with RunStore.open(root) as store:
        (run,) = store.runs(feature="habits")
        events = store.events(run_id=run.run_id)
    assert record["run_id"] == run.run_id and run.status == "DONE"
    # Every record once, however often the run was killed; integrity notes (the protected
    # set's manifest before each implementer call and on resume, a redone iteration's commit
    # note) are bookkeeping appended each time by design.
    keys = Counter((e.kind, e.iteration, e.state) for e in events if e.kind != "note")
    assert all(count == 1 for count in keys.values()), keys
    assert any(e.kind == "note" and e.payload.get("type") == "protected_manifest" for e in events)
    assert [e.kind for e in events].count("sign_off") == 1
