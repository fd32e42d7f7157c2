"""A framework's settle rule on a page (argus.sense.framework_settle), on a fake page: ready
only when the framework's function says so before and after two frames, and, for a websocket
framework, once the socket's frames stopped."""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import time
from collections.abc import Callable
from typing import Any

import pytest
from playwright.async_api import Error as PlaywrightError

from argus.errors import SensorError
from argus.frameworks import Framework, ServerPreset, SettleRule, get_framework
from argus.sense.framework_settle import (
    QUIET_S,
    FrameworkSettle,
    framework_settle,
    settle_framework,
    settle_framework_sync,
)


class FakeSocket:
    def __init__(self) -> None:
        self.listeners: dict[str, Callable[[Any], None]] = {}

    def on(self, event: str, handler: Callable[[Any], None]) -> None:
        self.listeners[event] = handler


class FakePage:
    """Answers each evaluation with the next of ``answers`` (the last one repeats), calling
    ``during`` (a websocket frame, say) while the evaluation 'renders its frames'."""

    def __init__(self, answers: list[object]) -> None:
        self.answers = answers
        self.scripts: list[str] = []
        self.listeners: dict[str, list[Callable[[Any], None]]] = {}
        self.during: list[Callable[[], None]] = []

    def on(self, event: str, handler: Callable[[Any], None]) -> None:
        self.listeners.setdefault(event, []).append(handler)

    def remove_listener(self, event: str, handler: Callable[[Any], None]) -> None:
        self.listeners[event].remove(handler)

    async def evaluate(self, script: str) -> object:
        self.scripts.append(script)
        await asyncio.sleep(0)
        if self.during:
            self.during.pop(0)()
        return self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]


def _framework(websocket: bool) -> Framework:
    return Framework(
        name="fake",
        title="Fake",
        server=ServerPreset(command="serve {port}", port=1),
        settle=SettleRule(ready="() => window.idle", websocket=websocket, markers="window.idle"),
        fixture_input="query parameters",
    )


def test_settled_only_once_the_frameworks_function_says_so() -> None:
    page = FakePage([False, False, True])
    settle = FrameworkSettle(page, _framework(websocket=False))  # type: ignore[arg-type]
    assert asyncio.run(settle.wait(5.0)) is True
    assert len(page.scripts) == 3
    # The function is asked again after two frames, in the page.
    assert "window.idle" in page.scripts[0] and "requestAnimationFrame" in page.scripts[0]


def test_never_ready_is_false_once_the_time_is_up() -> None:
    page = FakePage([False])
    settle = FrameworkSettle(page, _framework(websocket=False))  # type: ignore[arg-type]
    assert asyncio.run(settle.wait(0.1)) is False


def test_a_truthy_answer_that_is_not_true_is_not_settled() -> None:
    page = FakePage(["yes"])
    settle = FrameworkSettle(page, _framework(websocket=False))  # type: ignore[arg-type]
    assert asyncio.run(settle.wait(0.1)) is False


def test_a_websocket_frame_during_the_check_means_look_again() -> None:
    page = FakePage([True])
    settle = FrameworkSettle(page, _framework(websocket=True))  # type: ignore[arg-type]
    socket = FakeSocket()
    (opened,) = page.listeners["websocket"]
    opened(socket)
    # Each of the first three checks sees a frame arrive (a round-trip still going on).
    page.during = [lambda: socket.listeners["framereceived"]("delta")] * 3
    assert asyncio.run(settle.wait(5.0)) is True
    assert len(page.scripts) >= 4


def test_frames_that_never_stop_never_settle() -> None:
    page = FakePage([True])
    settle = FrameworkSettle(page, _framework(websocket=True))  # type: ignore[arg-type]
    socket = FakeSocket()
    page.listeners["websocket"][0](socket)
    page.during = [lambda: socket.listeners["framesent"]("ping")] * 10_000
    assert asyncio.run(settle.wait(0.2)) is False


def test_a_framework_without_a_socket_does_not_listen_for_one() -> None:
    page = FakePage([True])
    FrameworkSettle(page, _framework(websocket=False))  # type: ignore[arg-type]
    assert "websocket" not in page.listeners
    watching = FrameworkSettle(page, _framework(websocket=True))  # type: ignore[arg-type]
    watching.detach()
    assert page.listeners["websocket"] == []


def test_no_framework_no_watch() -> None:
    assert framework_settle(FakePage([True]), "") is None  # type: ignore[arg-type]
    watch = framework_settle(FakePage([True]), "panel")  # type: ignore[arg-type]
    assert watch is not None and watch.framework is get_framework("panel")


class QuietNetwork:
    def __init__(self, idle: bool) -> None:
        self.idle = idle
        self.waits = 0
        self.timeouts: list[float] = []

    async def wait_idle(self, timeout: float) -> bool:
        self.waits += 1
        self.timeouts.append(timeout)
        return self.idle


def test_a_page_that_never_settles_names_the_framework_and_its_markers() -> None:
    settle = FrameworkSettle(FakePage([False]), _framework(websocket=False))  # type: ignore[arg-type]
    network = QuietNetwork(idle=True)
    with pytest.raises(
        SensorError, match=r"view: the Fake page never settled in 0.1s \(waited for: window.idle\)"
    ):
        asyncio.run(settle_framework(settle, network, 0.1, "view"))  # type: ignore[arg-type]
    assert network.waits == 0


def test_after_the_framework_settles_the_network_must_be_quiet_again() -> None:
    settle = FrameworkSettle(FakePage([True]), _framework(websocket=False))  # type: ignore[arg-type]
    busy = QuietNetwork(idle=False)
    with pytest.raises(SensorError, match="kept loading"):
        asyncio.run(settle_framework(settle, busy, 1.0, "view"))  # type: ignore[arg-type]
    quiet = QuietNetwork(idle=True)
    asyncio.run(settle_framework(settle, quiet, 1.0, "view"))  # type: ignore[arg-type]
    assert quiet.waits == 1 and busy.timeouts == quiet.timeouts == [1.0]  # the same bound
    asyncio.run(settle_framework(None, quiet, 1.0, "view"))  # type: ignore[arg-type]
    assert quiet.waits == 1


def test_a_framework_without_a_socket_detaches_nothing() -> None:
    page = FakePage([True])
    FrameworkSettle(page, _framework(websocket=False)).detach()  # type: ignore[arg-type]
    assert page.listeners == {}


class GonePage(FakePage):
    """Its first evaluations fail as a navigation would fail them, then it answers."""

    def __init__(self, failures: int, answer: object) -> None:
        super().__init__([answer])
        self.failures = failures

    async def evaluate(self, script: str) -> object:
        if self.failures:
            self.failures -= 1
            self.scripts.append(script)
            raise PlaywrightError("Execution context was destroyed")
        return await super().evaluate(script)


def test_a_document_changing_under_the_check_means_look_again() -> None:
    page = GonePage(failures=2, answer=True)
    settle = FrameworkSettle(page, _framework(websocket=False))  # type: ignore[arg-type]
    assert asyncio.run(settle.wait(5.0)) is True
    assert len(page.scripts) == 3


class HungPage(FakePage):
    async def evaluate(self, script: str) -> object:
        self.scripts.append(script)
        await asyncio.sleep(60)
        return True


def test_a_check_that_never_answers_is_given_up_at_the_deadline() -> None:
    page = HungPage([True])
    settle = FrameworkSettle(page, _framework(websocket=False))  # type: ignore[arg-type]
    started = time.monotonic()
    assert asyncio.run(settle.wait(0.2)) is False
    assert len(page.scripts) == 1 and time.monotonic() - started < 30


def test_a_frame_just_before_the_check_waits_for_the_socket_to_be_quiet() -> None:
    page = FakePage([True])
    settle = FrameworkSettle(page, _framework(websocket=True))  # type: ignore[arg-type]
    socket = FakeSocket()
    page.listeners["websocket"][0](socket)
    socket.listeners["framereceived"]("delta")
    framed = time.monotonic()
    assert asyncio.run(settle.wait(30.0)) is True
    # Ready at once, but not settled until QUIET_S passed without a frame: asked again.
    assert len(page.scripts) >= 2 and time.monotonic() - framed >= QUIET_S


class SyncPage:
    """Playwright's sync page as settle_framework_sync uses it: wait_for_function answers
    (or raises) in turn, evaluate answers the two-frame check in turn."""

    url = "http://127.0.0.1:1/view"

    def __init__(self, waits: list[object], checks: list[object]) -> None:
        self.waits = waits
        self.checks = checks
        self.asked: list[tuple[str, float]] = []
        self.scripts: list[str] = []

    def wait_for_function(self, script: str, timeout: float) -> None:
        self.asked.append((script, timeout))
        outcome = self.waits.pop(0) if len(self.waits) > 1 else self.waits[0]
        if isinstance(outcome, Exception):
            raise outcome

    def evaluate(self, script: str) -> object:
        self.scripts.append(script)
        return self.checks.pop(0) if len(self.checks) > 1 else self.checks[0]


def test_the_sync_rule_asks_the_function_then_checks_it_after_two_frames() -> None:
    page = SyncPage(waits=[None], checks=[False, "yes", True])
    settle_framework_sync(page, "server-rendered", 10.0)  # type: ignore[arg-type]
    ready = get_framework("server-rendered").settle.ready
    assert [script for script, _ in page.asked] == [ready] * 3
    assert all(0 < ms <= 10_000 for _, ms in page.asked)  # the time left, in milliseconds
    assert page.asked[0][1] > 5_000
    assert len(page.scripts) == 3
    assert ready in page.scripts[0] and "requestAnimationFrame" in page.scripts[0]


def test_the_sync_rule_without_a_framework_asks_nothing() -> None:
    page = SyncPage(waits=[PlaywrightError("unused")], checks=[False])
    settle_framework_sync(page, "", 0.1)  # type: ignore[arg-type]
    assert page.asked == [] and page.scripts == []


def test_the_sync_rule_never_holding_names_the_page_framework_and_markers() -> None:
    page = SyncPage(waits=[PlaywrightError("Timeout 100ms exceeded.")], checks=[True])
    markers = get_framework("server-rendered").settle.markers
    title = get_framework("server-rendered").title
    with pytest.raises(SensorError) as refused:
        settle_framework_sync(page, "server-rendered", 0.5)  # type: ignore[arg-type]
    assert str(refused.value) == (
        f"http://127.0.0.1:1/view: the {title} page never settled in 0.5s (waited for: {markers})"
    )
    assert len(page.asked) == 1 and page.scripts == []


def test_the_sync_rule_gives_up_when_the_check_never_holds_in_time() -> None:
    page = SyncPage(waits=[None], checks=[False])
    with pytest.raises(SensorError, match=r"never settled in 0\.2s"):
        settle_framework_sync(page, "server-rendered", 0.2)  # type: ignore[arg-type]
    assert len(page.scripts) >= 1


class SlowPage(FakePage):
    """Each check takes ``QUIET_S`` twice over after its frame: the socket looks quiet again
    by the answer, and only the frame count shows the frame came during the check."""

    async def evaluate(self, script: str) -> object:
        answer = await super().evaluate(script)
        await asyncio.sleep(2 * QUIET_S)
        return answer


def test_a_frame_during_a_slow_check_is_counted_though_the_socket_is_quiet_by_its_end() -> None:
    page = SlowPage([True])
    settle = FrameworkSettle(page, _framework(websocket=True))  # type: ignore[arg-type]
    socket = FakeSocket()
    page.listeners["websocket"][0](socket)
    page.during = [lambda: socket.listeners["framereceived"]("delta")] * 3
    assert asyncio.run(settle.wait(30.0)) is True
    assert len(page.scripts) == 4  # settled on the first check no frame came during


def _check_in_node(check: str, idle: str) -> list[object]:
    """The page's check (an async function's source) run by Node, ``window.idle`` answering
    ``idle`` (JavaScript: a function of how many times it was read, 1 first) and each
    requestAnimationFrame drawing its frame on the next turn: [the check's answer, frames
    asked, reads of ``window.idle``]."""
    program = (
        "let frames = 0, reads = 0;\n"
        "globalThis.requestAnimationFrame = (draw) => { frames += 1; setTimeout(draw, 0); };\n"
        f"globalThis.window = {{ get idle() {{ reads += 1; return ({idle})(reads); }} }};\n"
        f"({check})().then((answer) => console.log(JSON.stringify([answer, frames, reads])));\n"
    )
    node = shutil.which("node")
    assert node is not None
    done = subprocess.run(
        [node, "-e", program], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    return list(json.loads(done.stdout))


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is absent (Lighthouse needs it)")
@pytest.mark.parametrize(
    ("idle", "outcome"),
    [
        ("(n) => true", [True, 2, 2]),  # ready, and still ready two frames later
        ("(n) => false", [False, 0, 1]),  # not ready: no frames waited for
        ("(n) => n === 1", [False, 2, 2]),  # ready, then not once two frames were drawn
        ("(n) => 'idle'", [True, 2, 2]),  # a truthy answer held is true itself
    ],
)
def test_the_check_the_page_runs_asks_the_function_again_two_frames_later(
    idle: str, outcome: list[object]
) -> None:
    page = FakePage([True])
    asyncio.run(FrameworkSettle(page, _framework(websocket=False)).wait(1.0))  # type: ignore[arg-type]
    assert _check_in_node(page.scripts[0], idle) == outcome
