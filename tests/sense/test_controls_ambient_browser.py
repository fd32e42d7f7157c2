"""The dead-control probe and the traffic a page makes of its own, in a real Chromium: a poll
on a timer (fetch, with a counter in its body) does not make a dead button look live, nor does
a page-wide click tracker (a beacon, a fetch) that a click on the body sets off too; a control
that asks for anything beyond them still counts, even a request to the poll's own path with
another body (another Dash callback)."""

from __future__ import annotations

import http.server
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

from argus.sense import Sensor
from argus.spec import View, load_spec
from tests.sense.test_web_sensor import make_web_repo
from tests.support.fixtures import static_server

pytestmark = pytest.mark.browser

# Every 100 ms the page POSTs its interval to the update endpoint, as Dash's dcc.Interval does
# (a counter in the body). "dead" changes nothing, but keeps the page busy for longer than that,
# so a poll is always due while it is watched; "live" changes the DOM; "callback" POSTs to the
# same endpoint, naming another input; "status" asks for a path of its own.
POLL = """<!doctype html><html><head><meta charset="utf-8"><title>p</title></head><body>
<button type="button" data-testid="dead"
  onclick="for (const end = Date.now() + 250; Date.now() < end;);">Dead</button>
<button type="button" data-testid="live">Live</button>
<button type="button" data-testid="callback">Callback</button>
<button type="button" data-testid="status">Status</button>
<button type="button" data-testid="idle">Idle</button>
<p id="out"></p>
<script>
  const post = (body) => fetch("_dash-update-component", { method: "POST", body }).catch(() => {});
  let n = 0;
  setInterval(() => post(JSON.stringify({ inputs: [{ id: "interval", value: n++ }] })), 100);
  const on = (id, f) =>
    document.querySelector(`[data-testid="${id}"]`).addEventListener("click", f);
  on("live", () => { document.getElementById("out").textContent = "done"; });
  on("callback", () => post(JSON.stringify({ inputs: [{ id: "save", value: 1 }] })));
  on("status", () => fetch("api/status").catch(() => {}));
</script></body></html>"""

# A click tracker on the document: every click (a control's, or one on the body) sends a beacon
# and a fetch with the time in it, and leaves a pixel in the body. "dead" does nothing more;
# "live" changes the DOM elsewhere; "archive" asks for its own request; "note" sends its own
# beacon. A tracker that sends something random on each click is the page's to answer for.
TRACKED = """<!doctype html><html><head><meta charset="utf-8"><title>t</title></head><body>
<button type="button" data-testid="dead">Dead</button>
<button type="button" data-testid="live">Live</button>
<button type="button" data-testid="archive">Archive</button>
<button type="button" data-testid="note">Note</button>
<p id="out"></p>
<script>
  document.addEventListener("click", () => {
    navigator.sendBeacon("collect", JSON.stringify({ event: "click", t: Date.now() }));
    fetch("track", { method: "POST", body: `t=${Date.now()}` }).catch(() => {});
    const pixel = document.createElement("img");
    pixel.width = pixel.height = 1;
    document.body.append(pixel);
  });
  const on = (id, f) =>
    document.querySelector(`[data-testid="${id}"]`).addEventListener("click", f);
  on("live", () => { document.getElementById("out").textContent = "done"; });
  on("archive", () => fetch("api/archive", { method: "DELETE" }).catch(() => {}));
  on("note", () => navigator.sendBeacon("collect", JSON.stringify({ event: "note" })));
</script></body></html>"""


# "sync" starts telling the server, on a timer with a counter, and shows nothing: what it sends
# after its watch is its own doing, never learned as the page's; "dead" does nothing.
SYNC = """<!doctype html><html><head><meta charset="utf-8"><title>s</title></head><body>
<button type="button" data-testid="sync" onclick="let n = 0;
  setInterval(() => fetch('api/sync', { method: 'POST', body: `n=${n++}` }).catch(() => {}), 5)"
  >Sync</button>
<button type="button" data-testid="dead">Dead</button>
</body></html>"""


# The page fetches its data once loaded (as a single-page app does, after its load event) and
# shows it; "refresh" asks for the same data again and, when that fails, shows nothing new;
# "dead" does nothing. The data the view fetched to show itself is not the page's own doing.
REFRESH = """<!doctype html><html><head><meta charset="utf-8"><title>r</title></head><body>
<button type="button" data-testid="refresh">Refresh</button>
<button type="button" data-testid="dead">Dead</button>
<p id="out"></p>
<script>
  const load = () => fetch("api/data").then((r) => r.text())
    .then((t) => { document.getElementById("out").textContent = t; }, () => {});
  window.addEventListener("load", () => setTimeout(load, 0));
  document.querySelector('[data-testid="refresh"]').addEventListener("click", () => {
    fetch("api/data").catch(() => {});
  });
</script></body></html>"""

# A slower poll (every 300 ms, a counter in its body) and a "dead" button that keeps the page
# busy for longer, so the poll is due while it is watched; "live" changes the DOM. The probe's
# copies rest too briefly between activations to see the poll twice: it learns the page's own
# polls on a copy at rest before it judges.
SLOW_POLL = """<!doctype html><html><head><meta charset="utf-8"><title>s</title></head><body>
<button type="button" data-testid="dead"
  onclick="for (const end = Date.now() + 400; Date.now() < end;);">Dead</button>
<button type="button" data-testid="live">Live</button>
<p id="out"></p>
<script>
  let n = 0;
  setInterval(() => fetch("poll", { method: "POST", body: `tick=${n++}` }).catch(() => {}), 300);
  document.querySelector('[data-testid="live"]').addEventListener("click", () => {
    document.getElementById("out").textContent = "done";
  });
</script></body></html>"""


class _Recorder(http.server.SimpleHTTPRequestHandler):
    """Serves files and remembers every POST and DELETE that reached it."""

    seen: ClassVar[list[str]] = []

    def log_message(self, format: str, *args: object) -> None:
        pass

    def _note(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        type(self).seen.append(f"{self.command} {self.path}")
        self.send_response(204)
        self.end_headers()

    do_POST = do_DELETE = _note


@pytest.fixture
def recorder() -> Iterator[type[_Recorder]]:
    _Recorder.seen = []
    yield _Recorder


def _sense(tmp_path: Path, warm_sensor: Sensor, target: str) -> dict[str, Any]:
    root = make_web_repo(
        tmp_path,
        {
            "poll.html": POLL,
            "slow-poll.html": SLOW_POLL,
            "tracked.html": TRACKED,
            "sync.html": SYNC,
            "refresh.html": REFRESH,
        },
        {target: f"/{target}.html"},
    )
    (root / "api").mkdir()
    (root / "api" / "data").write_text("42 habits")
    spec = load_spec(root / "argus/specs/demo/spec.json")
    out = tmp_path / "out"
    with static_server(root, _Recorder) as base_url:
        result = warm_sensor.sense(
            spec, View("demo", target, "default", "light"), out, base_url=base_url
        )
    assert result.ok, result.error
    controls: dict[str, Any] = json.loads((out / "controls.json").read_text())
    return controls


def _by_id(controls: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["testid"]: c for c in controls["controls"]}


def test_a_poll_keeps_a_dead_button_dead_and_another_body_to_its_path_counts(
    tmp_path: Path, warm_sensor: Sensor, recorder: type[_Recorder]
) -> None:
    controls = _sense(tmp_path, warm_sensor, "poll")
    by_id = _by_id(controls)
    assert {k: c["outcome"] for k, c in by_id.items()} == {
        "dead": "dead",
        "live": "live",
        "callback": "live",
        "status": "live",
        "idle": "dead",
    }, controls
    assert by_id["live"]["effects"] == ["dom"]
    assert by_id["callback"]["effects"] == ["request"]
    # Recorded by path only, never the body, and the poll is not listed as the control's.
    assert by_id["callback"]["requests"] == ["POST /_dash-update-component"]
    assert by_id["status"]["requests"] == ["GET /api/status"]
    # The poll went through while nothing was held; the callback's request never did.
    assert "POST /_dash-update-component" in recorder.seen
    assert controls["ambient"] == {"measured": True, "effects": [], "requests": []} or (
        controls["ambient"]["requests"] == ["POST /_dash-update-component"]
    )


def test_a_click_tracker_keeps_a_dead_button_dead_and_a_control_s_own_doing_counts(
    tmp_path: Path, warm_sensor: Sensor, recorder: type[_Recorder]
) -> None:
    controls = _sense(tmp_path, warm_sensor, "tracked")
    by_id = _by_id(controls)
    assert {k: c["outcome"] for k, c in by_id.items()} == {
        "dead": "dead",
        "live": "live",
        "archive": "live",
        "note": "live",
    }, controls
    assert controls["ambient"] == {
        "measured": True,
        "effects": ["dom", "request"],
        "requests": ["POST /collect", "POST /track"],
    }
    # The tracker's doings are named as not counted; each live control counts its own only.
    assert by_id["dead"]["not_counted"] == ["dom", "request"]
    assert by_id["live"]["effects"] == ["dom"]
    assert by_id["archive"]["effects"] == ["request"]
    assert by_id["archive"]["requests"] == ["DELETE /api/archive"]
    assert by_id["note"]["effects"] == ["request"]
    assert by_id["note"]["requests"] == ["POST /collect"]
    # Nothing any click sent reached the server.
    assert recorder.seen == []


def test_what_a_control_starts_sending_on_a_timer_stays_its_own(
    tmp_path: Path, warm_sensor: Sensor, recorder: type[_Recorder]
) -> None:
    controls = _sense(tmp_path, warm_sensor, "sync")
    by_id = _by_id(controls)
    assert by_id["sync"]["outcome"] == "live", controls
    assert set(by_id["sync"]["requests"]) == {"POST /api/sync"}
    assert by_id["dead"]["outcome"] == "dead"
    assert not any("sync" in r for r in recorder.seen), recorder.seen


def test_a_refresh_that_asks_for_what_the_view_fetched_after_loading_counts(
    tmp_path: Path, warm_sensor: Sensor, recorder: type[_Recorder]
) -> None:
    controls = _sense(tmp_path, warm_sensor, "refresh")
    by_id = _by_id(controls)
    assert by_id["refresh"]["outcome"] == "live", controls
    assert by_id["refresh"]["effects"] == ["request"]
    assert by_id["refresh"]["requests"] == ["GET /api/data"]
    assert by_id["dead"]["outcome"] == "dead"


def test_a_poll_the_copies_had_no_rest_to_see_twice_is_learned_before_the_judging(
    tmp_path: Path, warm_sensor: Sensor, recorder: type[_Recorder]
) -> None:
    controls = _sense(tmp_path, warm_sensor, "slow-poll")
    by_id = _by_id(controls)
    assert {k: c["outcome"] for k, c in by_id.items()} == {"dead": "dead", "live": "live"}, controls
    assert by_id["dead"]["not_counted"] == ["request"]
    # The live control's own effect; a poll that came due in its watch may be listed beside it
    # when two copies' counters met (each copy counts from 0): its outcome is the point.
    assert "dom" in by_id["live"]["effects"]
