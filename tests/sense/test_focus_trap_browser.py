"""The focus-trap walk: from the spec's ``from`` control, Tab presses recorded with whether the
focus is still inside the region; a region whose script sends Tab back to its start is a trap."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from argus.sense import Sensor
from argus.spec import View, load_spec
from tests.sense.test_web_sensor import make_web_repo

pytestmark = pytest.mark.browser

PAGE = """<!doctype html><html><body>
<section data-testid="wizard" id="wizard">
  <input id="name" aria-label="Name"><button id="next">Next</button>
</section>
<button id="after">After</button>
<script>
  if (location.search.includes("trap")) {
    document.getElementById("next").addEventListener("keydown", (event) => {
      if (event.key === "Tab") { event.preventDefault(); document.getElementById("name").focus(); }
    });
  }
</script></body></html>"""


@pytest.mark.parametrize(
    ("route", "leaves"), [("/wizard.html", True), ("/wizard.html?trap", False)]
)
def test_the_walk_records_whether_tab_leaves_the_region(
    tmp_path: Path,
    gates_sensor: Sensor,
    serve: Callable[[Path], str],
    route: str,
    leaves: bool,
) -> None:
    repo = make_web_repo(tmp_path, {"wizard.html": PAGE}, {"wizard": route})
    spec_path = repo / "argus/specs/demo/spec.json"
    raw = json.loads(spec_path.read_text())
    trap = {"region": "wizard", "traps": False, "from": "name", "presses": 3}
    raw["targets"][0]["expectations"] = {"default": {"focus_trap": trap}}
    spec_path.write_text(json.dumps(raw))
    out = tmp_path / "out"
    result = gates_sensor.sense(
        load_spec(spec_path), View("demo", "wizard", "default", "light"), out, base_url=serve(repo)
    )
    assert result.ok, result.error
    walk = json.loads((out / "probe.json").read_text())["focus_trap"]
    assert walk["region"] == "wizard" and walk["from"] == "name"
    ids = [stop["id"] if stop else None for stop in walk["stops"]]
    inside = [bool(stop and stop["inside"]) for stop in walk["stops"]]
    if leaves:
        assert ids[:3] == ["name", "next", "after"] and inside[:3] == [True, True, False]
    else:
        assert ids == ["name", "next", "name", "next"] and all(inside)
