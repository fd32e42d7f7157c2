"""A page that replaces the JavaScript the probe would call cannot change what probe.json
says: the probe reads the DOM from an isolated world (argus.sense.world), as axe does."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from argus.sense import Sensor
from argus.spec import View, load_spec
from tests.sense.test_web_sensor import make_web_repo

pytestmark = pytest.mark.browser

# Pale text (#cccccc on white fails WCAG), and a script that lies about every style, box and
# the JSON it would be serialised with, and breaks the array methods the probe uses.
PAGE = """<!doctype html><html><head><script>
  const fake = { color: "rgb(0, 0, 0)", getPropertyValue: () => "rgb(0, 0, 0)" };
  window.getComputedStyle = () => new Proxy({}, { get: (_, key) => fake[key] ?? "rgb(0, 0, 0)" });
  Element.prototype.getBoundingClientRect = () => new DOMRect(0, 0, 0, 0);
  Element.prototype.getClientRects = () => [];
  Range.prototype.getClientRects = () => [];
  JSON.stringify = () => '{"elements": [], "fonts": {"picked": [], "webfonts": []}}';
  Array.prototype.push = function () { throw new Error("no"); };
  Object.defineProperty(Document.prototype, "activeElement", { get: () => null });
</script></head>
<body style="background:#fff"><h1 id="pale" style="color:#ccc">Pale heading</h1></body></html>"""


def test_the_probe_reports_the_render_not_the_pages_script(
    tmp_path: Path, gates_sensor: Sensor, serve: Callable[[Path], str]
) -> None:
    repo = make_web_repo(tmp_path, {"liar.html": PAGE}, {"liar": "/liar.html"})
    spec = load_spec(repo / "argus/specs/demo/spec.json")
    out = tmp_path / "out"
    view = View("demo", "liar", "default", "light")
    result = gates_sensor.sense(spec, view, out, base_url=serve(repo))
    assert result.ok
    probe = json.loads((out / "probe.json").read_text())
    (heading,) = [e for e in probe["elements"] if e["id"] == "pale"]
    assert heading["style"]["color"] == "rgb(204, 204, 204)"
    assert heading["visible"] is True
    assert heading["box"]["width"] > 0 and heading["box"]["height"] > 0
    assert heading["text_rects"]


# The real order is first -> second; the page says a third element always holds the focus.
FOCUS_LIAR = """<!doctype html><html><head><script>
  Object.defineProperty(Document.prototype, "activeElement", {
    get: () => document.getElementById("claimed"),
  });
</script></head><body>
<input id="first" autofocus aria-label="First"><button id="second">Second</button>
<button id="claimed">Claimed</button></body></html>"""


def test_the_focus_walk_reads_the_real_focus(
    tmp_path: Path, gates_sensor: Sensor, serve: Callable[[Path], str]
) -> None:
    repo = make_web_repo(tmp_path, {"focus.html": FOCUS_LIAR}, {"focus": "/focus.html"})
    spec_path = repo / "argus/specs/demo/spec.json"
    raw = json.loads(spec_path.read_text())
    raw["targets"][0]["expectations"] = {"default": {"focus_order": ["first", "second"]}}
    spec_path.write_text(json.dumps(raw))
    out = tmp_path / "out"
    view = View("demo", "focus", "default", "light")
    result = gates_sensor.sense(load_spec(spec_path), view, out, base_url=serve(repo))
    assert result.ok
    probe = json.loads((out / "probe.json").read_text())
    assert [stop["id"] for stop in probe["focus_order"]] == ["first", "second"]
