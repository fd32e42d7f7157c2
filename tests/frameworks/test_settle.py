"""A framework's settle rule on a page (argus.sense.framework_settle), on a fake page: ready
only when the framework's function says so before and after two frames, and, for a websocket
framework, once the socket's frames stopped."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from argus.errors import SensorError
from argus.frameworks import Framework, ServerPreset, SettleRule, get_framework
from argus.sense.framework_settle import FrameworkSettle, framework_settle, settle_framework


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

    async def wait_idle(self, timeout: float) -> bool:
        self.waits += 1
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
    assert quiet.waits == 1
    asyncio.run(settle_framework(None, quiet, 1.0, "view"))  # type: ignore[arg-type]
    assert quiet.waits == 1
