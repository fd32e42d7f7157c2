"""Stale evidence on the Dashboard example (issue 25): the wizard's second step is sensed with
`argus gates --sense` and judged with `argus judge`; then its Next button stops doing anything,
`argus gates --sense` fails at the step, and a separate `argus judge` on the view is exit 2 with
one line, never a verdict on the render of the earlier successful sense still on disk.

The dead Next button is a test-local variant, not an entry of examples/dashboard/defects.json:
that corpus senses every defect and holds it to a gate and a rubric dimension, and this defect's
refusal is that the view cannot be sensed at all."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from argus.gates.inputs import view_dir
from argus.sense.attempt import ATTEMPT_FILE
from argus.spec import View, load_spec
from tests.conftest import RunArgus
from tests.support.dashboard import DASHBOARD_SPEC, copy_dashboard
from tests.support.habits import Defect, apply_defect, short_step_waits

pytestmark = pytest.mark.browser

VIEW = View("dashboard", "wizard", "details", "light")
ARGS = (
    *("--feature", "dashboard", "--target", "wizard"),
    *("--state", "details", "--appearance", "light"),
)
DEAD_NEXT = Defect(
    name="wizard_next_dead",
    file="app.js",
    find='wizardNext.addEventListener("click", () => {\n  showStep(step === 1 ? 2 : 1);\n',
    replace='wizardNext.addEventListener("click", () => {\n',
    gate=None,
    also_red=(),
    dimension="functional_correctness",
    description="The wizard's Next button does nothing: its second step can never be reached.",
)


def test_after_the_wizard_cannot_be_sensed_the_older_render_is_never_judged(
    tmp_path: Path, run_argus: RunArgus
) -> None:
    root = copy_dashboard(tmp_path)
    short_step_waits(root / DASHBOARD_SPEC, "wizard")
    run_dir = view_dir(load_spec(root / DASHBOARD_SPEC), VIEW)

    # Sensed as a view to be judged (argus sense runs the dead-control probe; argus gates
    # --sense leaves it out, and functional correctness would then be unverified too).
    sensed = run_argus("sense", *ARGS, cwd=root)
    assert sensed.returncode == 0, sensed.stdout + sensed.stderr
    gated = run_argus("gates", *ARGS, cwd=root)
    assert gated.returncode == 0, gated.stdout + gated.stderr
    judged = run_argus("judge", *ARGS, cwd=root)
    # A verdict on the clean wizard: nothing fails; with no approved render in the copy,
    # visual fidelity (only) is unverified, so the outcome is too (exit 1).
    assert judged.returncode == 1, judged.stdout + judged.stderr
    verdict = json.loads((run_dir / "verdict.json").read_text())
    assert verdict["failed_dimensions"] == [], verdict["failed_dimensions"]
    assert verdict["unverified_dimensions"] == ["visual_fidelity"]
    (run_dir / "verdict.json").unlink()
    older = (run_dir / "render.png").read_bytes()

    apply_defect(root, DEAD_NEXT)
    failed = run_argus("gates", *ARGS, "--sense", cwd=root)
    assert failed.returncode == 2, failed.stdout + failed.stderr
    assert "sensing failed" in failed.stderr and "step" in failed.stderr
    assert (run_dir / "render.png").read_bytes() == older  # the older render is still there ...
    attempt = json.loads((run_dir / ATTEMPT_FILE).read_text())
    assert (attempt["attempt"], attempt["outcome"]) == (2, "failed")

    judged = run_argus("judge", *ARGS, cwd=root)  # ... and the judge never takes it for the view
    assert judged.returncode == 2, judged.stdout + judged.stderr
    lines = judged.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("argus: "), judged.stderr
    assert "dashboard wizard-details-light" in lines[0] and "failed" in lines[0]
    assert "argus gates --sense" in lines[0]
    assert not (run_dir / "verdict.json").exists()
