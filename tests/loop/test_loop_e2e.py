"""The loop end to end on the Habits example, in a real Chromium, through the CLI.

Each test works on its own copy of the example, served by the test (so a killed loop leaves no
server behind), mostly narrowed to the canonical view to keep the set to a few minutes.
"""

from __future__ import annotations

import json
import os
import re
import signal
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from argus.loop.records.signoff import load_records
from argus.store.runstore import RunStore
from tests.conftest import REPO_ROOT
from tests.support.habits import HABITS_SPEC, copy_habits

pytestmark = pytest.mark.browser

EXAMPLE_IMPLEMENTER = (
    f"{sys.executable} {REPO_ROOT / 'examples/implementer/fix_one_defect.py'} "
    "--workdir {workdir} --prompt {prompt_file}"
)


def _served_copy(
    tmp_path: Path, serve: Callable[[Path], str], defects: list[str], *, one_view: bool = True
) -> Path:
    """A copy of the example served by the test; with ``one_view`` only its canonical view."""
    root = copy_habits(tmp_path, defects)
    config = root / "argus.toml"
    kept: list[str] = []
    skipping = False
    for line in config.read_text().splitlines():
        if line.startswith("["):
            skipping = line.strip() == "[web_server]"
        if skipping or line.startswith("base_url"):
            continue
        kept.append(line)
    config.write_text(f'base_url = "{serve(root)}"\n' + "\n".join(kept) + "\n")
    if one_view:
        spec_path = root / HABITS_SPEC
        spec = json.loads(spec_path.read_text())
        target = spec["targets"][0]
        spec["targets"] = [target]
        target["states"] = ["populated"]
        target["appearances"] = ["light"]
        target["fixtures"] = {"populated": target["fixtures"]["populated"]}
        target["expectations"] = {"populated": target["expectations"]["populated"]}
        spec_path.write_text(json.dumps(spec, indent=2))
    return root


def _loop(run_argus: Any, root: Path, *args: str, env: dict[str, str] | None = None) -> Any:
    return run_argus(
        "loop", "--feature", "habits", "--mode", "headless", *args, cwd=root, env=env, timeout=600
    )


def _records(root: Path) -> list[dict[str, Any]]:
    return load_records(root / "argus/specs/habits/.argus-runs/signoff.json")


def _script(tmp_path: Path, body: str) -> str:
    script = tmp_path / "implementer.py"
    script.write_text(body)
    return f"{sys.executable} {script} {{workdir}} {{prompt_file}}"


def test_demo_converges_to_done(tmp_path: Path, run_argus: Any) -> None:
    """`argus demo` on two seeded defects (a gate and a judge-only one): DONE, with a report."""
    result = run_argus(
        "demo",
        "--workdir",
        str(tmp_path / "demo"),
        "--defects",
        "missing_id,missing_row",
        cwd=REPO_ROOT,
        timeout=900,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "status: DONE (exit 0)" in result.stdout
    root = tmp_path / "demo" / "habits"
    assert len(_records(root)) == 5  # every view signed off once
    assert re.search(r"^report: .*\.html$", result.stdout, re.MULTILINE)
    # The working copy was repaired; the example itself never changed.
    assert 'data-testid="habits.title"' in (root / "index.html").read_text()
    assert (REPO_ROOT / "examples/habits/index.html").read_text() == (
        root / "index.html"
    ).read_text()


def test_unfixable_defect_freezes_its_dimension(
    tmp_path: Path, serve: Callable[[Path], str], run_argus: Any
) -> None:
    root = _served_copy(tmp_path, serve, ["missing_row"])
    # An implementer that claims success but changes nothing.
    claims = _script(tmp_path, "print('I fixed the list.')\nprint('STATUS: DONE')\n")
    result = _loop(run_argus, root, "--implementer", claims)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "DONE_WITH_CONCERNS" in result.stdout
    assert "concern: frozen: functional_correctness" in result.stdout
    (record,) = _records(root)
    # The missing row also changes the pixels of the approved candidate reference: the
    # regression check fails visual_fidelity too, and neither can be fixed by this implementer.
    assert record["concerns"] == ["frozen: visual_fidelity", "frozen: functional_correctness"]


def test_missing_reference_needs_context_then_approval_continues(
    tmp_path: Path, serve: Callable[[Path], str], run_argus: Any
) -> None:
    root = _served_copy(tmp_path, serve, [])
    spec_path = root / HABITS_SPEC
    spec = json.loads(spec_path.read_text())
    (spec_path.parent / "references/list-populated-light.png").unlink()
    spec["targets"][0]["references"] = [
        {"state": "populated", "appearance": "light", "status": "needed"}
    ]
    spec_path.write_text(json.dumps(spec, indent=2))

    first = _loop(run_argus, root)
    assert first.returncode == 3, first.stdout + first.stderr
    command = "argus approve --feature habits --target list --state populated --appearance light"
    assert command in first.stdout
    candidate = spec_path.parent / ".argus-runs/candidates/list-populated-light.png"
    assert candidate.is_file()

    approved = run_argus(*command.split()[1:], cwd=root)
    assert approved.returncode == 0, approved.stderr
    second = _loop(run_argus, root)
    assert second.returncode == 0, second.stdout + second.stderr
    (record,) = _records(root)
    assert record["reference_source"] == "candidate"


def _tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def test_report_only_writes_nothing_outside_the_run_directory(
    tmp_path: Path, serve: Callable[[Path], str], run_argus: Any
) -> None:
    root = _served_copy(tmp_path, serve, ["missing_id"], one_view=False)
    before = _tree(root)
    result = run_argus(
        "loop",
        "--feature",
        "habits",
        "--mode",
        "report-only",
        "--implementer",
        EXAMPLE_IMPLEMENTER,
        cwd=root,
        timeout=600,
    )
    assert result.returncode == 1, result.stdout + result.stderr  # DONE_WITH_CONCERNS
    assert "red gate: a11y_ids" in result.stdout
    after = _tree(root)
    changed = {p for p in set(before) | set(after) if before.get(p) != after.get(p)}
    assert changed
    outside = [p for p in changed if not p.startswith("argus/specs/habits/.argus-runs/")]
    assert outside == []
    assert 'data-testid="habits.title"' not in (root / "index.html").read_text()  # no edit


def test_an_implementer_that_edits_the_spec_is_caught(
    tmp_path: Path, serve: Callable[[Path], str], run_argus: Any
) -> None:
    root = _served_copy(tmp_path, serve, ["missing_id"])
    spec_path = root / HABITS_SPEC
    original = spec_path.read_text()
    cheat = _script(
        tmp_path,
        "import json, sys\n"
        "from pathlib import Path\n"
        "spec = Path(sys.argv[1]) / 'argus/specs/habits/spec.json'\n"
        "data = json.loads(spec.read_text())\n"
        "data['targets'][0]['a11y_contract'].remove('habits.title')\n"
        "spec.write_text(json.dumps(data))\n"
        "print('STATUS: DONE')\n",
    )
    result = _loop(run_argus, root, "--implementer", cheat, "--max-iterations", "2")
    assert result.returncode == 2, result.stdout + result.stderr  # BLOCKED: never signed off
    assert spec_path.read_text() == original
    outcome = json.loads(
        (spec_path.parent / ".argus-runs/list-populated-light/iteration-2/outcome.json").read_text()
    )
    assert outcome["kind"] == "integrity"
    assert outcome["integrity"]["modified"] == ["argus/specs/habits/spec.json"]


def test_kill_and_resume(tmp_path: Path, serve: Callable[[Path], str], run_argus: Any) -> None:
    root = _served_copy(tmp_path, serve, ["missing_id"])
    env = dict(os.environ, ARGUS_TEST_KILL_AT="after_gates:2")
    killed = _loop(run_argus, root, "--implementer", EXAMPLE_IMPLEMENTER, env=env)
    assert killed.returncode == -signal.SIGKILL
    env = dict(os.environ, ARGUS_TEST_KILL_AT="after_signoff_record")
    killed = _loop(run_argus, root, "--implementer", EXAMPLE_IMPLEMENTER, env=env)
    assert killed.returncode == -signal.SIGKILL
    done = _loop(run_argus, root, "--implementer", EXAMPLE_IMPLEMENTER)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "(resumed)" in done.stdout
    (record,) = _records(root)
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


def test_report_only_of_the_clean_example_is_green(
    tmp_path: Path, serve: Callable[[Path], str], run_argus: Any
) -> None:
    """As a CI job runs it on a spec with one reference per target (docs/spec.md): every view
    of the clean example, exit 0. The views without a reference of their own say that their
    visual fidelity was not compared, and nothing else holds the run back."""
    root = _served_copy(tmp_path, serve, [], one_view=False)
    result = run_argus(
        "loop", "--feature", "habits", "--mode", "report-only", cwd=root, timeout=600
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "status: DONE (exit 0)" in result.stdout
    assert "concern:" not in result.stdout
    assert result.stdout.count("visual_fidelity not compared") == 3  # list's other 3 views
