"""A sense that fails leaves nothing a judge or a gate takes for the view (issue 25): the
wizard-like "Add habit" state is sensed, gated and judged; then its button stops doing anything,
the next sense fails at its step, and `argus judge` and `argus gates` (no --sense) on the view
are exit 2 with one line, never a verdict on the older render still on disk."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from argus.config import load_config
from argus.gates import run_gates
from argus.gates.inputs import gate_inputs, view_dir
from argus.sense import Sensor
from argus.spec import View, load_spec
from tests.conftest import RunArgus
from tests.support.habits import HABITS_SPEC, copy_habits, short_step_waits

pytestmark = pytest.mark.browser

VIEW = View("habits", "add", "open", "light")
ARGS = ("--feature", "habits", "--target", "add", "--state", "open", "--appearance", "light")
# Swallows every click on the Add habit button before the app sees it: the step "does nothing".
DEAD_BUTTON = """<script>document.addEventListener("click", (event) => {
  if (event.target.closest('[data-testid="habits.add"]')) event.stopImmediatePropagation();
}, true);</script></head>"""


def test_after_a_failed_sense_the_older_render_is_never_judged_or_gated(
    tmp_path: Path,
    serve: Callable[[Path], str],
    warm_sensor: Sensor,
    run_argus: RunArgus,
) -> None:
    root = copy_habits(tmp_path)
    short_step_waits(root / HABITS_SPEC, "add")
    url = serve(root)
    spec = load_spec(root / HABITS_SPEC)
    run_dir = view_dir(spec, VIEW)
    (first,) = warm_sensor.sense_many(spec, [VIEW], run_dir, base_url=url, single=True)
    assert first.ok, first.error
    inputs = gate_inputs(spec, VIEW, run_dir, config=load_config(root))
    floor = run_gates(inputs, ("a11y_ids", "console", "token_contrast"), record=False)
    assert floor.all_green, floor.red_gates
    floor.write(run_dir / "gate-result.json")
    _only(root, ["a11y_ids", "console", "token_contrast"])
    judged = run_argus("judge", *ARGS, cwd=root)
    assert judged.returncode in (0, 1), judged.stdout + judged.stderr  # a verdict
    (run_dir / "verdict.json").unlink()

    page = root / "index.html"
    page.write_text(page.read_text().replace("</head>", DEAD_BUTTON, 1))
    (failed,) = warm_sensor.sense_many(spec, [VIEW], run_dir, base_url=url, single=True)
    assert not failed.ok and "step 2" in str(failed.error)
    assert (run_dir / "render.png").is_file()  # the older render is still there ...

    for command in ("judge", "gates"):  # ... and neither takes it for the view
        done = run_argus(command, *ARGS, cwd=root)
        assert done.returncode == 2, done.stdout + done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("argus: ")
        assert "habits add-open-light" in lines[0] and "failed" in lines[0]
        assert "argus gates --sense" in lines[0]
    assert not (run_dir / "verdict.json").exists()


def _only(root: Path, names: list[str]) -> None:
    config = root / "argus.toml"
    lines = config.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("enabled = "))
    lines[at] = f"enabled = {json.dumps(names)}"
    config.write_text("\n".join(lines) + "\n")
