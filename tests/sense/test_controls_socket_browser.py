"""The dead-control probe and a page's websocket in a real Chromium: a heartbeat the page sends
on a short timer (the same frame each time, and one with a counter in it) does not make a dead
button look live, and a control whose activation sends a message of its own still counts, its
message held (it never reaches the server)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from argus.config import ProjectConfig
from argus.sense import Sensor, _controls
from argus.sense._controls import MAX_HELD_SENDS, SocketHold
from argus.sense.controls_choice import LOOP
from argus.spec import View, load_spec
from tests.sense.test_web_sensor import make_web_repo
from tests.support.fixtures import static_server
from tests.support.habits import REPO_ROOT
from tests.support.websocket import SocketRecorder, fresh_recorder

pytestmark = pytest.mark.browser

# "dead" does nothing; "live" changes the DOM; "archive" only tells the server, on the socket.
# Every 20 ms the page sends "ping" and "tick N" on its own, loading, idle or watched alike.
# After "live" the copy loads again (not watched): the page's heartbeat is seen unprompted.
HEARTBEAT = """<!doctype html><html><head><meta charset="utf-8"><title>h</title></head><body>
<button type="button" data-testid="dead">Dead</button>
<button type="button" data-testid="live">Live</button>
<button type="button" data-testid="archive">Archive</button>
<button type="button" data-testid="idle">Idle</button>
<p id="out"></p>
<script>
  const socket = new WebSocket(`ws://${location.host}/ws`);
  let beats = 0;
  socket.addEventListener("open", () => {
    setInterval(() => { socket.send("ping"); socket.send(`tick ${beats++}`); }, 20);
  });
  document.querySelector('[data-testid="live"]').addEventListener("click", () => {
    document.getElementById("out").textContent = "done";
  });
  document.querySelector('[data-testid="archive"]').addEventListener("click", () => {
    socket.send(JSON.stringify({ action: "archive", row: 7 }));
  });
</script></body></html>"""


@pytest.fixture
def recorder() -> type[SocketRecorder]:
    return fresh_recorder()


def _sense(
    tmp_path: Path, warm_sensor: Sensor, recorder: type[SocketRecorder], page: str = HEARTBEAT
) -> dict[str, Any]:
    root = make_web_repo(tmp_path, {"beat.html": page}, {"beat": "/beat.html"})
    spec = load_spec(root / "argus/specs/demo/spec.json")
    out = tmp_path / "out"
    with static_server(root, recorder) as base_url:
        result = warm_sensor.sense(
            spec, View("demo", "beat", "default", "light"), out, base_url=base_url
        )
    assert result.ok, result.error
    controls: dict[str, Any] = json.loads((out / "controls.json").read_text())
    return controls


def test_a_heartbeat_keeps_a_dead_button_dead_and_a_real_message_counts(
    tmp_path: Path, warm_sensor: Sensor, recorder: type[SocketRecorder]
) -> None:
    controls = _sense(tmp_path, warm_sensor, recorder)
    by_id = {c["testid"]: c for c in controls["controls"]}
    assert {k: c["outcome"] for k, c in by_id.items()} == {
        "dead": "dead",
        "live": "live",
        "archive": "live",
        "idle": "dead",
    }, controls
    assert by_id["live"]["effects"] == ["dom"]
    assert by_id["archive"]["effects"] == ["message"]
    # The heartbeat went through while nothing was held; the control's message was held.
    assert "ping" in recorder.received
    assert not any("archive" in m for m in recorder.received), recorder.received


# Only a message on the socket: sent while the socket still connects, it would throw.
SEND_ONLY = """<!doctype html><html><head><meta charset="utf-8"><title>s</title></head><body>
<button type="button" data-testid="archive">Archive</button>
<script>
  const socket = new WebSocket(`ws://${location.host}/ws`);
  document.querySelector('[data-testid="archive"]').addEventListener("click", () => {
    socket.send(JSON.stringify({ action: "archive", row: 7 }));
  });
</script></body></html>"""


def _archive_is_live_and_held(controls: dict[str, Any], recorder: type[SocketRecorder]) -> None:
    """SEND_ONLY's one control counted live by its message, which never reached the server."""
    (archive,) = controls["controls"]
    assert (archive["outcome"], archive["effects"]) == ("live", ["message"]), controls
    assert recorder.received == []


def _send_only_with_route(
    tmp_path: Path,
    recorder: type[SocketRecorder],
    monkeypatch: pytest.MonkeyPatch,
    route: Callable[[SocketHold, Any], Any],
) -> None:
    """SEND_ONLY sensed on a sensor of its own whose copies' sockets go through ``route``."""
    monkeypatch.setattr(SocketHold, "route", route)
    with Sensor(ProjectConfig(root=REPO_ROOT), workers=1, controls=LOOP) as sensor:
        _archive_is_live_and_held(_sense(tmp_path, sensor, recorder, SEND_ONLY), recorder)


def test_a_control_is_activated_only_once_the_copys_socket_is_open(
    tmp_path: Path, warm_sensor: Sensor, recorder: type[SocketRecorder]
) -> None:
    """The server takes its time to open the socket: each copy is at rest only once it is
    open, so the control's message is sent (and held), not thrown away as still connecting."""
    recorder.handshake_s = 0.15
    _archive_is_live_and_held(_sense(tmp_path, warm_sensor, recorder, SEND_ONLY), recorder)


def test_a_message_the_route_hears_late_still_counts_for_its_control(
    tmp_path: Path, recorder: type[SocketRecorder], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The route hears of a page's message through Playwright's driver, not in order with
    the world's answer: here each reaches it 300 ms late, long after the control's effects
    were read. The world says how many the page sent, and the watch waits for them."""
    route = SocketHold.route

    def late(self: SocketHold, socket: Any) -> None:
        on_message = socket.on_message

        def delayed(handler: Any) -> None:
            loop = asyncio.get_running_loop()
            on_message(lambda message: loop.call_later(0.3, handler, message))

        socket.on_message = delayed
        route(self, socket)

    _send_only_with_route(tmp_path, recorder, monkeypatch, late)


def test_a_copys_socket_the_route_connects_late_is_waited_for(
    tmp_path: Path, recorder: type[SocketRecorder], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The browser makes a copy's real socket only when Argus's route connects it, and the
    route hears of the socket through Playwright's driver: here 300 ms late. Until then the
    renderer has nothing in flight, yet the page is not at rest: its socket is connecting."""
    route = SocketHold.route

    def late(self: SocketHold, socket: Any) -> Any:
        async def connect() -> None:
            await asyncio.sleep(0.3)
            route(self, socket)

        return connect()

    _send_only_with_route(tmp_path, recorder, monkeypatch, late)


# One click sends far more messages than the probe would hold: a loop, then a timer.
SOCKET_FLOOD = """<!doctype html><html><head><meta charset="utf-8"><title>f</title></head><body>
<button type="button" data-testid="flood">Flood</button>
<script>
  const socket = new WebSocket(`ws://${location.host}/ws`);
  document.querySelector('[data-testid="flood"]').addEventListener("click", () => {
    let n = 0;
    for (; n < 1000; n++) socket.send(`flood ${n}`);
    setInterval(() => socket.send(`flood ${n++}`), 1);
  });
</script></body></html>"""


def test_a_control_that_floods_its_socket_is_judged_on_a_bounded_number_of_messages(
    tmp_path: Path, warm_sensor: Sensor, recorder: type[SocketRecorder],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """Once activated, the copy's document may send at most MAX_HELD_SENDS messages: the
    rest do nothing in the page, so the route never has to hear of them."""
    heard: list[str | bytes] = []
    keep_alive = _controls.keep_alive

    def counted(url: str, message: str | bytes) -> bool:  # asked of each message heard watching
        heard.append(message)
        return keep_alive(url, message)

    monkeypatch.setattr(_controls, "keep_alive", counted)
    controls = _sense(tmp_path, warm_sensor, recorder, SOCKET_FLOOD)
    (flood,) = controls["controls"]
    assert (flood["outcome"], flood["effects"]) == ("live", ["message"]), controls
    flooded = [m for m in heard if isinstance(m, str) and m.startswith("flood")]
    assert 0 < len(flooded) <= MAX_HELD_SENDS, len(flooded)
    assert not any(str(m).startswith("flood") for m in recorder.received)
