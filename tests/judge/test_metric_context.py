"""What every metric dimension reads (argus.judge.metric._context) and the metric judge's own
assembly (argus.judge.metric): nodes from probe.json, optional inputs, images, the dimension
entries and the registry. No browser."""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from io import BytesIO
from itertools import count
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

from argus.config import ProjectConfig
from argus.errors import InputError, JudgeError
from argus.judge.metric import MEASURES, MetricJudge, dimension_entry
from argus.judge.metric._accessibility import accessibility
from argus.judge.metric._context import Measured, MetricContext
from argus.judge.metric._design import layout_spacing, token_compliance, typography
from argus.judge.metric._functional import functional_correctness
from argus.judge.metric._hierarchy import hierarchy
from argus.judge.metric._visual import closer_than_previous, visual_fidelity
from argus.judge.packet import Packet, PacketFile
from argus.judge.registry import get_judge
from argus.schemas.rubric import default_rubric_text
from tests.judge.conftest import RUBRIC, PacketFactory
from tests.judge.test_metric_design import HABITS_TOKENS, el

_numbers = count()


def _file(directory: Path, role: str, name: str, data: bytes) -> PacketFile:
    path = directory / name
    path.write_bytes(data)
    return PacketFile(role, path, hashlib.sha256(data).hexdigest())


def _png(shade: int, size: tuple[int, int] = (8, 6)) -> bytes:
    image = Image.new("RGBA", size, (shade, shade, shade, 255))
    out = BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def context(
    tmp_path: Path,
    *,
    probe: Any = None,
    contract: Any = None,
    images: dict[str, bytes] | None = None,
    extra: dict[str, Any] | None = None,
) -> MetricContext:
    directory = tmp_path / f"packet-{next(_numbers)}"
    directory.mkdir()
    if probe is None:
        probe = {"version": 1, "viewport": {"width": 320, "height": 200}, "elements": []}
    files = {
        "probe": _file(directory, "probe", "probe.json", json.dumps(probe).encode()),
        "tokens": _file(directory, "tokens", "tokens.json", HABITS_TOKENS.read_bytes()),
    }
    if contract is not None:
        files["contract"] = _file(
            directory, "contract", "contract.json", json.dumps(contract).encode()
        )
    for role, data in (images or {}).items():
        files[role] = _file(directory, role, f"{role}.png", data)
    for role, data in (extra or {}).items():
        files[role] = _file(directory, role, f"{role}.json", json.dumps(data).encode())
    packet = Packet(directory, "habits", "list", "populated", "dark", 1, None, files)
    return MetricContext(packet, ProjectConfig(root=tmp_path))


def _probe(*elements: dict[str, Any]) -> dict[str, Any]:
    return {"version": 1, "viewport": {"width": 320, "height": 200}, "elements": list(elements)}


# --- Node and the nodes read from probe.json ------------------------------------------


@pytest.mark.parametrize(
    ("box", "visible", "shown"),
    [
        ((0, 0, 2, 2), True, True),
        ((0, 0, 1, 40), True, False),
        ((0, 0, 40, 1), True, False),
        ((0, 0, 1, 1), True, False),
        ((0, 0, 40, 40), False, False),
    ],
)
def test_a_node_is_shown_when_visible_and_bigger_than_1px(
    tmp_path: Path, box: tuple[float, ...], visible: bool, shown: bool
) -> None:
    raw = el(0, None, "body", box=box, visible=visible)
    (node,) = context(tmp_path, probe=_probe(raw)).nodes
    assert node.shown is shown


def test_nodes_carry_the_accessibility_facts(tmp_path: Path) -> None:
    full = el(0, None, "main", role="main", truncated="ellipsis")
    full.update({"name": "Habits", "heading_level": 2, "interactive": True, "disabled": True})
    bare = el(1, 0, "p")
    for key in ("role", "name", "heading_level", "interactive", "disabled", "truncated"):
        bare.pop(key, None)
    nulls = el(2, 0, "p")
    nulls.update({"role": None, "name": None, "truncated": None, "interactive": None})
    nodes = context(tmp_path, probe=_probe(full, bare, nulls)).nodes
    assert [
        (n.role, n.name, n.heading_level, n.interactive, n.disabled, n.truncated) for n in nodes
    ] == [
        ("main", "Habits", 2, True, True, "ellipsis"),
        ("", "", None, False, False, ""),
        ("", "", None, False, False, ""),
    ]
    assert [n.element.index for n in nodes] == [0, 1, 2]


@pytest.mark.parametrize("level", [True, "2", 2.0, None])
def test_a_heading_level_is_a_whole_number_or_none(tmp_path: Path, level: Any) -> None:
    raw = el(0, None, "h2")
    raw["heading_level"] = level
    (node,) = context(tmp_path, probe=_probe(raw)).nodes
    assert node.heading_level is None


@pytest.mark.parametrize(("value", "disabled"), [(True, True), ("true", False), (1, False)])
def test_only_a_true_disabled_flag_disables(tmp_path: Path, value: Any, disabled: bool) -> None:
    raw = el(0, None, "button")
    raw["disabled"] = value
    (node,) = context(tmp_path, probe=_probe(raw)).nodes
    assert node.disabled is disabled


def test_a_probe_that_is_no_object_is_refused(tmp_path: Path) -> None:
    ctx = context(tmp_path, probe=[1, 2])
    with pytest.raises(InputError, match=r"probe\.json"):
        ctx.probe_raw  # noqa: B018
    with pytest.raises(InputError):
        ctx.nodes  # noqa: B018


def test_the_probe_is_parsed_once_and_typed(tmp_path: Path) -> None:
    ctx = context(tmp_path, probe=_probe(el(0, None, "body"), el(1, 0, "p", text="Hi")))
    assert ctx.probe is ctx.probe and ctx.probe_raw is ctx.probe_raw
    assert [e.tag for e in ctx.probe.elements] == ["body", "p"]
    assert ctx.tokens.spacing["md"] == 16
    assert ctx.appearance == "dark"


# --- contract and optional inputs ------------------------------------------------------


def test_the_contract_is_an_object_or_nothing(tmp_path: Path) -> None:
    assert context(tmp_path, contract={"primary_action": "x"}).contract == {"primary_action": "x"}
    assert context(tmp_path, contract=["x"]).contract == {}


def test_an_optional_input_is_none_an_object_or_refused(tmp_path: Path) -> None:
    assert context(tmp_path).optional_json("console") is None
    assert context(tmp_path, extra={"console": {"errors": []}}).optional_json("console") == {
        "errors": []
    }
    with pytest.raises(InputError, match="console"):
        context(tmp_path, extra={"console": [1]}).optional_json("console")


# --- images --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "adapter"),
    [
        (None, "web"),  # no spec in the packet: the web sensor's
        ({"feature": "x"}, "web"),  # the spec's default
        ({"adapter": "textual"}, "textual"),
        ({"adapter": 3}, "web"),  # not a name: never a platform
    ],
)
def test_the_adapter_is_the_specs(tmp_path: Path, spec: Any, adapter: str) -> None:
    extra = {} if spec is None else {"spec": spec}
    assert context(tmp_path, extra=extra).adapter == adapter


def test_images_are_decoded_once_and_shared(tmp_path: Path) -> None:
    ctx = context(tmp_path, images={"render": _png(10), "reference": _png(200, (4, 4))})
    render = ctx.render_picture
    assert ctx.picture("render") is render and ctx.render is render.pixels
    assert ctx.render.shape == (6, 8, 4) and int(ctx.render[0, 0, 0]) == 10
    reference = ctx.image("reference")
    assert reference is not None and reference.shape == (4, 4, 4)
    assert int(reference[0, 0, 0]) == 200
    assert ctx.picture("prev_render") is None and ctx.image("prev_render") is None


def test_asking_for_the_reference_first_decodes_it(tmp_path: Path) -> None:
    ctx = context(tmp_path, images={"render": _png(11), "reference": _png(201)})
    reference = ctx.image("reference")
    assert reference is not None and int(reference[0, 0, 0]) == 201
    assert int(ctx.render[0, 0, 0]) == 11


def test_a_packet_without_a_render_is_refused(tmp_path: Path) -> None:
    ctx = context(tmp_path, images={"reference": _png(12)})
    with pytest.raises(JudgeError, match="render"):
        ctx.render  # noqa: B018
    assert ctx.picture("render") is None
    image = ctx.image("reference")
    assert image is not None and np.all(image[..., 0] == 12)


def test_the_render_for_pixel_measures_is_loaded_once_at_its_device_pixel_ratio(
    tmp_path: Path,
) -> None:
    ctx = context(tmp_path, images={"render": _png(13, (640, 4))})  # 2x the 320px viewport
    image = ctx.render_image()
    assert image is not None and ctx.render_image() is image
    assert image.device_pixel_ratio == 2.0
    assert image.pixels.shape == (4, 640, 3) and int(image.pixels[0, 0, 0]) == 13
    assert context(tmp_path).render_image() is None  # no render: no pixel measures
    assert context(tmp_path, images={"reference": _png(13)}).render_image() is None


# --- the metric judge ------------------------------------------------------------------


def test_every_rubric_dimension_has_its_measure() -> None:
    assert {
        "visual_fidelity": visual_fidelity,
        "token_compliance": token_compliance,
        "layout_spacing": layout_spacing,
        "typography": typography,
        "hierarchy": hierarchy,
        "functional_correctness": functional_correctness,
        "accessibility": accessibility,
    } == MEASURES
    assert set(MEASURES) == set(RUBRIC.names)


def test_a_dimension_entry_keeps_the_score_or_the_abstention() -> None:
    scored = dimension_entry(Measured(0.5, "two near misses", {"off": 2}), "design")
    assert scored == {
        "score": 0.5,
        "anchor": "design",
        "evidence": "two near misses",
        "measurements": {"off": 2},
        "judged_by": "metric",
    }
    abstained = dimension_entry(Measured.abstain("no reference", pixels=0), "mock")
    assert abstained == {
        "score": None,
        "anchor": "mock",
        "evidence": "no reference",
        "abstained": True,
        "measurements": {"pixels": 0},
        "judged_by": "metric",
    }
    zero = dimension_entry(Measured(0, "off", {}), "design")
    assert "abstained" not in zero and zero["score"] == 0


def test_an_unknown_dimension_abstains_and_the_rest_are_measured(tmp_path: Path) -> None:
    probe = _probe(
        el(0, None, "body", box=(0, 0, 320, 200), background_color="rgb(14, 16, 20)"),
        el(1, 0, "p", text="Read", color="rgb(241, 243, 246)"),
    )
    ctx = context(tmp_path, probe=probe)
    measured = MetricJudge._measure(ctx, ("made_up", "token_compliance", "also_made_up"))
    assert list(measured) == ["made_up", "token_compliance", "also_made_up"]
    assert measured["made_up"].score is None and measured["also_made_up"].score is None
    assert measured["token_compliance"].score == 1


def test_a_measure_that_cannot_read_its_input_is_refused(tmp_path: Path) -> None:
    judge = MetricJudge(ProjectConfig(root=tmp_path))
    ctx = context(tmp_path, probe=[1])
    with pytest.raises(InputError, match="typography"):
        judge._measure(ctx, ("typography",))


def test_the_metric_judge_scores_every_rubric_dimension(make_packet: PacketFactory) -> None:
    judge = get_judge("metric", ProjectConfig(root=Path(".")))
    assert isinstance(judge, MetricJudge) and judge.name == "metric" and judge.model is None
    packet = make_packet()
    verdict = judge.judge(packet)
    assert list(verdict["dimensions"]) == list(RUBRIC.names)
    for name, entry in verdict["dimensions"].items():
        assert entry["anchor"] == RUBRIC.dimensions[name].anchor
        assert entry["judged_by"] == "metric"
    assert verdict["dimensions"]["visual_fidelity"]["abstained"] is True  # no reference
    assert verdict["closer_to_reference_than_prev"] is None
    measured = judge.measure(packet, ("typography", "nothing"))
    assert measured["nothing"].score is None and measured["typography"].score is not None
    assert closer_than_previous(MetricContext(packet, judge.config)) is None


def test_the_metric_judge_follows_the_packets_rubric(
    make_packet: PacketFactory, tmp_path: Path
) -> None:
    packet = make_packet()
    rubric = json.loads(default_rubric_text())
    rubric["dimensions"] = dict(reversed(list(rubric["dimensions"].items())))
    rubric["dimensions"]["typography"]["anchor"] = "spec-text"
    path = tmp_path / "own-rubric.json"
    path.write_text(json.dumps(rubric), "utf-8")
    own = replace(packet, files={**packet.files, "rubric": PacketFile("rubric", path, "0" * 64)})
    verdict = MetricJudge(ProjectConfig(root=tmp_path)).judge(own)
    assert list(verdict["dimensions"]) == list(reversed(RUBRIC.names))
    assert verdict["dimensions"]["typography"]["anchor"] == "spec-text"
