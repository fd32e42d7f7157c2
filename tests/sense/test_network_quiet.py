"""When the network counts as quiet: nothing in flight, nothing new for a short window and
while the page renders two frames (argus.sense.page_state.NetworkMonitor)."""

from __future__ import annotations

import asyncio
import http.server
import json
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest

from argus.config import ProjectConfig
from argus.sense import Sensor
from argus.sense.controls_choice import LOOP
from argus.sense.page_state import NetworkMonitor
from argus.sense.web import _at_rest
from argus.spec import View, load_spec
from tests.sense.test_web_sensor import make_web_repo
from tests.support.fixtures import static_server
from tests.support.websocket import SocketRecorder


class FakeRequest:
    pass


class FakePage:
    """Just enough of a Playwright page: listeners, and an evaluate that 'renders two frames'
    (sleeps ``frames_s``) and runs ``during_frames`` meanwhile."""

    def __init__(self, frames_s: float = 0.01) -> None:
        self.listeners: dict[str, list[Callable[[Any], None]]] = {}
        self.frames_s = frames_s
        self.during_frames: list[Callable[[], None]] = []
        self.evaluations = 0
        self.arguments: list[Any] = []

    def on(self, event: str, handler: Callable[[Any], None]) -> None:
        self.listeners.setdefault(event, []).append(handler)

    def remove_listener(self, event: str, handler: Callable[[Any], None]) -> None:
        self.listeners[event].remove(handler)

    def emit(self, event: str, request: FakeRequest) -> None:
        for handler in list(self.listeners.get(event, [])):
            handler(request)

    async def evaluate(self, script: str, arg: Any = None) -> bool:
        self.evaluations += 1
        self.arguments.append(arg)
        if self.during_frames:
            self.during_frames.pop(0)()
        await asyncio.sleep(self.frames_s)
        return True


def _wait(page: FakePage, timeout: float, quiet: float = 0.05) -> tuple[bool, float]:
    async def run() -> tuple[bool, float]:
        monitor = NetworkMonitor(page)  # type: ignore[arg-type]
        started = time.monotonic()
        idle = await monitor.wait_idle(timeout, quiet=quiet)
        return idle, time.monotonic() - started

    return asyncio.run(run())


def test_quiet_after_the_window_and_two_frames_when_nothing_happens() -> None:
    page = FakePage()
    idle, took = _wait(page, timeout=2)
    assert idle and page.evaluations == 1
    assert took >= 0.049  # the window was waited (sleeps never end early; no upper bound)


def test_a_request_started_while_the_frames_render_is_waited_for() -> None:
    page = FakePage()
    follow_up = FakeRequest()

    def start_next() -> None:  # a response handler starting the next fetch
        page.emit("request", follow_up)
        asyncio.get_running_loop().call_later(0.1, page.emit, "requestfinished", follow_up)

    page.during_frames.append(start_next)
    idle, took = _wait(page, timeout=2)
    assert idle and page.evaluations >= 2
    assert took >= 0.149  # the follow-up's 100 ms, then the quiet window after it


def test_requests_always_in_flight_are_never_quiet() -> None:
    page = FakePage()
    monitor_page_request = FakeRequest()

    async def run() -> bool:
        monitor = NetworkMonitor(page)  # type: ignore[arg-type]
        page.emit("request", monitor_page_request)
        return await monitor.wait_idle(0.3)

    assert asyncio.run(run()) is False


def test_a_page_that_always_has_something_new_is_never_quiet() -> None:
    page = FakePage()

    def another() -> None:  # a poll that fires before the page draws, every time
        request = FakeRequest()
        page.emit("request", request)
        page.emit("requestfinished", request)
        page.during_frames.append(another)

    page.during_frames.append(another)
    idle, _ = _wait(page, timeout=0.3)
    assert idle is False and page.evaluations > 1


def test_frames_the_settle_drew_with_nothing_happening_are_not_drawn_again() -> None:
    """The settle's one evaluation (SETTLE_JS) draws the first two frames; with no request
    event since ``mark()``, the quiet wait takes them as its own and only waits the window."""
    page = FakePage()

    async def run() -> tuple[bool, float]:
        monitor = NetworkMonitor(page)  # type: ignore[arg-type]
        mark = monitor.mark()
        await page.evaluate("settle")  # the caller's frames
        started = time.monotonic()
        idle = await monitor.wait_idle(2, quiet=0.05, drawn=mark)
        return idle, time.monotonic() - started

    idle, _ = asyncio.run(run())
    assert idle and page.evaluations == 1


def test_frames_drawn_across_a_request_are_drawn_again() -> None:
    page = FakePage()
    request = FakeRequest()

    async def run() -> tuple[int | None, bool]:
        monitor = NetworkMonitor(page)  # type: ignore[arg-type]
        mark = monitor.mark()

        def poll() -> None:
            page.emit("request", request)
            page.emit("requestfinished", request)

        page.during_frames.append(poll)
        await page.evaluate("settle")  # a request starts while the caller's frames render
        return mark, await monitor.wait_idle(2, quiet=0.05, drawn=mark)

    mark, idle = asyncio.run(run())
    assert mark == 0 and idle
    assert page.evaluations >= 2  # the quiet wait drew its own frames after the request


def _settle(in_flight: bool) -> FakePage:
    """The sensor's settle (argus.sense.web._at_rest) on a page whose load left a request in
    flight, or none; the request ends 30 ms in."""
    page = FakePage()

    async def run() -> bool:
        monitor = NetworkMonitor(page)  # type: ignore[arg-type]
        if in_flight:
            request = FakeRequest()
            page.emit("request", request)
            asyncio.get_running_loop().call_later(0.03, page.emit, "requestfinished", request)
        return await _at_rest(page, monitor, 2)  # type: ignore[arg-type]

    assert asyncio.run(run())
    return page


def test_the_settle_draws_its_frames_when_nothing_is_in_flight() -> None:
    page = _settle(in_flight=False)
    assert page.arguments[0]["frames"] is True
    assert page.evaluations == 1  # the quiet wait took the settle's frames as its own


def test_the_settle_draws_no_frames_while_a_request_is_in_flight() -> None:
    """Frames drawn before the request's end could never count: the settle freezes and waits
    for the fonts only, and the quiet wait draws its two frames after the end."""
    page = _settle(in_flight=True)
    assert page.arguments[0]["frames"] is False
    assert page.evaluations == 2  # the settle's evaluation, then the quiet wait's frames


def test_no_mark_while_a_request_is_in_flight() -> None:
    page = FakePage()

    async def run() -> tuple[int | None, int | None]:
        monitor = NetworkMonitor(page)  # type: ignore[arg-type]
        request = FakeRequest()
        page.emit("request", request)
        busy = monitor.mark()
        page.emit("requestfinished", request)
        return busy, monitor.mark()

    assert asyncio.run(run()) == (None, 2)


def test_the_wait_for_requests_in_flight_ends_on_their_end() -> None:
    """While a request is in flight the wait draws nothing and ends with the request's end
    (then frames and the window), whenever that comes."""
    page = FakePage()
    request = FakeRequest()

    async def run() -> tuple[bool, int]:
        monitor = NetworkMonitor(page)  # type: ignore[arg-type]
        page.emit("request", request)
        loop = asyncio.get_running_loop()
        loop.call_later(0.12, page.emit, "requestfinished", request)
        idle = await monitor.wait_idle(2, quiet=0.05)
        return idle, page.evaluations

    assert asyncio.run(run()) == (True, 1)


class FakeSession:
    """Just enough of a CDP session: its listeners, and events told to them."""

    def __init__(self) -> None:
        self.listeners: dict[str, list[Callable[[Any], None]]] = {}

    def on(self, event: str, handler: Callable[[Any], None]) -> None:
        self.listeners.setdefault(event, []).append(handler)

    def remove_listener(self, event: str, handler: Callable[[Any], None]) -> None:
        self.listeners[event].remove(handler)

    def emit(self, event: str, params: dict[str, Any]) -> None:
        for handler in list(self.listeners.get(event, [])):
            handler(params)


@pytest.mark.parametrize(
    "opened", ["Network.webSocketHandshakeResponseReceived", "Network.webSocketClosed"]
)
def test_a_websocket_opening_is_in_flight_until_answered_or_closed(opened: str) -> None:
    """Created, the socket keeps the network busy (no mark, no frames drawn) until the server
    answers its handshake, or it closes unanswered; another socket's answer does not count."""
    page, session = FakePage(), FakeSession()

    async def run() -> tuple[int | None, bool, int, int | None]:
        monitor = NetworkMonitor(page, session)  # type: ignore[arg-type]
        session.emit("Network.webSocketCreated", {"requestId": "7.1", "url": "ws://x/ws"})
        busy = monitor.mark()
        loop = asyncio.get_running_loop()
        loop.call_later(0.05, session.emit, opened, {"requestId": "7.2"})
        loop.call_later(0.12, session.emit, opened, {"requestId": "7.1"})
        idle = await monitor.wait_idle(2, quiet=0.05)
        return busy, idle, page.evaluations, monitor.mark()

    busy, idle, evaluations, after = asyncio.run(run())
    assert busy is None and idle and evaluations == 1
    assert after == 3  # created, the other's answer, its own


def test_a_websocket_never_answered_is_never_quiet() -> None:
    page, session = FakePage(), FakeSession()

    async def run() -> bool:
        monitor = NetworkMonitor(page, session)  # type: ignore[arg-type]
        session.emit("Network.webSocketCreated", {"requestId": "7.1", "url": "ws://x/ws"})
        return await monitor.wait_idle(0.3)

    assert asyncio.run(run()) is False and page.evaluations == 0


def test_websockets_are_not_watched_without_a_session_nor_after_detach() -> None:
    page, session = FakePage(), FakeSession()

    async def run() -> tuple[bool, bool]:
        blind = NetworkMonitor(page)  # type: ignore[arg-type]
        watching = NetworkMonitor(page, session)  # type: ignore[arg-type]
        watching.detach()
        session.emit("Network.webSocketCreated", {"requestId": "7.1", "url": "ws://x/ws"})
        return await blind.wait_idle(1), await watching.wait_idle(1)

    assert asyncio.run(run()) == (True, True)
    assert session.listeners == {
        "Network.webSocketCreated": [],
        "Network.webSocketHandshakeResponseReceived": [],
        "Network.webSocketClosed": [],
    }


def _early(
    page: FakePage, during_shot: Callable[[], None] = lambda: None, quiet: float = 0.05
) -> tuple[bool, Any]:
    """wait_idle with a 'screenshot' beside the quiet window: (idle, what ``early`` kept)."""

    async def run() -> tuple[bool, Any]:
        monitor = NetworkMonitor(page)  # type: ignore[arg-type]
        shots = iter(range(100))

        async def shot() -> str:
            number = next(shots)  # counted when started: a dropped shot may be cancelled
            during_shot()
            await asyncio.sleep(0.005)
            return f"shot {number}"

        idle = await monitor.wait_idle(2, quiet=quiet, beside=shot)
        return idle, monitor.early

    return asyncio.run(run())


def test_a_shot_taken_in_a_quiet_window_is_kept() -> None:
    assert _early(FakePage()) == (True, "shot 0")


def test_a_shot_whose_window_a_request_broke_is_dropped() -> None:
    page = FakePage()
    fired: list[bool] = []

    def poll_once() -> None:  # a request starts and ends while the first shot is taken
        if not fired:
            fired.append(True)
            request = FakeRequest()
            page.emit("request", request)
            page.emit("requestfinished", request)

    # A window long enough that it cannot run out before the shot starts, on a loaded machine
    # too (a window already over when the shot's request comes drops the shot and ends the
    # wait: the last test below).
    idle, early = _early(page, poll_once, quiet=0.5)
    # The first window was broken: its shot is not kept; the next window's shot is.
    assert idle and early == "shot 1" and page.evaluations == 2


def test_a_request_during_the_last_shot_drops_it_but_the_network_was_quiet() -> None:
    page = FakePage()

    async def run() -> tuple[bool, Any]:
        monitor = NetworkMonitor(page)  # type: ignore[arg-type]

        async def slow_shot() -> str:
            await asyncio.sleep(0.08)  # outlasts the window; a request starts meanwhile
            request = FakeRequest()
            page.emit("request", request)
            page.emit("requestfinished", request)
            return "shot"

        idle = await monitor.wait_idle(2, quiet=0.05, beside=slow_shot)
        return idle, monitor.early

    assert asyncio.run(run()) == (True, None)


# --- in a real browser ----------------------------------------------------------------------

# The list arrives in two steps; the second request starts 20 ms after the first answered
# (less than the quiet window) and takes 300 ms (longer than the stable screenshots take), so a
# sensor that stopped waiting at the first quiet moment would capture "loading" and settle.
CHAINED = """<!doctype html><html><body><p id="state" data-testid="state">loading</p><script>
  fetch("step1.json").then((r) => r.json()).then(() => new Promise((ok) => setTimeout(ok, 20)))
    .then(() => fetch("slow/step2.json")).then((r) => r.json())
    .then((data) => { document.getElementById("state").textContent = data.state; });
</script></body></html>"""


class _SlowHandler(http.server.SimpleHTTPRequestHandler):
    def do_GET(self) -> None:
        if self.path.startswith("/slow/"):
            time.sleep(0.3)
            self.path = self.path[len("/slow") :]
        super().do_GET()

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


def slow_server(directory: Path) -> AbstractContextManager[str]:
    return static_server(directory, _SlowHandler)


@pytest.mark.browser
def test_a_chain_of_requests_is_waited_for_to_its_end(tmp_path: Path) -> None:
    root = make_web_repo(tmp_path, {"chained.html": CHAINED}, {"chained": "/chained.html"})
    (root / "step1.json").write_text("{}")
    (root / "step2.json").write_text(json.dumps({"state": "done"}))
    spec = load_spec(root / "argus/specs/demo/spec.json")
    config = ProjectConfig.model_validate({"root": root, "gates": {"enabled": []}})
    with slow_server(root) as base, Sensor(config, workers=1, controls=LOOP) as sensor:
        result = sensor.sense(
            spec, View("demo", "chained", "default", "light"), tmp_path / "out", base_url=base
        )
    assert result.ok, result.error
    probe = json.loads((tmp_path / "out" / "probe.json").read_text())
    state = next(e for e in probe["elements"] if e["testid"] == "state")
    assert state["text"] == "done"


@pytest.mark.browser
def test_a_bare_capture_shot_in_the_quiet_window_waits_for_the_chain_too(tmp_path: Path) -> None:
    """Capturing only, the first shot is taken during the quiet window: it still shows the
    end of the chain (the probe's sense says what that is), and a capture into a directory
    holding a render at rest ends at its first shot when it matches."""
    root = make_web_repo(tmp_path, {"chained.html": CHAINED}, {"chained": "/chained.html"})
    (root / "step1.json").write_text("{}")
    (root / "step2.json").write_text(json.dumps({"state": "done"}))
    spec = load_spec(root / "argus/specs/demo/spec.json")
    config = ProjectConfig.model_validate({"root": root, "gates": {"enabled": []}})
    view = View("demo", "chained", "default", "light")
    with slow_server(root) as base, Sensor(config, workers=1, controls=LOOP) as sensor:
        probed = sensor.sense(spec, view, tmp_path / "probed", base_url=base)
        first = sensor.sense(spec, view, tmp_path / "bare", base_url=base, capture_only=True)
        again = sensor.sense(spec, view, tmp_path / "bare", base_url=base, capture_only=True)
    assert probed.ok and first.ok and again.ok
    done = (tmp_path / "probed" / "render.png").read_bytes()
    assert (tmp_path / "bare" / "render.png").read_bytes() == done
    assert first.settled and again.settled and again.attempts == 1


# The page says it is ready only once its socket is open; a second socket it opens goes to a
# port Chromium refuses, a third to a path that is no websocket (the server answers 404).
SOCKET_READY = """<!doctype html><html><body><p data-testid="state">connecting</p><script>
  const state = document.querySelector('[data-testid="state"]');
  const socket = new WebSocket(`ws://${location.host}/ws`);
  socket.addEventListener("open", () => { state.textContent = "open"; });
  new WebSocket("ws://127.0.0.1:9/refused");
  NOT_A_SOCKET
</script></body></html>"""


@pytest.mark.browser
@pytest.mark.parametrize(
    "refused",
    ["", 'new WebSocket(`ws://${location.host}/none`, "x");'],
    ids=["unsafe port", "unsafe port and subprotocol unanswered"],
)
def test_a_websocket_slow_to_open_is_waited_for_and_a_refused_one_is_not(
    tmp_path: Path, gates_sensor: Sensor, refused: str
) -> None:
    """The server takes 300 ms to open the socket: the sense waits for it, and sees the page
    it shows once open. Sockets that fail to open (an unsafe port, a subprotocol the server
    does not answer with) end their wait when they close."""
    page = SOCKET_READY.replace("NOT_A_SOCKET", refused)
    root = make_web_repo(tmp_path, {"ready.html": page}, {"ready": "/ready.html"})
    spec = load_spec(root / "argus/specs/demo/spec.json")
    SocketRecorder.handshake_s = 0.3
    try:
        with static_server(root, SocketRecorder) as base:
            result = gates_sensor.sense(
                spec, View("demo", "ready", "default", "light"), tmp_path / "out", base_url=base
            )
    finally:
        SocketRecorder.handshake_s = 0.0
    assert result.ok, result.error
    probe = json.loads((tmp_path / "out" / "probe.json").read_text())
    state = next(e for e in probe["elements"] if e["testid"] == "state")
    assert state["text"] == "open"
