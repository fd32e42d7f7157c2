"""Gates on an adapter project's output: the probe may have any shape and console.json is
optional (docs/sense.md, adapter contract), so the gates that need the web probe's element
list or a console log skip instead of going red. A web view missing them is still an error."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from argus.config import ProjectConfig
from argus.gates._snapshot import snapshot_gate
from argus.gates.base import GateInputs, GateStatus
from argus.gates.inputs import gate_inputs
from argus.gates.runner import run_gates
from argus.spec import View, load_spec
from tests.gates.probes import el, page

ELEMENT_GATES = ["rendered_contrast", "token_compliance", "snapshot"]
# An iOS-style accessibility tree: no "elements" list.
ADAPTER_PROBE = {"nodes": [{"identifier": "home.title", "label": "Home", "children": []}]}

MakeInputs = Callable[..., GateInputs]


@pytest.fixture
def make(tmp_path: Path) -> MakeInputs:
    def build(
        adapter: str,
        probe: dict[str, Any],
        console: dict[str, Any] | None = None,
        masks: list[str] | None = None,
    ) -> GateInputs:
        root = tmp_path / adapter
        spec_dir = root / "argus" / "specs" / "demo"
        spec_dir.mkdir(parents=True)
        (root / "argus.toml").write_text("")
        (spec_dir / "tokens.json").write_text(json.dumps({"colors": {"ink": "#16181d"}}))
        target: dict[str, Any] = {
            "id": "home",
            "route": "/" if adapter == "web" else "app://demo/home",
            "states": ["default"],
            "appearances": ["light"],
            "a11y_contract": ["home.title"],
        }
        if masks is not None:
            target["snapshot"] = {"masks": masks}
        spec = {
            "feature": "demo",
            "adapter": adapter,
            "design_system": {"tokens": "argus/specs/demo/tokens.json"},
            "targets": [target],
        }
        (spec_dir / "spec.json").write_text(json.dumps(spec))
        sensed = root / "sensed"
        sensed.mkdir()
        Image.new("RGB", (40, 30), (255, 255, 255)).save(sensed / "render.png")
        (sensed / "probe.json").write_text(json.dumps(probe))
        if console is not None:
            (sensed / "console.json").write_text(json.dumps(console))
        loaded = load_spec(spec_dir / "spec.json")
        view = View("demo", "home", "default", "light")
        return gate_inputs(loaded, view, sensed, config=ProjectConfig(root=root))

    return build


def test_an_adapter_probe_without_elements_skips_the_element_gates(make: MakeInputs) -> None:
    run = run_gates(make("fake", ADAPTER_PROBE), [*ELEMENT_GATES, "a11y_ids"], record=False)
    assert run.all_green, {o.name: o.summary for o in run.outcomes}
    for name in ["rendered_contrast", "token_compliance"]:
        outcome = run.outcome(name)
        assert outcome.status is GateStatus.SKIP, (name, outcome.summary)
        assert "no 'elements' list" in outcome.summary and "fake" in outcome.summary
    assert run.outcome("a11y_ids").status is GateStatus.PASS  # ids come from any shape


def test_an_adapter_render_is_still_compared_with_its_baseline(make: MakeInputs) -> None:
    inputs = make("fake", ADAPTER_PROBE)
    first = run_gates(inputs, ["snapshot"], record=False).outcome("snapshot")
    assert first.status is GateStatus.NEW and first.data["action"] == "written", first.data
    assert run_gates(inputs, ["snapshot"], record=False).outcome("snapshot").status is (
        GateStatus.PASS
    )
    Image.new("RGB", (40, 30), (0, 0, 0)).save(inputs.sensed.render)
    changed = run_gates(inputs, ["snapshot"], record=False).outcome("snapshot")
    assert changed.status is GateStatus.DIFF and changed.findings[0].element == "page"


def test_adapter_snapshot_masks_need_elements(make: MakeInputs) -> None:
    inputs = make("fake", ADAPTER_PROBE, masks=["#clock"])
    outcome = run_gates(inputs, ["snapshot"], record=False).outcome("snapshot")
    assert outcome.status is GateStatus.SKIP
    assert outcome.summary == (
        "snapshot masks need the probe's 'elements' list, and the 'fake' adapter's probe has none"
    )
    assert snapshot_gate(inputs).name == "snapshot"


def test_an_adapter_without_console_json_skips_the_console_gate(make: MakeInputs) -> None:
    outcome = run_gates(make("fake", ADAPTER_PROBE), ["console"], record=False).outcome("console")
    assert outcome.status is GateStatus.SKIP and "console.json" in outcome.summary
    written = make("fake2", ADAPTER_PROBE, console={"messages": [], "page_errors": ["boom"]})
    failing = run_gates(written, ["console"], record=False).outcome("console")
    assert failing.status is GateStatus.FAIL  # when the adapter does write one, it counts


def test_an_adapter_probe_with_elements_is_gated_like_the_webs(make: MakeInputs) -> None:
    probe = page(el("p", text="x", color="rgb(250, 250, 250)"))
    outcome = run_gates(make("fake", probe), ["rendered_contrast"], record=False)
    assert outcome.outcome("rendered_contrast").status is GateStatus.FAIL


def test_a_web_view_missing_them_is_still_an_error(make: MakeInputs) -> None:
    run = run_gates(make("web", ADAPTER_PROBE), [*ELEMENT_GATES, "console"], record=False)
    for name in [*ELEMENT_GATES, "console"]:
        assert run.outcome(name).status is GateStatus.ERROR, name


@pytest.mark.parametrize(
    ("meta", "scale"),
    [
        ({"viewport": {"width": 20, "height": 15}}, 2.0),  # a 40 px render of a 20 px view
        ({"viewport": {"width": 40.0}}, 1.0),
        ({"viewport": {"width": 10}}, 4.0),
        (None, 1.0),  # no meta.json: the render's pixels are taken as CSS pixels
        ({}, 1.0),
        ({"viewport": [20]}, 1.0),
        ({"viewport": {"width": "20"}}, 1.0),
        ({"viewport": {"width": True}}, 1.0),
        ({"viewport": {"height": 15}}, 1.0),
    ],
)
def test_an_adapter_render_is_scaled_by_the_viewport_meta_json_records(
    make: MakeInputs, meta: dict[str, Any] | None, scale: float
) -> None:
    inputs = make("fake", ADAPTER_PROBE)
    if meta is not None:
        inputs.sensed.meta.write_text(json.dumps(meta))
    outcome = run_gates(inputs, ["snapshot"], record=False).outcome("snapshot")
    assert outcome.data["scale"] == scale
