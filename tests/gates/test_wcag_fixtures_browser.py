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
from argus.evidence.probe import parse_probe
from argus.gates.axe import check_axe
from argus.gates.base import GateOutcome, GateStatus
from argus.gates.rendered_contrast import check_rendered_contrast
from argus.sense import Sensor
from argus.spec import View, load_spec
from tests.sense.test_web_sensor import make_web_repo
from tests.support.fixtures import static_server

pytestmark = pytest.mark.browser

STYLE = "body { font: 16px/1.4 sans-serif; margin: 16px; color: #111; background: #fff; }"


def page(body: str, css: str = "") -> str:
    return (
        f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>fixture</title>"
        f"<style>{STYLE}{css}</style></head><body>{body}</body></html>"
    )


# --- axe: best-practice rules that are defects in any product UI ---------------------------
AXE_PAGES = {
    # A card whose heading has no accessible name: a screen-reader user hears "heading level 2".
    "empty_heading": page("<div class='card'><h2></h2><p>Three habits due today.</p></div>"),
    # The same component, named: no landmark, no h1, and nothing fails.
    "component_ok": page("<div class='card'><h2>Today</h2><p>Three habits due today.</p></div>"),
}


# --- rendered_contrast: WCAG 1.4.3 applicability and measurement ---------------------------
GREY = "#999"  # 2.85:1 on white: fails both 4.5:1 and 3:1
LARGE_GREY = "#949494"  # 3.03:1 on white: passes 3:1 only
CONTRAST_PAGES = {
    # Inactive components: disabled controls, their labels, a disabled fieldset, aria-disabled.
    "inactive": page(
        """<p id="ok">Settings</p>
<button id="b" disabled>Save</button>
<label id="l1" for="name">Name</label><input id="name" value="Ada" disabled>
<fieldset disabled><legend id="lg">Reminders</legend><p id="fp">Daily at nine</p></fieldset>
<span role="button" id="ab" aria-disabled="true">Archive</span>
<span id="lb">Notes</span><div role="textbox" aria-labelledby="lb" aria-disabled="true"></div>
<label id="l2"><input type="checkbox" disabled> Remind me</label>""",
        f"button, input, label, legend, span, #fp {{ color: {GREY}; }}"
        " input, button { background: #fff; border: 1px solid #ccc; }",
    ),
    # The same controls, enabled: the grey text is below 4.5:1 and must fail.
    "active": page(
        """<p id="ok">Settings</p><button id="b">Save</button>
<label id="l1" for="name">Name</label><input id="name" value="Ada">""",
        f"button, input, label {{ color: {GREY}; background: #fff; }}",
    ),
    # A dark halo around light text raises its contrast; a grey one around dark text lowers it.
    "halo": page(
        f"""<p id="glow" style="color: {GREY}; text-shadow: 0 0 3px #000, 0 0 3px #000">Due</p>
<p id="outline" style="color: #fff; text-shadow: -1px -1px 0 #000, 1px -1px 0 #000,
   -1px 1px 0 #000, 1px 1px 0 #000">Done</p>
<p id="drop" style="color: #333; text-shadow: 6px 6px 0 #eee">Shadowed far off</p>
<p id="grey" style="color: #333; text-shadow: 0 0 4px #777">Blurred</p>
<p id="plain" style="color: {GREY}">Plain</p>""",
    ),
    # Text nobody can see, and a decorative glyph hidden from assistive technology.
    "hidden": page(
        """<p id="ok">Visible words</p>
<p class="x" style="position: absolute; clip-path: inset(50%); width: 200px">clipped</p>
<p class="x" style="position: absolute; left: -9999px">off screen</p>
<p class="x" style="text-indent: -9999px; overflow: hidden">indented away</p>
<div style="height: 0; overflow: hidden"><p class="x">collapsed</p></div>
<p class="x" style="opacity: 0">transparent</p>
<p><span class="x" aria-hidden="true">★</span> <span id="w">Starred</span></p>""",
        ".x { color: #ddd; }",
    ),
    # Text inside an open shadow root is text like any other.
    "shadow": page(
        """<habit-card></habit-card><script>
customElements.define("habit-card", class extends HTMLElement {
  constructor() { super(); this.attachShadow({ mode: "open" }).innerHTML =
    '<style>p { color: #bbb; }</style><p id="inner">Read 10 pages</p>'; }
});</script>"""
    ),
    "shadow_ok": page(
        """<habit-card></habit-card><script>
customElements.define("habit-card", class extends HTMLElement {
  constructor() { super(); this.attachShadow({ mode: "open" }).innerHTML =
    '<style>p { color: #222; }</style><p id="inner">Read 10 pages</p>'; }
});</script>"""
    ),
    # The text form fields draw themselves: value, placeholder, a submit button's label.
    "fields": page(
        """<input id="v" value="Walk">
<input id="ph" placeholder="Search habits">
<textarea id="ta">Notes</textarea>
<select id="s"><option>Daily</option></select>
<input id="sub" type="submit">""",
        f"input, textarea, select {{ color: {GREY}; background: #fff; border: 1px solid #888; }}"
        f" #ph::placeholder {{ color: #bbb; }}",
    ),
    "fields_ok": page(
        """<input id="v" value="Walk"><input id="ph" placeholder="Search habits">
<textarea id="ta">Notes</textarea><select id="s"><option>Daily</option></select>
<input id="sub" type="submit">""",
        "input, textarea, select { color: #222; background: #fff; border: 1px solid #888; }"
        " #ph::placeholder { color: #767676; }",
    ),
    # Large text (24px, or 18.66px bold) needs 3:1; smaller text 4.5:1.
    "large": page(
        """<p id="l24" style="font-size: 24px">Large</p>
<p id="lbold" style="font-size: 18.67px; font-weight: 700">Large bold</p>
<p id="n18b" style="font-size: 18px; font-weight: 700">Not large</p>
<p id="n23" style="font-size: 23px">Not large either</p>""",
        f"p {{ color: {LARGE_GREY}; margin: 4px 0; }}",
    ),
}


@dataclass(frozen=True)
class Sensed:
    dir: Path

    def json(self, name: str) -> Any:
        return json.loads((self.dir / name).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def sensed(tmp_path_factory: pytest.TempPathFactory, gates_sensor: Sensor) -> dict[str, Sensed]:
    pages = {**AXE_PAGES, **CONTRAST_PAGES}
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
            result = gates_sensor.sense(spec, view, where, base_url=base_url)
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


def failing(outcome: GateOutcome) -> set[str]:
    return {f.element for f in outcome.findings}


def test_inactive_components_and_their_labels_are_not_measured(
    sensed: dict[str, Sensed],
) -> None:
    outcome = contrast_outcome(sensed["inactive"])
    assert outcome.status is GateStatus.PASS, outcome.findings
    # button, input value, two labels, legend, fieldset text, aria-disabled, aria-labelledby
    assert outcome.data["inactive"] == 8
    active = contrast_outcome(sensed["active"])
    assert active.status is GateStatus.FAIL
    assert failing(active) == {"#b", "#l1", "#name"}


def test_a_text_shadow_halo_counts_both_ways(sensed: dict[str, Sensed]) -> None:
    outcome = contrast_outcome(sensed["halo"])
    assert outcome.status is GateStatus.FAIL
    assert failing(outcome) == {"#grey", "#plain"}


def test_hidden_text_and_decorative_glyphs_are_not_measured(sensed: dict[str, Sensed]) -> None:
    outcome = contrast_outcome(sensed["hidden"])
    assert outcome.status is GateStatus.PASS, outcome.findings
    assert outcome.data["checked"] == 2  # "Visible words" and "Starred"
    assert outcome.data["decorative"] == 1
    assert outcome.data["hidden"] + outcome.data["invisible"] >= 4


def test_text_in_an_open_shadow_root_is_measured(sensed: dict[str, Sensed]) -> None:
    outcome = contrast_outcome(sensed["shadow"])
    assert outcome.status is GateStatus.FAIL
    assert failing(outcome) == {"#inner"}
    assert contrast_outcome(sensed["shadow_ok"]).status is GateStatus.PASS


def test_form_fields_own_text_is_measured(sensed: dict[str, Sensed]) -> None:
    outcome = contrast_outcome(sensed["fields"])
    assert outcome.status is GateStatus.FAIL
    found = {(f.element, f.property) for f in outcome.findings}
    assert found == {
        ("#v", "contrast (value)"),
        ("#ph", "contrast (placeholder)"),
        ("#ta", "contrast (value)"),
        ("#s", "contrast (value)"),
        ("#sub", "contrast (label)"),
    }
    ok = contrast_outcome(sensed["fields_ok"])
    assert ok.status is GateStatus.PASS, ok.findings
    assert ok.data["fields"] == 5


def test_large_text_uses_3_to_1_and_the_finding_names_the_threshold(
    sensed: dict[str, Sensed],
) -> None:
    outcome = contrast_outcome(sensed["large"])
    assert outcome.status is GateStatus.FAIL
    assert {f.element: f.expected for f in outcome.findings} == {
        "#n18b": ">= 4.5:1",
        "#n23": ">= 4.5:1",
    }
    assert all("normal text" in f.message for f in outcome.findings)
