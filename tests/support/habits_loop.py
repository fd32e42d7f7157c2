"""The loop end to end on a served copy of the Habits example: the helpers its tests share.

    from tests.support.habits_loop import EXAMPLE_IMPLEMENTER, run_loop, served_copy

    root = served_copy(tmp_path, serve, ["missing_id"])      # served by the test, one view
    result = run_loop(run_argus, root, "--implementer", EXAMPLE_IMPLEMENTER)
    (record,) = signoff_records(root)

The tests are split over a few modules (tests/loop/test_loop_e2e*.py) only so that pytest-xdist
(``--dist loadfile``) can run them on different workers; each test keeps its own copy.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from argus.loop.records.signoff import load_records
from tests.support.habits import HABITS_SPEC, REPO_ROOT, copy_habits

EXAMPLE_IMPLEMENTER = (
    f"{sys.executable} {REPO_ROOT / 'examples/implementer/fix_one_defect.py'} "
    "--workdir {workdir} --prompt {prompt_file}"
)


def served_copy(
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


def run_loop(run_argus: Any, root: Path, *args: str, env: dict[str, str] | None = None) -> Any:
    """``argus loop --feature habits --mode headless ARGS`` in ``root``."""
    return run_argus(
        "loop", "--feature", "habits", "--mode", "headless", *args, cwd=root, env=env, timeout=600
    )


def signoff_records(root: Path) -> list[dict[str, Any]]:
    return load_records(root / "argus/specs/habits/.argus-runs/signoff.json")


def implementer_script(tmp_path: Path, body: str) -> str:
    """An implementer command running the Python ``body`` with the workdir and prompt file."""
    script = tmp_path / "implementer.py"
    script.write_text(body)
    return f"{sys.executable} {script} {{workdir}} {{prompt_file}}"
