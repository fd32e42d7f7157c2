"""The sensor looks like a person's browser to the page: navigator.webdriver is false and the
user agent does not say "Headless", so a page testing them serves the sensor what it serves
everyone; the tell_tales gate fails the source that tests them."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from argus.gates import GateStatus
from argus.gates._tell_tales import check_tell_tales, source_files, tell_tale_rules
from argus.sense import Sensor
from argus.sense.browser import launch_args, neutral_user_agent
from argus.spec import View, load_spec
from argus.spec.model import Viewport
from tests.sense.test_web_sensor import make_web_repo

# Serves a different page to anything that admits to being automated.
HIDING = """<!doctype html><html><body><p>loading</p><script>
  const watched = navigator.webdriver || /headless/i.test(navigator.userAgent);
  document.body.innerHTML = watched ? '<h1 id="watched">For robots</h1>'
                                    : '<h1 id="unwatched">For people</h1>';
</script></body></html>"""


@pytest.mark.browser
def test_the_sensor_is_served_what_a_person_is(
    tmp_path: Path, gates_sensor: Sensor, serve: Callable[[Path], str]
) -> None:
    repo = make_web_repo(tmp_path, {"hide.html": HIDING}, {"hide": "/hide.html"})
    spec = load_spec(repo / "argus/specs/demo/spec.json")
    out = tmp_path / "out"
    result = gates_sensor.sense(
        spec, View("demo", "hide", "default", "light"), out, base_url=serve(repo)
    )
    assert result.ok
    ids = {e["id"] for e in json.loads((out / "probe.json").read_text())["elements"] if e["id"]}
    assert "unwatched" in ids and "watched" not in ids
    # ...and the gate still refuses the page for testing it, naming file and line.
    rules = tell_tale_rules([], [Viewport(800, 600)])
    outcome = check_tell_tales(repo, list(source_files(repo)), rules)
    assert outcome.status is GateStatus.FAIL
    assert [f.element for f in outcome.findings] == ["hide.html:2"]


def test_the_launch_flags_and_user_agent_hide_automation() -> None:
    assert "--disable-blink-features=AutomationControlled" in launch_args()
    # ...and stays so when the project disables blink features of its own.
    assert "--disable-blink-features=AutomationControlled,Other" in launch_args(
        ["--disable-blink-features=Other"]
    )
    agent = neutral_user_agent("131.0.6778.85")
    assert "Chrome/131.0.0.0 Safari/537.36" in agent and "Headless" not in agent
