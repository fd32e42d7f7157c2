"""A Dash app run with debug=True: dash-renderer's dev-tools menu, which has only classes, is
masked by the Dash preset in the snapshot comparison, so the menu never decides a snapshot."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from argus.config import load_config
from argus.diff import load_png
from argus.diff.masks import Box, paint_masks
from argus.diff.png import save_png
from argus.gates.base import GateStatus
from argus.gates.comparison import device_pixel_ratio, viewport_width
from argus.gates.inputs import gate_inputs
from argus.gates.runner import run_gates
from argus.spec import View, load_spec
from argus.spec.paths import baseline_path
from tests.support.frameworks import require, server_env
from tests.support.habits import free_port

pytestmark = pytest.mark.browser
require("dash", "Dash")

APP = """import os

from dash import Dash, html

app = Dash(__name__, title="Debug")
app.layout = html.Main([html.H1("Shop overview", id="title")])

if __name__ == "__main__":
    # The dev tools' menu on; its hot reloader and its version check (a request to plotly.com)
    # off, so the test needs no network and the page settles.
    app.run(host="127.0.0.1", port=int(os.environ["PORT"]), debug=True, use_reloader=False,
            dev_tools_hot_reload=False, dev_tools_disable_version_check=True)
"""
CONFIG = """base_url = "http://127.0.0.1:{port}"
framework = "{framework}"
viewport = {{ width = 800, height = 600 }}

[web_server]
command = "PORT={port} python app.py"
url = "http://127.0.0.1:{port}/"
timeout = 60
reuse_existing = false
"""
SPEC = {
    "feature": "shop",
    "adapter": "web",
    "design_system": {"tokens": "argus/specs/shop/tokens.json"},
    "targets": [{"id": "home", "route": "/", "states": ["default"], "gates": ["snapshot"]}],
}
VIEW = View("shop", "home", "default", "light")
MENU = ".dash-debug-menu__outer"


def _configure(root: Path, port: int, framework: str) -> None:
    (root / "argus.toml").write_text(CONFIG.format(port=port, framework=framework))


def _snapshot(root: Path, sensed: Path) -> GateStatus:
    spec = load_spec(root / "argus/specs/shop/spec.json")
    inputs = gate_inputs(spec, VIEW, sensed, config=load_config(root))
    return run_gates(inputs, ["snapshot"], record=False).outcome("snapshot").status


def test_the_dash_preset_masks_the_debug_menu(tmp_path: Path, run_argus: Any) -> None:
    root = tmp_path / "app"
    spec_dir = root / "argus/specs/shop"
    spec_dir.mkdir(parents=True)
    (root / "app.py").write_text(APP)
    (spec_dir / "spec.json").write_text(json.dumps(SPEC))
    (spec_dir / "tokens.json").write_text(json.dumps({"colors": {"ink": "#111114"}}))
    port = free_port()
    _configure(root, port, "dash")
    where = ["--feature", "shop", "--target", "home", "--state", "default"]
    done = run_argus(
        "sense", *where, "--appearance", "light", cwd=root, env=server_env(), timeout=180
    )
    assert done.returncode == 0, done.stdout + done.stderr
    sensed = spec_dir / ".argus-runs" / VIEW.slug
    probe = json.loads((sensed / "probe.json").read_text())

    # The menu bar, recorded where the page draws it: fixed at the bottom right.
    (box,) = probe["masks"][MENU]
    assert box["width"] > 100 and box["height"] > 20
    assert box["x"] + box["width"] >= 799 and box["y"] + box["height"] >= 599

    # A baseline whose menu looked otherwise (another server status, the menu collapsed):
    # the render still matches it, because the preset masks the menu ...
    image = load_png(sensed / "render.png")
    x0, y0 = int(box["x"]), int(box["y"])
    image[y0 : y0 + int(box["height"]), x0 : x0 + int(box["width"]), :3] ^= 0xFF
    # Written as the gate writes a baseline: with the masks painted in.
    boxes = [Box(**b) for found in probe["masks"].values() for b in found]
    paint_masks(image, boxes, device_pixel_ratio(sensed / "render.png", viewport_width(probe)))
    baseline = baseline_path(spec_dir, VIEW.target, VIEW.state, VIEW.appearance)
    baseline.parent.mkdir(parents=True)
    save_png(baseline, image)
    assert _snapshot(root, sensed) is GateStatus.PASS
    # ... and only because of it: with no framework (no preset), the same pair is a diff.
    _configure(root, port, "")
    assert _snapshot(root, sensed) is GateStatus.DIFF
