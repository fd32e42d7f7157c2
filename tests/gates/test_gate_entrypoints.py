"""The registered entry points of the contrast and token gates: each reads the view's sensed
files and hands the project's settings, the tokens and the appearance to its check."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest
from PIL import Image

from argus.config import RenderedContrastConfig, TokenComplianceConfig
from argus.errors import InputError
from argus.evidence.probe import parse_probe
from argus.gates._registry import get_gate
from argus.gates._token_contrast import check_token_contrast, token_contrast_gate
from argus.gates.base import GateInputs, GateOutcome, GateStatus
from argus.gates.rendered_contrast import check_rendered_contrast, rendered_contrast_gate
from argus.gates.token_compliance import token_compliance_gate
from tests.gates.probes import el, page
from tests.gates.test_console import settings

PRIMARY_LIGHT = "rgb(52, 71, 196)"  # the light appearance's "primary" token, exactly


def test_the_gates_are_registered_under_their_names() -> None:
    assert get_gate("token_contrast") is token_contrast_gate
    assert get_gate("token_compliance") is token_compliance_gate
    assert get_gate("rendered_contrast") is rendered_contrast_gate


def test_token_contrast_checks_the_specs_pairs_and_skips_without_them(
    habits_inputs: Callable[..., GateInputs],
) -> None:
    inputs = habits_inputs()
    assert inputs.spec.contrast_pairs_path is not None
    outcome = token_contrast_gate(inputs)
    assert outcome == check_token_contrast(inputs.tokens, inputs.spec.contrast_pairs_path)
    assert (outcome.name, outcome.status) == ("token_contrast", GateStatus.PASS)
    none = token_contrast_gate(replace(inputs, spec=replace(inputs.spec, contrast_pairs_path=None)))
    assert (none.name, none.status, none.findings) == ("token_contrast", GateStatus.SKIP, ())


def compliance(inputs: GateInputs, **changes: object) -> GateInputs:
    section = TokenComplianceConfig().model_copy(update=changes)
    return settings(inputs, token_compliance=section)


def test_token_compliance_uses_the_projects_properties_allow_list_and_tolerance(
    habits_inputs: Callable[..., GateInputs],
) -> None:
    doc = page(
        el("p", id="tok", text="token", color=PRIMARY_LIGHT),
        el("p", id="near", text="near", color="rgb(28, 24, 29)"),  # ΔE ~2 from text-primary
        el("p", id="red", text="red", color="rgb(255, 0, 0)"),
        el("div", id="spaced", margin_top="13px"),  # off the spacing scale
        body_bg="rgb(245, 246, 248)",
    )
    inputs = habits_inputs(probe=doc)
    lenient = {
        "properties": ["color"],
        "allow": ["transparent", "currentcolor", "red"],
        "delta_e": 5.0,
    }
    passed = token_compliance_gate(compliance(inputs, **lenient))
    assert (passed.name, passed.status) == ("token_compliance", GateStatus.PASS)
    # Each setting alone decides: undo one and the gate fails on what it let through.
    for key, default in (("properties", None), ("allow", None), ("delta_e", 1.0)):
        undone = dict(lenient)
        undone[key] = default if default is not None else TokenComplianceConfig().model_dump()[key]
        failed = token_compliance_gate(compliance(inputs, **undone))
        assert failed.status is GateStatus.FAIL, key
    # The appearance decides which tokens count: the light primary is off-token in dark.
    dark = token_compliance_gate(compliance(habits_inputs(probe=doc, appearance="dark"), **lenient))
    assert dark.status is GateStatus.FAIL
    assert {f.element for f in dark.findings} >= {"#tok"}


def test_rendered_contrast_applies_the_projects_level(
    habits_inputs: Callable[..., GateInputs],
) -> None:
    # About 5.4:1 on white: AA (4.5:1) passes, AAA (7:1) fails.
    doc = page(el("p", id="grey", text="Grey text", color="rgb(106, 106, 106)"))
    inputs = habits_inputs(probe=doc)
    aa = rendered_contrast_gate(settings(inputs, rendered_contrast=RenderedContrastConfig()))
    assert (aa.name, aa.status) == ("rendered_contrast", GateStatus.PASS)
    strict = settings(inputs, rendered_contrast=RenderedContrastConfig(level="AAA"))
    aaa = rendered_contrast_gate(strict)
    assert aaa.status is GateStatus.FAIL
    probe = parse_probe(doc, str(inputs.sensed.probe))
    assert aaa == check_rendered_contrast(probe, inputs.sensed.render, "AAA")


def test_the_render_is_read_from_the_views_sensed_files(
    habits_inputs: Callable[..., GateInputs],
) -> None:
    # Black text on a background image: only the render can say what is behind it.
    doc = page(el("p", id="over", text="x", color="rgb(0, 0, 0)", background_image="url(a)"))
    inputs = habits_inputs(probe=doc)
    blind = rendered_contrast_gate(inputs)  # no render.png: not measurable
    assert blind.data["not_measurable"] == 1 and blind.data["worst_ratio"] is None
    Image.new("RGB", (1280, 800), (255, 255, 255)).save(inputs.sensed.render)
    seen = rendered_contrast_gate(inputs)
    assert seen.data["not_measurable"] == 0 and seen.data["worst_ratio"] == 21.0
    assert seen.status is GateStatus.PASS


@pytest.mark.parametrize("gate", [rendered_contrast_gate, token_compliance_gate])
def test_an_adapters_probe_without_elements_is_a_skip_under_the_gates_name(
    habits_inputs: Callable[..., GateInputs], gate: Callable[[GateInputs], GateOutcome]
) -> None:
    inputs = settings(habits_inputs(probe={"screen": "home"}), adapter="ios")
    outcome = gate(inputs)
    assert outcome.status is GateStatus.SKIP
    assert outcome.name == gate.__name__.removesuffix("_gate")


@pytest.mark.parametrize("gate", [rendered_contrast_gate, token_compliance_gate])
def test_a_bad_probe_is_refused_naming_its_file(
    habits_inputs: Callable[..., GateInputs], gate: Callable[[GateInputs], GateOutcome]
) -> None:
    inputs = habits_inputs(probe={"version": 1, "elements": "none"})
    with pytest.raises(InputError) as refused:
        gate(inputs)
    assert str(inputs.sensed.probe) in str(refused.value)


def chart_probe(fill: str = PRIMARY_LIGHT, **graphics: object) -> dict[str, object]:
    doc = page(el("svg", id="chart", box={"x": 0, "y": 0, "width": 200, "height": 100}))
    bar = {
        "index": 0,
        "svg": 1,
        "tag": "rect",
        "path": "#bar",
        "id": "bar",
        "series": "revenue",
        "box": {"x": 10, "y": 10, "width": 20, "height": 80},
        "fill": fill,
        "stroke": "none",
    }
    doc["graphics"] = {
        "marks": [bar],
        "charts": [{"svg": 1, "role": "img", "name": "R"}],
        **graphics,
    }
    return doc


def test_token_compliance_reads_the_probes_graphics_the_specs_series_and_the_render(
    habits_inputs: Callable[..., GateInputs],
) -> None:
    inputs = habits_inputs(probe=chart_probe())
    assert token_compliance_gate(inputs).data["charts"]["marks_checked"] == 1
    mapped = replace(inputs, spec=replace(inputs.spec, chart_series={"revenue": "success"}))
    outcome = token_compliance_gate(mapped)
    assert [f.element for f in outcome.findings] == ["#bar"]
    assert "series 'revenue'" in outcome.findings[0].message
    canvas = {
        "element": 1,
        "tag": "svg",
        "name": "R",
        "how": "data-argus-chart",
        "box": {"x": 0, "y": 0, "width": 200, "height": 100},
    }
    inputs = habits_inputs(probe=chart_probe(canvases=[canvas]))
    assert "no render.png" in token_compliance_gate(inputs).summary
    Image.new("RGB", (1280, 800), (122, 31, 162)).save(inputs.sensed.render)
    painted = token_compliance_gate(inputs)
    assert [f.property for f in painted.findings] == ["canvas colour"]


def test_rendered_contrast_reads_the_probes_graphics(
    habits_inputs: Callable[..., GateInputs],
) -> None:
    outcome = rendered_contrast_gate(habits_inputs(probe=chart_probe("rgb(250, 250, 250)")))
    assert outcome.status is GateStatus.FAIL
    assert [f.property for f in outcome.findings] == ["contrast (chart mark)"]


@pytest.mark.parametrize("gate", [rendered_contrast_gate, token_compliance_gate])
def test_a_forged_graphics_section_is_refused_naming_the_probe(
    habits_inputs: Callable[..., GateInputs], gate: Callable[[GateInputs], GateOutcome]
) -> None:
    inputs = habits_inputs(probe=chart_probe(marks="many"))
    with pytest.raises(InputError, match=r"graphics\.marks must be a list") as refused:
        gate(inputs)
    assert str(inputs.sensed.probe) in str(refused.value)
