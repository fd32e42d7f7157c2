"""The gates on the real example app: the clean app is green everywhere, and every seeded
defect of examples/habits/defects.json turns exactly its gate(s) red.

Each variant is sensed once per session (its canonical view, list-populated-light) and
cached; the gates then run on the cached files. The snapshot gate sees every visible change
once a baseline exists, so it is asserted only for the clean app (pass) and for the defects
that name it; the clean render is every variant's baseline.
"""

from __future__ import annotations

import functools
import http.server
import shutil
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from argus.config import load_config
from argus.gates import _registry as registry
from argus.gates._registry import GatePlugin
from argus.gates.base import GateInputs, GateOutcome, GateStatus
from argus.gates.inputs import gate_inputs
from argus.gates.runner import GateRun, run_gates
from argus.sense import Sensor
from argus.spec import View, load_spec
from tests.support.fixtures import _QuietHandler
from tests.support.habits import (
    HABITS_SPEC,
    Defect,
    apply_refactor,
    copy_habits,
    load_defects,
    load_refactors,
)

pytestmark = pytest.mark.browser

DEFECTS = load_defects()
REFACTORS = {r.name: r for r in load_refactors()}
CANONICAL = ("list", "populated", "light")


@dataclass(frozen=True)
class Variant:
    name: str
    root: Path
    sensed: Path
    inputs: GateInputs


SenseVariant = Callable[..., Variant]


@pytest.fixture(scope="session")
def variants(
    tmp_path_factory: pytest.TempPathFactory, gates_sensor: Sensor
) -> Iterator[SenseVariant]:
    """``variants(name=None, state=..., appearance=...)``: a sensed copy of the app, cached."""
    home = tmp_path_factory.mktemp("habits-variants")
    handler = functools.partial(_QuietHandler, directory=str(home))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base_url = f"http://127.0.0.1:{server.server_address[1]}"
    cache: dict[tuple[str, str, str], Variant] = {}

    def sense(name: str = "clean", state: str = "populated", appearance: str = "light") -> Variant:
        key = (name, state, appearance)
        if key not in cache:
            slot = home / name
            root = slot / "habits"
            if not root.exists():
                if name in REFACTORS:
                    root = copy_habits(slot)
                    apply_refactor(root, REFACTORS[name])
                else:
                    root = copy_habits(slot, [] if name == "clean" else [name])
            spec = load_spec(root / HABITS_SPEC)
            view = View(spec.feature, "list", state, appearance)
            sensed = slot / "sensed" / view.slug
            result = gates_sensor.sense(spec, view, sensed, base_url=f"{base_url}/{name}/habits")
            assert result.ok, result.error
            inputs = gate_inputs(spec, view, sensed, config=load_config(root), run_dir=sensed)
            cache[key] = Variant(name, root, sensed, inputs)
        return cache[key]

    yield sense
    server.shutdown()
    server.server_close()


def with_clean_baseline(variant: Variant, clean: Variant) -> None:
    """Install the clean app's render as the variant's snapshot baseline."""
    view = variant.inputs.view
    baseline = variant.inputs.spec.spec_dir / "__snapshots__" / f"{view.slug}.png"
    baseline.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(clean.sensed / "render.png", baseline)


def gate_run(variant: Variant, clean: Variant) -> GateRun:
    with_clean_baseline(variant, clean)
    return run_gates(variant.inputs, record=False)


def red(run: GateRun) -> set[str]:
    return set(run.red_gates)


@pytest.mark.parametrize("appearance", ["light", "dark"])
@pytest.mark.parametrize("state", ["populated", "empty"])
def test_clean_app_passes_every_gate(variants: SenseVariant, state: str, appearance: str) -> None:
    clean = variants("clean", state, appearance)
    run = gate_run(clean, clean)
    assert run.all_green, {o.name: (o.status, o.summary, o.findings[:3]) for o in run.outcomes}
    statuses = {o.name: o.status for o in run.outcomes}
    # Nothing the example configures is skipped: every gate really measured the view.
    assert set(statuses.values()) == {GateStatus.PASS}, statuses


def expected_red(defect: Defect) -> set[str]:
    return {defect.gate, *defect.also_red} if defect.gate else set(defect.also_red)


@pytest.mark.parametrize("defect", DEFECTS, ids=[d.name for d in DEFECTS])
def test_each_seeded_defect_turns_exactly_its_gates_red(
    variants: SenseVariant, defect: Defect
) -> None:
    run = gate_run(variants(defect.name), variants())
    expected = expected_red(defect)
    if "snapshot" in expected:
        assert red(run) == expected
    else:
        assert red(run) - {"snapshot"} == expected, {
            o.name: (o.summary, o.findings[:2]) for o in run.outcomes if o.name in red(run)
        }
    for name in expected:
        outcome = run.outcome(name)
        assert outcome.findings, f"{name} is red without naming what it found"


@pytest.mark.parametrize("name", list(REFACTORS))
def test_a_benign_refactor_keeps_every_gate_green(variants: SenseVariant, name: str) -> None:
    """CSS reordered, classes renamed, flex to grid: the same pixels against the clean
    baseline (at the palette-measured threshold), so nothing turns red."""
    run = gate_run(variants(name), variants())
    assert run.all_green, {o.name: (o.summary, o.findings[:2]) for o in run.outcomes}
    assert run.outcome("snapshot").data["mismatch"] == 0


def always_pass(name: str) -> Callable[[GateInputs], GateOutcome]:
    def gate(inputs: GateInputs) -> GateOutcome:
        return GateOutcome(name, GateStatus.PASS, "forced to pass")

    return gate


CAUGHT = [d for d in DEFECTS if d.gate is not None]


@pytest.mark.parametrize("defect", CAUGHT, ids=[d.name for d in CAUGHT])
def test_the_defect_goes_unnoticed_when_its_gates_always_pass(
    variants: SenseVariant, defect: Defect, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Teeth: with the responsible gate(s) swapped for an always-pass gate, the seeded
    defect sails through, so the green above is the gate's doing and nothing else's."""
    run = gate_run(variants(defect.name), variants())
    assert not run.all_green
    for name in expected_red(defect):
        monkeypatch.setitem(registry._registry(), name, GatePlugin(name, always_pass(name)))
    forced = gate_run(variants(defect.name), variants())
    others = red(forced) - ({"snapshot"} if defect.gate != "snapshot" else set())
    assert others == set(), f"{defect.name} still caught by {others}"


@pytest.mark.parametrize(
    ("stops", "status"),
    [
        ("#ffffff, #e2e5ea", GateStatus.PASS),  # dark title over a light gradient: fine
        ("#16181d, #ffffff", GateStatus.FAIL),  # the gradient starts at the title's colour
        # The title's block is wide, its text short: only the white half lies under the text.
        ("#fff 0%, #fff 50%, #16181d 100%", GateStatus.PASS),
    ],
)
def test_text_over_a_gradient_is_measured_from_the_render(
    tmp_path: Path,
    gates_sensor: Sensor,
    serve: Callable[[Path], str],
    stops: str,
    status: GateStatus,
) -> None:
    """axe gives up on text over a gradient (incomplete); rendered_contrast decides it."""
    root = copy_habits(tmp_path)
    css = root / "app.css"
    css.write_text(
        css.read_text() + f"\n.app-title {{ background-image: linear-gradient(90deg, {stops}); }}\n"
    )
    spec = load_spec(root / HABITS_SPEC)
    view = View(spec.feature, *CANONICAL)
    sensed = tmp_path / "sensed"
    assert gates_sensor.sense(spec, view, sensed, base_url=serve(root)).ok
    inputs = gate_inputs(spec, view, sensed, config=load_config(root))
    run = run_gates(inputs, ["rendered_contrast", "axe"], record=False)
    contrast = run.outcome("rendered_contrast")
    assert contrast.status is status, contrast.findings
    assert contrast.data["from_render"] >= 1
    if status is GateStatus.FAIL:
        assert contrast.findings[0].element == '[data-testid="habits.title"]'
    assert run.outcome("axe").status is GateStatus.PASS  # incomplete is listed, not failed


DARK = "#16181d"  # the title's own colour: text on it is invisible
DARK_SVG = (
    "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='8' height='8'%3E"
    "%3Crect width='8' height='8' fill='%2316181d'/%3E%3C/svg%3E"
)
UNDER_THE_TITLE = "position: absolute; inset: 0; z-index: -1; width: 100%; height: 100%;"
BACKDROPS = {
    # A positioned pseudo-element of the title itself.
    "own_before": (
        ".app-title { position: relative; z-index: 0; }\n"
        f'.app-title::before {{ content: ""; {UNDER_THE_TITLE} '
        f"background: linear-gradient(90deg, {DARK}, {DARK}); }}",
        "",
    ),
    # A pseudo-element of an ancestor.
    "ancestor_after": (
        ".app-heading { position: relative; z-index: 0; }\n"
        f'.app-heading::after {{ content: ""; {UNDER_THE_TITLE} background-color: {DARK}; }}',
        "",
    ),
    # A positioned sibling with a background.
    "sibling": (
        ".app-heading { position: relative; z-index: 0; }\n"
        f".blot {{ {UNDER_THE_TITLE} background-color: {DARK}; }}",
        '<span class="blot"></span>',
    ),
    # A sibling hit testing cannot see (pointer-events: none), under the text.
    "unhittable_sibling": (
        ".app-heading { position: relative; z-index: 0; }\n"
        f".blot {{ {UNDER_THE_TITLE} background-color: {DARK}; pointer-events: none; }}",
        '<span class="blot"></span>',
    ),
    # An overlay hit testing cannot see, over the text.
    "unhittable_overlay": (
        ".app-heading { position: relative; }\n"
        f".blot {{ position: absolute; inset: 0; z-index: 1; background-color: {DARK}; "
        "pointer-events: none; }",
        '<span class="blot"></span>',
    ),
    # An image under the text.
    "image": (
        f".app-heading {{ position: relative; z-index: 0; }}\n.blot {{ {UNDER_THE_TITLE} }}",
        f'<img class="blot" alt="" src="{DARK_SVG}">',
    ),
}


@pytest.mark.parametrize("case", list(BACKDROPS))
def test_text_over_a_backdrop_that_is_no_ancestor_is_measured_from_the_render(
    tmp_path: Path, gates_sensor: Sensor, serve: Callable[[Path], str], case: str
) -> None:
    """Ancestors' styles say the title sits on the light page; the render shows it does not."""
    css_rule, markup = BACKDROPS[case]
    root = copy_habits(tmp_path)
    css = root / "app.css"
    css.write_text(css.read_text() + "\n" + css_rule + "\n")
    if markup:
        html = root / "index.html"
        anchor = '<div class="app-heading">'
        html.write_text(html.read_text().replace(anchor, anchor + markup, 1))
    spec = load_spec(root / HABITS_SPEC)
    view = View(spec.feature, *CANONICAL)
    sensed = tmp_path / "sensed"
    result = gates_sensor.sense(spec, view, sensed, base_url=serve(root))
    assert result.ok, result.error
    inputs = gate_inputs(spec, view, sensed, config=load_config(root))
    contrast = run_gates(inputs, ["rendered_contrast"], record=False).outcome("rendered_contrast")
    assert contrast.status is GateStatus.FAIL, contrast.summary
    title = [f for f in contrast.findings if f.element == '[data-testid="habits.title"]']
    assert title, contrast.findings
    assert float(title[0].value[:-2]) < 1.2 and "render" in title[0].message


def test_text_over_a_light_backdrop_is_measured_from_the_render_and_passes(
    tmp_path: Path, gates_sensor: Sensor, serve: Callable[[Path], str]
) -> None:
    root = copy_habits(tmp_path)
    css = root / "app.css"
    css.write_text(css.read_text() + "\n" + BACKDROPS["own_before"][0].replace(DARK, "#ffffff"))
    spec = load_spec(root / HABITS_SPEC)
    view = View(spec.feature, *CANONICAL)
    sensed = tmp_path / "sensed"
    assert gates_sensor.sense(spec, view, sensed, base_url=serve(root)).ok
    inputs = gate_inputs(spec, view, sensed, config=load_config(root))
    contrast = run_gates(inputs, ["rendered_contrast"], record=False).outcome("rendered_contrast")
    assert contrast.status is GateStatus.PASS, contrast.findings
    assert contrast.data["from_render"] == 1
