"""Packets for the judge tests, built from the Habits spec and hand-written sensor files."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from PIL import Image, ImageDraw

from argus.config import ProjectConfig
from argus.gates import run_gates
from argus.gates.inputs import gate_inputs
from argus.judge.assemble import view_contract
from argus.judge.packet import Packet, build_packet
from argus.schemas import load_rubric
from argus.schemas.rubric import default_rubric_text
from argus.spec import Spec, View, load_spec
from tests.support.habits import HABITS_SPEC, copy_habits

if TYPE_CHECKING:
    from argus.sense import Sensor
    from tests.support.metric_variants import Variants

RUBRIC = load_rubric(None)
# A gate that looks at the tokens only, so it is green whatever a test's page shows.
PAGE_BLIND_GATES = ("token_contrast",)


def derived_gate_result(
    spec: Spec, view: View, sensed: Path, names: tuple[str, ...] = PAGE_BLIND_GATES
) -> dict[str, Any]:
    """A gate result made by the gates runner over ``sensed`` (so it names that render and
    probe), running ``names``."""
    inputs = gate_inputs(spec, view, sensed, config=ProjectConfig(root=spec.root))
    return dict(run_gates(inputs, names, record=False).result)


def small_probe(text: str = "Read 20 pages") -> dict[str, Any]:
    style = {
        "color": "rgb(17, 17, 20)",
        "background-color": "rgba(0, 0, 0, 0)",
        "font-size": "16px",
    }
    return {
        "version": 1,
        "url": "http://127.0.0.1:8765/?argus_fixture=populated&argus_appearance=light",
        "viewport": {"width": 320, "height": 200},
        "elements": [
            {
                "index": 0,
                "parent": None,
                "tag": "body",
                "role": "generic",
                "name": "",
                "id": "",
                "testid": "",
                "text": "",
                "heading_level": None,
                "visible": True,
                "interactive": False,
                "box": {"x": 0, "y": 0, "width": 320, "height": 200},
                "style": style,
            },
            {
                "index": 1,
                "parent": 0,
                "tag": "h1",
                "role": "heading",
                "name": "Habits",
                "id": "",
                "testid": "habits.title",
                "text": "Habits",
                "heading_level": 1,
                "visible": True,
                "interactive": False,
                "box": {"x": 10, "y": 10, "width": 200, "height": 32},
                "style": {**style, "font-size": "28px"},
            },
            {
                "index": 2,
                "parent": 0,
                "tag": "p",
                "role": "paragraph",
                "name": "",
                "id": "",
                "testid": "",
                "text": text,
                "heading_level": None,
                "visible": True,
                "interactive": False,
                "box": {"x": 10, "y": 50, "width": 200, "height": 24},
                "style": style,
            },
        ],
        "aria_snapshot": f'- heading "Habits" [level=1]\n- paragraph: {text}',
    }


def png(path: Path, *, shade: int = 245, button: tuple[int, int] = (200, 120)) -> Path:
    image = Image.new("RGBA", (320, 200), (shade, shade, shade, 255))
    draw = ImageDraw.Draw(image)
    draw.rectangle((10, 10, 200, 40), fill=(20, 20, 20, 255))
    draw.rectangle((*button, button[0] + 80, button[1] + 30), fill=(52, 71, 196, 255))
    image.save(path)
    return path


PacketFactory = Callable[..., Packet]


@pytest.fixture
def habits_root(tmp_path: Path) -> Path:
    return copy_habits(tmp_path)


# A focus walk whose one stop shows a ring: what the web sensor writes for a sound page.
VISIBLE_FOCUS: dict[str, Any] = {
    "version": 1,
    "pad": 8,
    "stops": [{"id": "", "testid": "habits.add", "tag": "button",
               "box": {"x": 10, "y": 10, "width": 80, "height": 32},
               "changed_pixels": 120, "method": "focused"}],
}  # fmt: skip


# A dead-control probe that activated one control, which worked: what the web sensor writes
# for a sound page (no controls.json at all leaves functional_correctness unverified).
LIVE_CONTROLS: dict[str, Any] = {
    "version": 1, "url": "http://app.test/", "found": 1, "limit": 8, "capped": False,
    "controls": [{"tag": "button", "id": "", "testid": "habits.add", "role": "button",
                  "name": "Add", "selector": '[data-testid="habits.add"]', "chain": [],
                  "outcome": "live", "effects": ["dom"]}],
}  # fmt: skip


@pytest.fixture
def make_packet(tmp_path: Path, habits_root: Path) -> PacketFactory:
    """make_packet(probe=..., console=..., reference="candidate"|"human"|None, prev=False);
    ``focus`` and ``controls`` default to a sound page's focus walk and dead-control probe."""
    counter = iter(range(1000))

    def make(
        *,
        probe: dict[str, Any] | None = None,
        console: dict[str, Any] | None = None,
        reference: str | None = None,
        prev: bool = False,
        gate_result: dict[str, Any] | None = None,
        state: str = "populated",
        extra: dict[str, Path] | None = None,
        render_button: tuple[int, int] = (200, 120),
        render_shade: int = 245,
        contract: dict[str, Any] | None = None,
        spec_md: bool = True,
        focus: dict[str, Any] | None = VISIBLE_FOCUS,
        controls: dict[str, Any] | None = LIVE_CONTROLS,
    ) -> Packet:
        n = next(counter)
        src = tmp_path / f"inputs-{n}"
        src.mkdir()
        spec = load_spec(habits_root / HABITS_SPEC)
        view = View("habits", "list", state, "light")
        (src / "probe.json").write_text(json.dumps(probe or small_probe()), "utf-8")
        render = png(src / "render.png", shade=render_shade, button=render_button)
        gates = gate_result or derived_gate_result(spec, view, src)
        (src / "gate.json").write_text(json.dumps(gates), "utf-8")
        (src / "rubric.json").write_text(default_rubric_text(), "utf-8")
        inputs: dict[str, Path] = {
            "spec": spec.path,
            "spec_md": spec.spec_dir / "spec.md",
            "tokens": spec.tokens_path,
            "rubric": src / "rubric.json",
            "render": render,
            "probe": src / "probe.json",
            "gate_result": src / "gate.json",
        }
        if not spec_md or not inputs["spec_md"].is_file():
            del inputs["spec_md"]
        if console is not None:
            (src / "console.json").write_text(json.dumps(console), "utf-8")
            inputs["console"] = src / "console.json"
        if focus is not None:
            (src / "focus.json").write_text(json.dumps(focus), "utf-8")
            inputs["focus"] = src / "focus.json"
        if controls is not None:
            (src / "controls.json").write_text(json.dumps(controls), "utf-8")
            inputs["controls"] = src / "controls.json"
        if reference:
            inputs["reference"] = png(src / "reference.png")
        if prev:
            inputs["prev_render"] = png(src / "prev.png", button=(20, 150))
        inputs.update(extra or {})
        return build_packet(
            tmp_path / f"packet-{n}",
            feature="habits",
            target="list",
            state=state,
            appearance="light",
            iteration=1,
            reference_source=reference,
            inputs=inputs,
            contract={**view_contract(spec, view), **(contract or {})},
        )

    return make


def config_for(root: Path, **judge: Any) -> ProjectConfig:
    implementer = judge.pop("implementer_model", "stub-implementer-model")
    return ProjectConfig.model_validate(
        {"root": root, "judge": judge, "implementer": {"model": implementer}}
    )


def answer(scores: dict[str, float | None] | None = None, notes: str = "") -> str:
    """A model answer scoring every rubric dimension (1 unless ``scores`` says otherwise)."""
    scores = scores or {}
    dims = {}
    for name, dim in RUBRIC.dimensions.items():
        score = scores.get(name, 1)
        dims[name] = {
            "score": score,
            "abstained": score is None,
            "anchor": dim.anchor,
            "evidence": f"observed {name} against the {dim.anchor} anchor",
        }
    return json.dumps({"dimensions": dims, "notes": notes})


@pytest.fixture(scope="session")
def metric_variants(
    warm_sensor: Sensor, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Variants]:
    """The Habits variants of this test worker, each view sensed once, on first use."""
    from tests.support.metric_variants import Variants

    variants = Variants(warm_sensor, tmp_path_factory.mktemp("judge-variants"))
    try:
        yield variants
    finally:
        variants.close()
