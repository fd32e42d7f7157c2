"""Snapshot masks by any CSS selector: the sensor resolves them in the page beside the render
(probe.json ``masks``), and the snapshot gate paints the boxes it recorded, so elements named
only by a class, an attribute or a combinator are masked."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from argus.cli import main
from argus.config import load_config
from argus.diff import load_png, save_png
from argus.diff.masks import Box, paint_masks
from argus.frameworks import KNOWN
from argus.gates.base import GateStatus
from argus.gates.comparison import device_pixel_ratio, viewport_width
from argus.gates.inputs import gate_inputs
from argus.gates.runner import run_gates
from argus.sense import Sensor
from argus.spec import View, load_spec
from argus.spec.paths import baseline_path
from tests.support.fixtures import static_server

pytestmark = pytest.mark.browser

# Three volatile parts, each named by what a Playwright user masks by: a class (three elements
# have it, two not drawn: display none, opacity 0), a child combinator (two matches) and an
# attribute.
BOARD = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Board</title>
<style>
body {{ margin: 0; background: #ffffff; font: 16px sans-serif; }}
.ticker {{ background: {tick}; width: 120px; height: 24px; margin: 8px; }}
.news p {{ background: {news}; width: 200px; height: 20px; margin: 4px 8px; }}
[data-role=stamp] {{ display: block; background: {stamp}; width: 60px; height: 30px; }}
.gone {{ display: none; }}
.faded {{ opacity: 0; }}
</style></head><body>
<h1>Board</h1>
<div class="ticker" id="tick"></div>
<section class="news"><p></p><p></p></section>
<span data-role="stamp"></span>
<div class="ticker gone"></div>
<div class="ticker faded"></div>
</body></html>"""
MASKS = [".ticker", "section.news > p", "[data-role='stamp']"]
# A long page whose marker is reached by a step that scrolls it into view.
LONG = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Long</title>
<style>body { margin: 0; background: #ffffff; }
.spot { position: absolute; top: 1500px; left: 100px; width: 80px; height: 40px;
        background: #ff0000; }</style></head>
<body><div style="height: 2400px"></div><div class="spot"></div></body></html>"""
SCROLL = [{"action": "scroll_into_view", "locator": {"css": ".spot"}}]
VIEW = View("demo", "board", "default", "light")
# Every framework's mask preset, as a target's masks (the sensor's own config names none).
PRESETS = list(dict.fromkeys(mask for framework in KNOWN for mask in framework.masks))


def _repo(tmp_path: Path, masks: list[str]) -> Path:
    """A repository with the board and the long page, its targets masking ``masks``."""
    root = tmp_path / "repo"
    spec_dir = root / "argus" / "specs" / "demo"
    spec_dir.mkdir(parents=True)
    (root / "argus.toml").write_text("")
    (root / "long.html").write_text(LONG)
    (spec_dir / "tokens.json").write_text(json.dumps({"colors": {"ink": "#111114"}}))
    long_target = {"route": "/long.html", "states": ["default"], "gates": ["snapshot"]}
    spot = {"masks": [".spot"]}
    targets = [
        {
            "id": "board",
            "route": "/board.html",
            "states": ["default"],
            "gates": ["snapshot"],
            "snapshot": {"masks": masks},
        },
        {**long_target, "id": "scrolled", "steps": {"default": SCROLL}, "snapshot": spot},
        {
            "id": "presets",
            "route": "/board.html",
            "states": ["default"],
            "gates": ["snapshot"],
            "snapshot": {"masks": PRESETS},
        },
        {
            **long_target,
            "id": "whole",
            "full_page": True,
            "steps": {"default": SCROLL},
            "snapshot": spot,
        },
    ]
    spec = {
        "feature": "demo",
        "adapter": "web",
        "design_system": {"tokens": "argus/specs/demo/tokens.json"},
        "viewport": {"width": 400, "height": 300},
        "targets": targets,
    }
    (spec_dir / "spec.json").write_text(json.dumps(spec))
    return root


def _board(root: Path, tick: str, news: str, stamp: str) -> None:
    (root / "board.html").write_text(BOARD.format(tick=tick, news=news, stamp=stamp))


def _sense(sensor: Sensor, root: Path, base_url: str, view: View, out: Path) -> dict[str, Any]:
    spec = load_spec(root / "argus/specs/demo/spec.json")
    result = sensor.sense(spec, view, out, base_url=base_url)
    assert result.ok, result.error
    probe: dict[str, Any] = json.loads((out / "probe.json").read_text())
    return probe


def _snapshot(root: Path, sensed: Path) -> tuple[GateStatus, dict[str, Any]]:
    spec = load_spec(root / "argus/specs/demo/spec.json")
    inputs = gate_inputs(spec, VIEW, sensed, config=load_config(root))
    outcome = run_gates(inputs, ["snapshot"], record=False).outcome("snapshot")
    return outcome.status, outcome.data


def test_class_attribute_and_combinator_masks_hide_what_changed(
    gates_sensor: Sensor, tmp_path: Path
) -> None:
    root = _repo(tmp_path, MASKS)
    with static_server(root) as base_url:
        _board(root, tick="#111111", news="#222222", stamp="#333333")
        before = _sense(gates_sensor, root, base_url, VIEW, tmp_path / "before")
        _board(root, tick="#ff8800", news="#00aa55", stamp="#3366ff")
        after = _sense(gates_sensor, root, base_url, VIEW, tmp_path / "after")

    recorded = after["masks"]
    assert set(recorded) == set(MASKS) and before["masks"].keys() == recorded.keys()
    # The .ticker not drawn (display: none; opacity 0, which still has a box) gives none; both
    # news paragraphs do; the boxes are the probe's own element boxes (the coordinates the
    # comparison paints in).
    (tick,) = [e for e in after["elements"] if e["id"] == "tick"]
    assert recorded[".ticker"] == [tick["box"]]
    paragraphs = [e["box"] for e in after["elements"] if e["tag"] == "p"]
    assert recorded["section.news > p"] == paragraphs and len(paragraphs) == 2
    assert len(recorded["[data-role='stamp']"]) == 1

    # The first render is the baseline, as the gate writes one: its masks painted in.
    spec_dir = root / "argus/specs/demo"
    baseline = baseline_path(spec_dir, VIEW.target, VIEW.state, VIEW.appearance, None)
    baseline.parent.mkdir(parents=True)
    first = tmp_path / "before" / "render.png"
    image = load_png(first)
    boxes = [Box(**b) for found in before["masks"].values() for b in found]
    paint_masks(image, boxes, device_pixel_ratio(first, viewport_width(before)))
    save_png(baseline, image)
    status, data = _snapshot(root, tmp_path / "after")
    assert status is GateStatus.PASS and data["mismatch"] == 0, data
    assert data["masks_unresolved"] == []

    # One mask fewer, and what it hid is a diff: every mask did its share.
    for left_out in MASKS:
        _set_masks(root, [m for m in MASKS if m != left_out])
        status, data = _snapshot(root, tmp_path / "after")
        assert status is GateStatus.DIFF, (left_out, data)


def _set_masks(root: Path, masks: list[str]) -> None:
    path = root / "argus/specs/demo/spec.json"
    spec = json.loads(path.read_text())
    spec["targets"][0]["snapshot"]["masks"] = masks
    path.write_text(json.dumps(spec))


@pytest.mark.parametrize("target", ["scrolled", "whole"])
def test_mask_boxes_are_where_the_render_shows_the_element(
    gates_sensor: Sensor, tmp_path: Path, target: str
) -> None:
    """A page scrolled by its state's step: the viewport render shows the marker where the
    viewport has it, the full-page render where the document has it; the recorded box is on
    the marker's red pixels in both."""
    root = _repo(tmp_path, MASKS)
    view = View("demo", target, "default", "light")
    with static_server(root) as base_url:
        probe = _sense(gates_sensor, root, base_url, view, tmp_path / target)
    (box,) = probe["masks"][".spot"]
    assert (box["width"], box["height"]) == (80, 40)
    assert (box["y"] == 1500) is (target == "whole")
    pixels = load_png(tmp_path / target / "render.png")
    inside = pixels[int(box["y"]) + 1 : int(box["y"] + box["height"]) - 1,
                    int(box["x"]) + 1 : int(box["x"] + box["width"]) - 1]  # fmt: skip
    assert inside.size and bool(np.all(inside[..., :3] == (255, 0, 0)))


def test_an_unparsable_mask_selector_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _repo(tmp_path, [".ticker", "#1st-row"])
    _board(root, tick="#111111", news="#222222", stamp="#333333")
    where = ["--feature", "demo", "--target", "board", "--state", "default"]
    with static_server(root) as base_url:
        code = main(
            ["sense", *where, "--appearance", "light", "--root", str(root), "--base-url", base_url]
        )
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert len(err.splitlines()) == 1, err
    assert "spec.json" in err and "$.targets[0].snapshot.masks[1]" in err
    assert "'#1st-row'" in err and "fix it" in err


def test_every_frameworks_preset_is_a_selector_the_page_takes(
    gates_sensor: Sensor, tmp_path: Path
) -> None:
    root = _repo(tmp_path, MASKS)
    _board(root, tick="#111111", news="#222222", stamp="#333333")
    view = View("demo", "presets", "default", "light")
    with static_server(root) as base_url:
        probe = _sense(gates_sensor, root, base_url, view, tmp_path / "presets")
    assert sorted(probe["masks"]) == sorted(PRESETS) and ".dash-debug-menu__outer" in PRESETS
