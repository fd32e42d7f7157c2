"""The Panel example (examples/frameworks/panel) signs off: sense, gates, metric judge,
twice."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.frameworks import copy_framework_example, require, sign_off

pytestmark = pytest.mark.browser
require("panel", "Panel")


def test_the_example_signs_off(tmp_path: Path, run_argus: Any) -> None:
    root = copy_framework_example("panel", tmp_path)
    record = sign_off(run_argus, root)
    assert [record["target"], record["state"], record["appearance"]] == [
        "overview",
        "populated",
        "light",
    ]
    # The click travels to Panel's server over Bokeh's websocket: held there, never delivered.
    runs = root / "argus/specs/shop/.argus-runs/overview-populated-light"
    controls = json.loads(next(runs.rglob("controls.json")).read_text())
    (export,) = controls["controls"]
    assert export["outcome"] == "live" and "message" in export["effects"]
