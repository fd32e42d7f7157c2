"""Fixture pages written from the WCAG 2.2 text (1.4.3, 1.4.6) and the axe-core rule docs,
sensed in a real Chromium and judged by the gates: what WCAG exempts must not fail, what it
requires must not pass.

Each page is one component view (no <main>, no <h1>: page-structure advice must stay quiet).
Every page is sensed once per module, in the light appearance.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from argus.config import AxeConfig
from argus.gates.axe import check_axe
from argus.gates.base import GateOutcome, GateStatus
from argus.gates.probe import parse_probe
from argus.gates.rendered_contrast import check_rendered_contrast
from argus.sense import Sensor
from argus.spec import View, load_spec
from tests.sense.test_web_sensor import make_web_repo
from tests.support.fixtures import static_server

pytestmark = pytest.mark.browser

STYLE = "body { font: 16px/1.4 sans-serif; margin: 16px; color: #111; background: #fff; }"


def page(body: str, css: str = "") -> str:
    return (
        f"<!doctype html><html lang='en'><head><title>fixture</title>"
        f"<style>{STYLE}{css}</style></head><body>{body}</body></html>"
    )


# --- axe: best-practice rules that are defects in any product UI ---------------------------
AXE_PAGES = {
    # A card whose heading has no accessible name: a screen-reader user hears "heading level 2".
    "empty_heading": page("<div class='card'><h2></h2><p>Three habits due today.</p></div>"),
    # The same component, named: no landmark, no h1, and nothing fails.
    "component_ok": page("<div class='card'><h2>Today</h2><p>Three habits due today.</p></div>"),
}


@dataclass(frozen=True)
class Sensed:
    dir: Path

    def json(self, name: str) -> Any:
        return json.loads((self.dir / name).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def sensed(tmp_path_factory: pytest.TempPathFactory, warm_sensor: Sensor) -> dict[str, Sensed]:
    pages = {**AXE_PAGES}
    tmp = tmp_path_factory.mktemp("wcag")
    root = make_web_repo(
        tmp,
        {f"{name}.html": html for name, html in pages.items()},
        {name.replace("_", "-"): f"/{name}.html" for name in pages},
    )
    spec = load_spec(root / "argus/specs/demo/spec.json")
    out: dict[str, Sensed] = {}
    with static_server(root) as base_url:
        for name in pages:
            where = tmp / "out" / name
            view = View("demo", name.replace("_", "-"), "default", "light")
            result = warm_sensor.sense(spec, view, where, base_url=base_url)
            assert result.ok, (name, result.error)
            out[name] = Sensed(where)
    return out


def axe_outcome(sensed: Sensed) -> GateOutcome:
    settings = AxeConfig()
    return check_axe(
        sensed.json("axe.json"),
        tags=settings.tags,
        impact_floor=settings.impact_floor,
        disable_rules=settings.disable_rules,
        best_practice_rules=settings.best_practice_rules,
    )


def contrast_outcome(sensed: Sensed) -> GateOutcome:
    probe = parse_probe(sensed.json("probe.json"))
    return check_rendered_contrast(probe, sensed.dir / "render.png")


def test_an_empty_heading_fails_the_axe_gate(sensed: dict[str, Sensed]) -> None:
    outcome = axe_outcome(sensed["empty_heading"])
    assert outcome.status is GateStatus.FAIL
    assert {f.property for f in outcome.findings} == {"axe:empty-heading"}


def test_a_component_view_is_not_asked_for_page_structure(sensed: dict[str, Sensed]) -> None:
    outcome = axe_outcome(sensed["component_ok"])
    assert outcome.status is GateStatus.PASS, outcome.findings
    assert outcome.data["below_floor"] == {}
