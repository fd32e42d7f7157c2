"""The dead-control probe in a real Chromium: a Remove button that does nothing is found, one
that works is not, and nothing an activation sends reaches the app's server."""

from __future__ import annotations

import asyncio
import http.server
import json
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from playwright.async_api import BrowserContext, Request, Route

from argus.config import ProjectConfig, SenseConfig
from argus.sense import Sensor, _controls
from argus.sense._controls import MAX_HELD_SENDS, _Held
from argus.sense._controls import _caught_up as catch_up
from argus.spec import View, load_spec
from tests.sense.test_web_sensor import make_web_repo
from tests.support.fixtures import static_server

pytestmark = pytest.mark.browser

LIST = """<!doctype html><html><head><meta charset="utf-8"><title>list</title></head><body>
<button type="button" data-testid="save" onclick="localStorage.setItem('saved', '1')">Save</button>
<script>
  // What a control saved shows on the next load: a copy that did not forget it would find
  // another page (an extra button first) when it loads the view again for the next control.
  if (localStorage.getItem("saved")) document.write('<button data-testid="ghost">Ghost</button>');
</script>
<ul>
  <li id="row-a">Apples <button type="button" data-testid="remove-a">Remove</button></li>
  <li id="row-b">Pears <button type="button" data-testid="remove-b">Remove</button></li>
</ul>
<button type="button" data-testid="archive">Archive</button>
<button type="button" data-testid="off" disabled>Off</button>
<a href="other.html" data-testid="away">Elsewhere</a>
<a href="#" data-testid="nowhere">Nowhere</a>
<label><input type="checkbox" data-testid="keep"> keep</label>
<details><summary data-testid="more">More</summary><p>hidden text</p></details>
<div role="button" tabindex="0" data-testid="fake">Fake</div>
<script>
  // The working Remove takes its row away; the other has lost its handler.
  document.querySelector('[data-testid="remove-a"]').addEventListener("click", () => {
    document.getElementById("row-a").remove();
  });
  // Archive only tells the server: no DOM change, but a request.
  document.querySelector('[data-testid="archive"]').addEventListener("click", () => {
    fetch("api/archive", { method: "DELETE" });
  });
</script></body></html>"""

# The state is reached by a step: the Remove button exists only after "Show" was clicked.
STEPPED = """<!doctype html><html><head><meta charset="utf-8"><title>s</title></head><body>
<button type="button" data-testid="show">Show</button>
<div id="panel"></div>
<script>
  document.querySelector('[data-testid="show"]').addEventListener("click", () => {
    fetch("api/shown", { method: "DELETE" });  // the state's step writes to the server
    document.getElementById("panel").innerHTML =
      '<button type="button" data-testid="drop">Remove</button>';
  });
</script></body></html>"""


# Save with a required field left empty (and already focused, as an opened add form's is)
# shows the browser's validation message, with no DOM change and no focus move: it works. A
# form that checks nothing and whose submit handler does nothing is dead.
FORMS = """<!doctype html><html><head><meta charset="utf-8"><title>f</title></head><body>
<form><input name="title" required autofocus>
<button type="submit" data-testid="save">Save</button></form>
<form novalidate onsubmit="event.preventDefault()"><input name="note" required>
<button type="submit" data-testid="send">Send</button></form>
</body></html>"""


# Each control stores something in one of the places a copy must forget; the view shows a
# Ghost button first when it finds any of them, so a copy that remembered another's would
# list its controls shifted by one (not_found from there on).
STORAGE = """<!doctype html><html><head><meta charset="utf-8"><title>st</title></head><body>
<script>
  if (localStorage.getItem("l") || sessionStorage.getItem("s") || document.cookie.includes("c="))
    document.write('<button type="button" data-testid="ghost">Ghost</button>');
</script>
<button type="button" data-testid="local" onclick="localStorage.setItem('l', '1')">L</button>
<button type="button" data-testid="inert">Inert</button>
<button type="button" data-testid="session" onclick="sessionStorage.setItem('s', '1')">S</button>
<button type="button" data-testid="cookie"
  onclick="document.cookie = 'c=1'; this.textContent = 'C!'">C</button>
<button type="button" data-testid="grow"
  onclick="document.body.append(document.createElement('hr'))">Grow</button>
</body></html>"""


# A control that starts telling the server something over and over, until its document goes.
LATE = """<!doctype html><html><head><meta charset="utf-8"><title>late</title></head><body>
<button type="button" data-testid="tick" onclick="this.textContent = 'on';
  setInterval(() => fetch('api/late', { method: 'DELETE' }), 5)">Tick</button>
</body></html>"""


# A control that starts a timer sending every millisecond, a request and a message each time:
# the probe must come to its judgement with a bounded number of them to handle.
FLOOD = """<!doctype html><html><head><meta charset="utf-8"><title>flood</title></head><body>
<button type="button" data-testid="flood" onclick="this.textContent = 'on'; let n = 0;
  setInterval(() => { fetch('api/flood', { method: 'POST', body: String(n++) });
                      postMessage({ n }, '*'); }, 1)">Flood</button>
<button type="button" data-testid="inert">Inert</button>
</body></html>"""


class _Recorder(http.server.SimpleHTTPRequestHandler):
    """Serves files and remembers every request it was sent."""

    seen: ClassVar[list[str]] = []

    def log_message(self, format: str, *args: object) -> None:
        pass

    def _note(self) -> None:
        type(self).seen.append(f"{self.command} {self.path.split('?')[0]}")

    def do_GET(self) -> None:
        self._note()
        super().do_GET()

    def do_DELETE(self) -> None:
        self._note()
        self.send_response(204)
        self.end_headers()


@pytest.fixture
def recorder() -> Iterator[type[_Recorder]]:
    _Recorder.seen = []
    yield _Recorder


# Navigations the page cancels itself: they never reach the probe's route, and the watch must
# not wait for them (it used to wait the view's whole timeout for each).
CANCELLED = """<!doctype html><html><head><meta charset="utf-8"><title>c</title></head><body>
<button type="button" data-testid="stop" onclick="location.href = 'other.html'; window.stop()"
  >Stop</button>
<a href="other.html" data-testid="stopped" onclick="setTimeout(() => window.stop(), 0)">Later</a>
<a href="other.html" data-testid="away">Away</a>
</body></html>"""


def _sense(
    tmp_path: Path, warm_sensor: Sensor, recorder: type[_Recorder], target: str,
    max_controls: int = 20, steps: list[dict[str, Any]] | None = None, copies: int = 0,
) -> dict[str, Any]:  # fmt: skip
    pages = {"list.html": LIST, "stepped.html": STEPPED, "forms.html": FORMS}
    pages |= {"storage.html": STORAGE, "late.html": LATE, "other.html": "<p>o</p>"}
    pages |= {"flood.html": FLOOD, "cancelled.html": CANCELLED}
    root = make_web_repo(
        tmp_path,
        pages,
        {"list": "/list.html", "stepped": "/stepped.html", "forms": "/forms.html"}
        | {"storage": "/storage.html", "late": "/late.html", "flood": "/flood.html"}
        | {"cancelled": "/cancelled.html"},
    )
    spec_path = root / "argus/specs/demo/spec.json"
    if steps is not None:
        data = json.loads(spec_path.read_text())
        data["targets"][1]["steps"] = {"default": steps}
        spec_path.write_text(json.dumps(data))
    spec = load_spec(spec_path)
    out = tmp_path / "out"
    sensor_config = warm_sensor.config
    warm_sensor.config = ProjectConfig(
        root=sensor_config.root,
        sense=SenseConfig(max_controls=max_controls, control_copies=copies),
    )
    try:
        with static_server(root, recorder) as base_url:
            result = warm_sensor.sense(
                spec, View("demo", target, "default", "light"), out, base_url=base_url
            )
    finally:
        warm_sensor.config = sensor_config
    assert result.ok, result.error
    controls: dict[str, Any] = json.loads((out / "controls.json").read_text())
    return controls


def _outcomes(controls: dict[str, Any]) -> dict[str, str]:
    return {c["testid"]: c["outcome"] for c in controls["controls"] if c["testid"]}


def test_a_remove_button_that_does_nothing_is_dead_and_a_working_one_is_not(
    tmp_path: Path, warm_sensor: Sensor, recorder: type[_Recorder]
) -> None:
    controls = _sense(tmp_path, warm_sensor, recorder, "list")
    outcomes = _outcomes(controls)
    assert outcomes == {
        "remove-a": "live",
        "remove-b": "dead",
        "archive": "live",
        "away": "live",
        "nowhere": "dead",
        "keep": "live",
        "more": "live",
        "fake": "dead",
        "save": "live",
    }, controls
    by_id = {c["testid"]: c for c in controls["controls"]}
    assert by_id["remove-a"]["effects"] == ["dom"]
    assert by_id["archive"]["effects"] == ["request"]
    assert by_id["archive"]["requests"] == ["DELETE /api/archive"]
    assert "request" in by_id["away"]["effects"]
    assert by_id["keep"]["effects"] == ["value"]
    assert by_id["save"]["effects"] == ["storage"]  # no DOM trace, but the copy reports it
    assert controls["capped"] is False and controls["found"] == 9
    # Held: the server never heard of the DELETE, nor of the page the link leads to.
    assert not any(r.startswith("DELETE") or "other.html" in r for r in recorder.seen)


def test_the_number_of_controls_is_bounded_and_the_cap_is_said(
    tmp_path: Path, warm_sensor: Sensor, recorder: type[_Recorder], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Only the controls within the limit are described and sent over from the copy; the rest
    # are counted there (on a page of 20,000 rows the whole list was 10 MB of JSON).
    listed: list[Any] = []
    call = _controls._call

    async def recorded(copy: Any, expression: str) -> Any:
        answer = await call(copy, expression)
        if "__argusControls.list(" in expression:
            listed.append(answer)
        return answer

    monkeypatch.setattr(_controls, "_call", recorded)
    controls = _sense(tmp_path, warm_sensor, recorder, "list", max_controls=2)
    assert controls["capped"] is True and controls["found"] == 9 and controls["limit"] == 2
    assert [c["testid"] for c in controls["controls"]] == ["save", "remove-a"]
    assert listed and all(len(answer["described"]) == 2 for answer in listed), listed
    assert all(answer["found"] == 9 for answer in listed), listed


def test_the_state_s_steps_are_replayed_in_the_copy(
    tmp_path: Path, warm_sensor: Sensor, recorder: type[_Recorder]
) -> None:
    steps = [{"action": "click", "locator": {"testid": "show"}}]
    controls = _sense(tmp_path, warm_sensor, recorder, "stepped", steps=steps)
    assert _outcomes(controls) == {"show": "live", "drop": "dead"}
    # The step's write reached the server twice: the sense, and the copy's first load. The
    # copy's load after "show" did something replays the step with its writes refused.
    assert recorder.seen.count("DELETE /api/shown") == 2, recorder.seen


def test_a_submit_that_shows_the_validation_message_is_live(
    tmp_path: Path, warm_sensor: Sensor, recorder: type[_Recorder]
) -> None:
    controls = _sense(tmp_path, warm_sensor, recorder, "forms")
    assert _outcomes(controls) == {"save": "live", "send": "dead"}, controls
    by_id = {c["testid"]: c for c in controls["controls"]}
    assert by_id["save"]["effects"] == ["validation"]


def _without_url(controls: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in controls.items() if key != "url"}


def test_copies_side_by_side_give_what_one_copy_at_a_time_gives(
    tmp_path: Path, warm_sensor: Sensor, recorder: type[_Recorder]
) -> None:
    # Live, dead, storing, state-changing (a checkbox), requesting and navigating controls.
    one = _sense(tmp_path / "one", warm_sensor, recorder, "list", copies=1)
    three = _sense(tmp_path / "three", warm_sensor, recorder, "list", copies=3)
    assert _without_url(three) == _without_url(one)
    assert _outcomes(three)["remove-b"] == "dead" and _outcomes(three)["away"] == "live"
    assert not any(r.startswith("DELETE") or "other.html" in r for r in recorder.seen)


def test_what_a_copy_stores_is_never_found_by_the_next_copies(
    tmp_path: Path, warm_sensor: Sensor, recorder: type[_Recorder]
) -> None:
    for copies in (1, 2, 3):
        controls = _sense(tmp_path / str(copies), warm_sensor, recorder, "storage", copies=copies)
        assert _outcomes(controls) == {
            "local": "live",
            "inert": "dead",
            "session": "live",
            "cookie": "live",
            "grow": "live",
        }, (copies, controls)
        by_id = {c["testid"]: c for c in controls["controls"]}
        assert by_id["local"]["effects"] == by_id["session"]["effects"] == ["storage"]
        assert by_id["grow"]["effects"] == ["dom"]


def test_copies_loaded_ahead_only_read(
    tmp_path: Path, warm_sensor: Sensor, recorder: type[_Recorder]
) -> None:
    # A view reached by a step that writes: with copies side by side, still only the first
    # copy's load sends the write (once more than sensing alone).
    steps = [{"action": "click", "locator": {"testid": "show"}}]
    controls = _sense(tmp_path, warm_sensor, recorder, "stepped", steps=steps, copies=3)
    assert _outcomes(controls) == {"show": "live", "drop": "dead"}
    assert recorder.seen.count("DELETE /api/shown") == 2, recorder.seen


def test_what_an_activated_copy_sends_after_the_probe_reaches_nothing(
    tmp_path: Path, warm_sensor: Sensor, recorder: type[_Recorder]
) -> None:
    # The last control's timer keeps sending: the copy leaves its document while still
    # holding, before its routes go, so not one of those requests reaches the server.
    for copies in (1, 2):
        controls = _sense(tmp_path / str(copies), warm_sensor, recorder, "late", copies=copies)
        assert _outcomes(controls) == {"tick": "live"}, controls
    assert not any(r.startswith("DELETE") for r in recorder.seen), recorder.seen


Handler = Callable[[Route, Request], Awaitable[None]]


def _heard(monkeypatch: pytest.MonkeyPatch, late_s: float = 0.0) -> list[str]:
    """The URLs every route of the browser hears of, from now on, each told ``late_s`` late
    when it is one of a control's (``/api/``, ``other.html``)."""
    add_route = BrowserContext.route
    heard: list[str] = []

    async def route_late(self: BrowserContext, url: str, handler: Handler, **kw: Any) -> None:
        async def late(route: Route, request: Request) -> None:
            heard.append(request.url)
            if late_s and ("/api/" in request.url or "other.html" in request.url):
                await asyncio.sleep(late_s)
            await handler(route, request)

        await add_route(self, url, late, **kw)

    monkeypatch.setattr(BrowserContext, "route", route_late)
    return heard


def test_a_navigation_the_page_cancels_ends_the_watch(
    tmp_path: Path, warm_sensor: Sensor, recorder: type[_Recorder], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each watch catches up with what its control set out to do well within a 5 s bound (the
    # view's is 30 s): the frame's stopped loading tells a cancelled navigation's end.
    caught_up: list[bool] = []

    async def bounded(held: _Held, timeout_s: float) -> None:
        await catch_up(held, 5.0)
        caught_up.append(held.caught_up())

    monkeypatch.setattr(_controls, "_caught_up", bounded)
    controls = _sense(tmp_path, warm_sensor, recorder, "cancelled")
    assert _outcomes(controls) == {"stop": "dead", "stopped": "dead", "away": "live"}, controls
    by_id = {c["testid"]: c for c in controls["controls"]}
    assert by_id["away"]["requests"] == ["GET /other.html"]
    assert caught_up == [True] * 4  # the body's click and the three controls
    assert "GET /other.html" not in recorder.seen


def test_a_control_that_floods_is_judged_with_a_bounded_number_of_requests(
    tmp_path: Path, warm_sensor: Sensor, recorder: type[_Recorder], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Once activated, the copy's document may send at most MAX_HELD_SENDS requests: the rest
    # fail in the page, never reaching the probe's routes, whatever the machine's speed.
    heard = _heard(monkeypatch)
    for copies in (1, 2):
        controls = _sense(tmp_path / str(copies), warm_sensor, recorder, "flood", copies=copies)
        assert _outcomes(controls) == {"flood": "live", "inert": "dead"}, controls
        by_id = {c["testid"]: c for c in controls["controls"]}
        assert by_id["flood"]["effects"] == ["dom", "request"]
        assert set(by_id["flood"]["requests"]) == {"POST /api/flood"}
    flooded = [url for url in heard if "/api/flood" in url]
    assert 0 < len(flooded) <= 2 * MAX_HELD_SENDS, len(flooded)
    assert not any("flood" in r and not r.startswith("GET") for r in recorder.seen)


# How late the probe's route hears of a control's request in the test below: longer than an
# activation's watch takes (the click, a timer and two frames), even on a loaded machine.
HEARD_LATE_S = 3.0


def test_a_request_the_route_hears_of_late_is_still_the_control_s(
    tmp_path: Path, warm_sensor: Sensor, recorder: type[_Recorder], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The browser tells the route of a request beside the renderer's answers, not in their
    # order: on a loaded machine, after the watch of the control that sent it has ended. Here
    # the route hears of what Archive and Elsewhere send only seconds later. Archive's DELETE
    # must not go to the next control (Elsewhere, on the same copy), nor be taken for a poll.
    _heard(monkeypatch, HEARD_LATE_S)
    controls = _sense(tmp_path, warm_sensor, recorder, "list", copies=1)
    by_id = {c["testid"]: c for c in controls["controls"]}
    assert (by_id["archive"]["outcome"], by_id["archive"].get("requests")) == (
        "live",
        ["DELETE /api/archive"],
    ), controls
    assert (by_id["away"]["outcome"], by_id["away"].get("requests")) == (
        "live",
        ["GET /other.html"],
    ), controls
    assert by_id["nowhere"]["outcome"] == "dead", controls
    assert not any(r.startswith("DELETE") or "other.html" in r for r in recorder.seen)
