"""The loop end to end on the Habits example, in a real Chromium, through the CLI: the demo,
report-only runs and an implementer caught editing the spec (the loop's stops, kills and resumes:
test_loop_e2e_stops.py; apart so pytest-xdist can run the two on different workers).

Each test works on its own copy of the example, served by the test (so a killed loop leaves no
server behind), mostly narrowed to the canonical view to keep the set to a few minutes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO_ROOT
from tests.support.habits import HABITS_SPEC
from tests.support.habits_loop import (
    EXAMPLE_IMPLEMENTER,
    implementer_script,
    run_loop,
    served_copy,
    signoff_records,
)

pytestmark = pytest.mark.browser


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
    assert len(signoff_records(root)) == 5  # every view signed off once
    assert re.search(r"^report: .*\.html$", result.stdout, re.MULTILINE)
    # The working copy was repaired; the example itself never changed.
    assert 'data-testid="habits.title"' in (root / "index.html").read_text()
    assert (REPO_ROOT / "examples/habits/index.html").read_text() == (
        root / "index.html"
    ).read_text()


def _tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def test_report_only_writes_nothing_outside_the_run_directory(
    tmp_path: Path, serve: Callable[[Path], str], run_argus: Any
) -> None:
    root = served_copy(tmp_path, serve, ["missing_id"], one_view=False)
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
    root = served_copy(tmp_path, serve, ["missing_id"])
    spec_path = root / HABITS_SPEC
    original = spec_path.read_text()
    cheat = implementer_script(
        tmp_path,
        "import json, sys\n"
        "from pathlib import Path\n"
        "spec = Path(sys.argv[1]) / 'argus/specs/habits/spec.json'\n"
        "data = json.loads(spec.read_text())\n"
        "data['targets'][0]['a11y_contract'].remove('habits.title')\n"
        "spec.write_text(json.dumps(data))\n"
        "print('STATUS: DONE')\n",
    )
    result = run_loop(run_argus, root, "--implementer", cheat, "--max-iterations", "2")
    assert result.returncode == 2, result.stdout + result.stderr  # BLOCKED: never signed off
    assert spec_path.read_text() == original
    outcome = json.loads(
        (spec_path.parent / ".argus-runs/list-populated-light/iteration-2/outcome.json").read_text()
    )
    assert outcome["kind"] == "integrity"
    assert outcome["integrity"]["modified"] == ["argus/specs/habits/spec.json"]


def test_report_only_of_the_clean_example_is_green(
    tmp_path: Path, serve: Callable[[Path], str], run_argus: Any
) -> None:
    """As a CI job runs it on a spec with one reference per target (docs/spec.md): every view
    of the clean example, exit 0. The views without a reference of their own say that their
    visual fidelity was not compared, and nothing else holds the run back."""
    root = served_copy(tmp_path, serve, [], one_view=False)
    result = run_argus(
        "loop", "--feature", "habits", "--mode", "report-only", cwd=root, timeout=600
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "status: DONE (exit 0)" in result.stdout
    assert "concern:" not in result.stdout
    assert result.stdout.count("visual_fidelity not compared") == 3  # list's other 3 views
