"""Whether a sense runs the dead-control probe (argus.sense._controls), path by path.

The probe loads the view once more per control, most of a sense's time, and only the judge
reads what it finds (functional_correctness, through controls.json). So a path runs it only
where a judge may read the view, and the loop only on the iterations it judges (after green
gates); every path's choice is stated here, once, and meta.json's
``controls`` record (``{"ran": ..., "why": ...}``) says which the sense took and why. The judge
reads a "did not run" as not measured, never as "no dead controls" (argus.judge.metric.controls).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ControlsChoice:
    """Run the dead-control probe (``run``) or not, and the reason meta.json records."""

    run: bool
    why: str


# Paths whose views may be judged: the probe runs.
LOOP = ControlsChoice(True, "read by the judge: the loop judges the view")
# The loop's own: it judges a view only once its gates are green, and no gate reads
# controls.json, so its sense leaves the probe for later (``LOOP_DEFERRED``) and it runs on
# that iteration's sensed files right before the judge (``LOOP_AFTER_GATES``,
# Sensor.probe_controls); an iteration whose gates are red never runs it.
LOOP_DEFERRED = ControlsChoice(
    False, "deferred: the loop runs it once the view's gates are green, before the judge"
)
LOOP_AFTER_GATES = ControlsChoice(
    True, "read by the judge: the loop ran it once the view's gates were green"
)
SENSE_CLI = ControlsChoice(True, "read by the judge: argus sense output may be judged")
# Paths that sense only to gate (or to take a picture): nothing reads controls.json.
GATES = ControlsChoice(False, "no reader: gates only (argus gates)")
PYTEST_PLUGIN = ControlsChoice(False, "no reader: gates only (the pytest plugin)")
ASSERT = ControlsChoice(False, "no reader: the assertion reads the render and probe only")
DEMO = ControlsChoice(False, "no reader: the demo keeps the render only")
# Named for what they are, when the sense itself leaves the probe out.
SNAPSHOT_ONLY = ControlsChoice(False, "snapshot only: no probe of any kind")
NO_CONTROLS = ControlsChoice(False, "[sense] max_controls is 0")


def controls_record(choice: ControlsChoice) -> dict[str, Any]:
    """meta.json's ``controls`` field for a web view sensed under ``choice``."""
    return {"ran": choice.run, "why": choice.why}
