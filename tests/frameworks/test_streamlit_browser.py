"""The Streamlit example (examples/frameworks/streamlit) signs off, and the sensor waits for
Streamlit's script run, not for a quiet network alone."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.frameworks import (
    VIEW,
    copy_framework_example,
    require,
    sensed,
    server_env,
    signs_off_with_a_held_control,
)

pytestmark = pytest.mark.browser
require("streamlit", "Streamlit")


def test_the_example_signs_off(tmp_path: Path, run_argus: Any) -> None:
    signs_off_with_a_held_control(run_argus, tmp_path, "streamlit", "message")


def _edit(app: Path, find: str, replace: str) -> None:
    text = app.read_text()
    assert text.count(find) == 1, find
    app.write_text(text.replace(find, replace))


def test_a_slow_script_run_is_waited_for_and_a_click_never_reaches_the_app(
    tmp_path: Path, run_argus: Any
) -> None:
    # The script draws its title, then works (the websocket and the network are quiet, the
    # page does not move) before drawing the rest: only Streamlit's script state says it is
    # not done. Without the settle rule the sensor renders the page half drawn.
    root = copy_framework_example("streamlit", tmp_path)
    app = root / "app.py"
    _edit(app, "import json\n", "import json\nimport time\n")
    _edit(app, 'st.caption(f"Week', 'time.sleep(2.5)\nst.caption(f"Week')
    # Exporting writes a file: the dead-control probe's click must not reach the server.
    _edit(
        app,
        'st.button("Export report", type="primary")',
        'if st.button("Export report", type="primary"):\n    (HERE / "exported").write_text("x")',
    )
    result = run_argus("sense", "--feature", "shop", "--all", cwd=root, env=server_env())
    assert result.returncode == 0, result.stdout + result.stderr
    texts = {element.get("text", "") for element in sensed(root, VIEW)["elements"]}
    assert "Export report" in texts and "Average order" in texts
    controls = json.loads((root / f"argus/specs/shop/.argus-runs/{VIEW}/controls.json").read_text())
    (export,) = [c for c in controls["controls"] if c["name"] == "Export report"]
    assert export["outcome"] == "live" and export["effects"] == ["message"]
    assert not (root / "exported").exists()
