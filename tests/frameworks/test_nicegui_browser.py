"""The NiceGUI example (examples/frameworks/nicegui) signs off: sense, gates, metric judge,
twice."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.frameworks import copy_framework_example, require, sign_off

pytestmark = pytest.mark.browser
require("nicegui", "NiceGUI")


def test_the_example_signs_off(tmp_path: Path, run_argus: Any) -> None:
    root = copy_framework_example("nicegui", tmp_path)
    record = sign_off(run_argus, root)
    assert [record["target"], record["state"], record["appearance"]] == [
        "overview",
        "populated",
        "light",
    ]
    # The click travels to NiceGUI's server over socket.io: held there, never delivered.
    runs = root / "argus/specs/shop/.argus-runs/overview-populated-light"
    controls = json.loads(next(runs.rglob("controls.json")).read_text())
    (export,) = controls["controls"]
    assert export["outcome"] == "live" and "message" in export["effects"]
