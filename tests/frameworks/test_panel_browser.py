"""The Panel example (examples/frameworks/panel) signs off: sense, gates, metric judge,
twice; its Export click, a message on Bokeh's websocket, is held."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support.frameworks import require, signs_off_with_a_held_control

pytestmark = pytest.mark.browser
require("panel", "Panel")


def test_the_example_signs_off(tmp_path: Path, run_argus: Any) -> None:
    signs_off_with_a_held_control(run_argus, tmp_path, "panel", "message")
