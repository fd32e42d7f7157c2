"""Behaviour after a step: a state reached by a click, judged by what must have changed.

The example's list gets a state reached by pressing "Delete Morning run": one row fewer
(a count tied to nothing but the step) and a summary the fixture implies once that habit is
gone. A "Remove" button that does nothing renders a perfectly good list, and only the
expectations after the step can tell.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from argus.config import ProjectConfig
from argus.judge.assemble import packet_for_view
from argus.judge.base import run_judge
from argus.judge.metric import MetricJudge
from argus.schemas import load_rubric
from argus.sense import Sensor
from argus.spec import View, load_spec
from tests.judge.conftest import derived_gate_result
from tests.support.habits import HABITS_SPEC, copy_habits

pytestmark = pytest.mark.browser

REMOVE_DOES_NOTHING = ("    habits = habits.filter((other) => other !== habit);\n", "")


def _with_remove_state(root: Path) -> None:
    path = root / HABITS_SPEC
    spec = json.loads(path.read_text())
    spec["targets"].append(
        {
            "id": "remove",
            "route": "/",
            "states": ["removed"],
            "appearances": ["light"],
            "fixtures": {"removed": "populated"},
            "steps": {
                "removed": [
                    {
                        "action": "click",
                        "locator": {"role": "button", "name": "Delete Morning run"},
                    }
                ]
            },
            "expectations_cover_prose": True,
            "expectations": {
                "removed": {
                    "counts": [{"role": "listitem", "equals": 4}],
                    # Morning run (done) is gone: 1 of the 4 left is done.
                    "texts": {"expect": ["1 of 4 done today"]},
                }
            },
        }
    )
    path.write_text(json.dumps(spec))


@pytest.mark.parametrize(("broken", "score"), [(False, 1), (True, 0)])
def test_a_remove_button_that_does_nothing_fails_functional_correctness(
    tmp_path: Path,
    warm_sensor: Sensor,
    serve: Callable[[Path], str],
    broken: bool,
    score: float,
) -> None:
    root = copy_habits(tmp_path)
    _with_remove_state(root)
    if broken:
        app = root / "app.js"
        find, replace = REMOVE_DOES_NOTHING
        assert app.read_text().count(find) == 1
        app.write_text(app.read_text().replace(find, replace))
    spec = load_spec(root / HABITS_SPEC)
    view = View("habits", "remove", "removed", "light")
    sensed = tmp_path / "sensed"
    result = warm_sensor.sense(spec, view, sensed, base_url=serve(root))
    assert result.ok, result.error
    gates = tmp_path / "gate-result.json"
    gates.write_text(json.dumps(derived_gate_result(spec, view, sensed)))
    packet = packet_for_view(
        spec, view, sensed=sensed, gate_result=gates, run_dir=tmp_path / "run", iteration=1
    )
    verdict = run_judge(MetricJudge(ProjectConfig(root=root)), packet, load_rubric(None))
    functional = verdict.dimension("functional_correctness")
    assert functional.score == score, functional.evidence
    if broken:
        assert functional.extra["measurements"]["counts"][0]["found"] == 5
        assert functional.extra["measurements"]["texts"]["missing"] == ["1 of 4 done today"]
