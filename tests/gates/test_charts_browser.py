"""Charts sensed in a real Chromium: the probe's reading of inline SVG (marks, text, charts,
legends) and of declared canvas charts, and what token_compliance and rendered_contrast make of
it. The pages are our own markup: a bar chart in light and dark, a canvas chart, a legend that
names the wrong colour.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from argus.color import parse_color
from argus.evidence.graphics import parse_graphics
from argus.evidence.probe import parse_probe
from argus.gates.base import GateOutcome, GateStatus
from argus.gates.render_pixels import RenderImage
from argus.gates.rendered_contrast import check_rendered_contrast
from argus.gates.token_compliance import check_token_compliance
from argus.sense import Sensor
from argus.spec import View, load_spec
from argus.tokens import Tokens, load_tokens
from tests.sense.test_web_sensor import make_web_repo
from tests.support.fixtures import static_server

pytestmark = pytest.mark.browser

PALETTE = {
    "ink": "#111114",
    "paper": "#ffffff",
    "night": "#121212",
    "muted": "#5c5c66",
    "chart-1": "#2f5bd3",
    "chart-2": "#c2410c",
    "moon": "#e8e8ee",
    "grid": "#f4f4f6",
}


def page(body: str, css: str = "") -> str:
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>chart</title>"
        "<style>body { font: 16px/1.4 sans-serif; margin: 16px; color: #111114;"
        f" background: #ffffff; }} {css}</style></head><body>{body}</body></html>"
    )


def bar_chart(bar: str = "#2f5bd3", label: str = "#5c5c66", swatch: str = "#2f5bd3") -> str:
    """A bar chart of two series with gridlines (decorative), axis labels and an HTML legend."""
    return f"""<figure>
<svg id="revenue" role="img" aria-label="Revenue by month" width="320" height="200"
     viewBox="0 0 320 200">
  <defs><linearGradient id="fade"><stop offset="0" stop-color="#2f5bd3"/>
    <stop offset="1" stop-color="#ffffff"/></linearGradient></defs>
  <g aria-hidden="true" class="grid">
    <line x1="40" y1="50" x2="300" y2="50" stroke="#f4f4f6"/>
    <line x1="40" y1="100" x2="300" y2="100" stroke="#f4f4f6"/>
  </g>
  <g data-series="revenue">
    <rect id="bar-jan" x="50" y="60" width="30" height="110" fill="{bar}"/>
    <rect x="110" y="80" width="30" height="90" fill="#2f5bd3"/>
  </g>
  <g data-series="costs">
    <rect x="170" y="120" width="30" height="50" fill="#c2410c"/>
  </g>
  <rect id="fancy" x="230" y="100" width="30" height="70" fill="url(#fade)"/>
  <g class="axis" font-size="14">
    <text id="jan" x="55" y="190" fill="{label}">Jan</text>
    <text id="feb" x="115" y="190" fill="{label}">Feb</text>
  </g>
</svg>
<ul data-argus-legend="revenue" class="legend">
  <li data-series="revenue"><span class="swatch" style="background: {swatch}"></span>Revenue</li>
  <li data-series="costs"><span class="swatch" style="background: #c2410c"></span>Costs</li>
</ul>
</figure>"""


LEGEND_CSS = (
    ".legend { list-style: none; padding: 0; } .swatch { display: inline-block;"
    " width: 12px; height: 12px; margin-right: 8px; }"
)
DARK_CSS = "body { background: #121212; color: #e8e8ee; }"

CANVAS = """<canvas id="sales" role="img" aria-label="Sales by region" width="200" height="100">
</canvas>
<script>
const c = document.getElementById("sales").getContext("2d");
c.fillStyle = "#ffffff"; c.fillRect(0, 0, 200, 100);
c.fillStyle = "#2f5bd3"; c.fillRect(10, 10, 80, 80);
c.fillStyle = "%s"; c.fillRect(110, 10, 80, 80);
</script>"""

# The two WCAG 1.4.3 exemptions, and their look-alikes that are still text.
EXEMPT = """<button id="close" aria-label="Close">X</button>
<button id="save" aria-label="Save draft">Save</button>
<span id="ghost" aria-hidden="true">Loading</span>
<span id="shown">Loading</span>
<p>Orders</p>
<svg width="16" height="16" role="img" aria-label="Done"><path id="tick" d="M2 8 L6 12 L14 4"
  fill="none" stroke="currentColor"/></svg>
<canvas width="20" height="20"></canvas>"""
EXEMPT_CSS = (
    "button { color: #808080; background: #ffffff; border: 1px solid #111114; }"
    " #ghost, #shown { color: #ffffff; } svg { color: #2f5bd3; }"
)

PAGES = {
    "chart": page(bar_chart(), LEGEND_CSS),
    "chart_off_palette": page(bar_chart(bar="#3d6be0"), LEGEND_CSS),
    "chart_dark": page(bar_chart(label="#2a2a2e", swatch="#2f5bd3"), LEGEND_CSS + DARK_CSS),
    "chart_legend_wrong": page(bar_chart(swatch="#c2410c"), LEGEND_CSS),
    "canvas_ok": page(CANVAS % "#c2410c"),
    "canvas_off": page(CANVAS % "#7a1fa2"),
    "exempt": page(EXEMPT, EXEMPT_CSS),
}


@dataclass(frozen=True)
class Sensed:
    dir: Path

    def json(self, name: str) -> Any:
        return json.loads((self.dir / name).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def sensed(tmp_path_factory: pytest.TempPathFactory, gates_sensor: Sensor) -> dict[str, Sensed]:
    tmp = tmp_path_factory.mktemp("charts")
    root = make_web_repo(
        tmp,
        {f"{name}.html": html for name, html in PAGES.items()},
        {name.replace("_", "-"): f"/{name}.html" for name in PAGES},
    )
    spec = load_spec(root / "argus/specs/demo/spec.json")
    out: dict[str, Sensed] = {}
    with static_server(root) as base_url:
        for name in PAGES:
            where = tmp / "out" / name
            view = View("demo", name.replace("_", "-"), "default", "light")
            result = gates_sensor.sense(spec, view, where, base_url=base_url)
            assert result.ok, (name, result.error)
            out[name] = Sensed(where)
    return out


@pytest.fixture(scope="module")
def palette(tmp_path_factory: pytest.TempPathFactory) -> Tokens:
    path = tmp_path_factory.mktemp("tokens") / "tokens.json"
    path.write_text(json.dumps({"colors": PALETTE}))
    return load_tokens(path)


def tokens_outcome(sensed: Sensed, palette: Tokens, **options: Any) -> GateOutcome:
    raw = sensed.json("probe.json")
    probe = parse_probe(raw)
    return check_token_compliance(
        probe,
        palette,
        "light",
        properties=("color", "background-color", "border-color"),
        graphics=parse_graphics(raw, probe),
        load_render=lambda: RenderImage.load(sensed.dir / "render.png", probe.viewport_width),
        **options,
    )


def test_the_probe_reads_svg_marks_text_charts_and_legends(sensed: dict[str, Sensed]) -> None:
    raw = sensed["chart"].json("probe.json")
    probe = parse_probe(raw)
    graphics = parse_graphics(raw, probe)
    by_id = {m.id: m for m in graphics.marks if m.id}
    bar = by_id["bar-jan"]
    assert bar.series == "revenue" and bar.fill.color == parse_color("#2f5bd3")
    assert bar.box.width == 30 and bar.box.height == 110
    assert by_id["fancy"].fill.unmeasured  # a gradient
    assert by_id["jan"].text == "Jan" and by_id["jan"].fill.color == parse_color("#5c5c66")
    assert by_id["jan"].font_size == 14
    grid = [m for m in graphics.marks if m.tag == "line"]
    assert len(grid) == 2 and all(m.decorative == "aria-hidden" for m in grid)
    (chart,) = graphics.charts
    assert chart.name == "Revenue by month" and chart.role == "img"
    assert chart.legend is not None
    items = {i.series: i for i in chart.legend.items}
    assert items["revenue"].label == "Revenue"
    swatch = items["revenue"].swatch
    assert swatch is not None and swatch.color.color == parse_color("#2f5bd3")


def contrast_outcome(sensed: Sensed) -> GateOutcome:
    raw = sensed.json("probe.json")
    probe = parse_probe(raw)
    return check_rendered_contrast(
        probe, sensed.dir / "render.png", "AA", parse_graphics(raw, probe)
    )


def test_dark_mode_axis_labels_fail_rendered_contrast(sensed: dict[str, Sensed]) -> None:
    outcome = contrast_outcome(sensed["chart_dark"])
    assert outcome.status is GateStatus.FAIL
    failing = {f.element: f for f in outcome.findings}
    assert set(failing) == {"#jan", "#feb"}
    assert failing["#jan"].property == "contrast (svg text)"
    assert float(failing["#jan"].value.split(":")[0]) < 1.5
    light = contrast_outcome(sensed["chart"])
    assert light.status is GateStatus.PASS, light.findings
    # 2 axis labels, 3 bars, 2 legend swatches (gridlines are decorative; the gradient bar
    # names no series: no colour of its own to measure).
    counts = (light.data["svg_text"], light.data["chart_marks"], light.data["legend_swatches"])
    assert counts == (2, 3, 2)


def test_the_two_exemptions_hold_in_a_real_page(sensed: dict[str, Sensed]) -> None:
    raw = sensed["exempt"].json("probe.json")
    probe = parse_probe(raw)
    by_id = {e.id: e for e in probe.elements if e.id}
    assert by_id["close"].control is not None and by_id["close"].control.name == "Close"
    outcome = contrast_outcome(sensed["exempt"])
    # "X" is a glyph named Close (3.95:1 meets 3:1); "Save" is the name's own text (fails
    # 4.5:1); the aria-hidden white-on-white text is nobody's; the same text shown to
    # assistive technology is measured and fails.
    assert {f.element for f in outcome.findings} == {"#save", "#shown"}
    assert outcome.data["unseen"] == 1
    # currentColor arrives as the colour it stands for.
    (tick,) = [m for m in parse_graphics(raw, probe).marks if m.id == "tick"]
    assert tick.stroke.color == parse_color("#2f5bd3") and tick.fill.color is None
    # A canvas the page does not declare as a chart is counted, not read.
    graphics = parse_graphics(raw, probe)
    assert graphics.canvases == () and graphics.canvases_undeclared == 1


def test_an_on_palette_chart_passes_token_compliance(
    sensed: dict[str, Sensed], palette: Tokens
) -> None:
    outcome = tokens_outcome(sensed["chart"], palette)
    assert outcome.status is GateStatus.PASS, outcome.findings
    assert outcome.data["charts"]["marks_checked"] == 7  # 3 bars, 2 gridlines, 2 labels
    # The gradient bar is said, not passed in silence.
    assert outcome.data["charts"]["unmeasured"] == 1
    assert "#fancy fill" in outcome.summary


def test_an_off_palette_svg_bar_fails_naming_the_bar(
    sensed: dict[str, Sensed], palette: Tokens
) -> None:
    outcome = tokens_outcome(sensed["chart_off_palette"], palette)
    assert outcome.status is GateStatus.FAIL
    (finding,) = outcome.findings
    assert finding.element == "#bar-jan" and finding.property == "fill"
    assert finding.value == "#3d6be0" and "chart-1" in finding.expected
    # Held to its series' token, the same bar names the token the spec maps it to.
    mapped = tokens_outcome(sensed["chart_off_palette"], palette, series={"revenue": "chart-1"})
    (finding,) = [f for f in mapped.findings if f.property == "fill"]
    assert "series 'revenue'" in finding.message


def test_a_legend_swatch_that_names_the_wrong_colour_fails(
    sensed: dict[str, Sensed], palette: Tokens
) -> None:
    outcome = tokens_outcome(sensed["chart_legend_wrong"], palette)
    assert outcome.status is GateStatus.FAIL
    (finding,) = outcome.findings
    assert finding.property == "legend swatch" and finding.value == "#c2410c"
    assert "revenue" in finding.expected


def test_canvas_chart_colours_are_read_from_the_render(
    sensed: dict[str, Sensed], palette: Tokens
) -> None:
    ok = tokens_outcome(sensed["canvas_ok"], palette)
    assert ok.status is GateStatus.PASS, ok.findings
    assert ok.data["charts"]["canvas_colours"] == 3  # paper, chart-1, chart-2
    off = tokens_outcome(sensed["canvas_off"], palette)
    assert off.status is GateStatus.FAIL
    (finding,) = off.findings
    assert finding.element == "#sales" and finding.property == "canvas colour"
    assert finding.value == "#7a1fa2"
