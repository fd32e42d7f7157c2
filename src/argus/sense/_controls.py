"""Dead controls: each enabled control of a view, activated once in a throw-away copy of it.

A button that does nothing renders exactly like one that works, so no screenshot or probe of
the view can tell them apart, and an expectation finds it only when the spec scripts that very
step. So after the capture, the view is loaded again on a page of its own (another context of
the same browser: no cookies or storage shared with the sensed page), the state's steps are
replayed there, and each shown, enabled control is activated in turn (``el.click()``; a select
gets its next option), watched from an isolated world (argus.sense.world):

- ``dom``: any DOM mutation (a MutationObserver over the whole document);
- ``focus``: the focus moved somewhere other than the control;
- ``value``: a form control's own state changed (a checkbox that checks);
- ``url``: the URL changed (an empty fragment, ``#``, does not count);
- ``scroll``: the window scrolled;
- ``request``: the page asked for anything (every request is held, aborted and recorded, so
  no activation reaches the app's server: a "Delete" deletes nothing); the watch ends once the
  route has heard of all the renderer said it set out to fetch (``_caught_up``);
- ``message``: the page sent a message on one of its websockets (how Streamlit, NiceGUI and
  Panel tell their server a widget changed); held like a request: counted, never delivered.
  A message the page also sends unprompted does not count (``Unprompted``): a keep-alive of a
  common protocol, or one identical to a message it sent while no activation was watched (a
  heartbeat on a timer, whatever its timing, cannot make a dead control look live);
- ``dialog``, ``page``: an alert/confirm/prompt (dismissed), a new window (closed);
- ``storage``, ``clipboard``, ``print``: the copy's init script reports these calls.

A control none of these follow is ``dead``. Loading the copy and its steps repeats what sensing
the view did (as sensing it twice would); only what activations send is held. After a control
that did something, the copy is loaded again, so each control starts from the view's state
(its cookies and storage forgotten, as a control may have saved something there).
Copies side by side (``copies``, ``[sense] control_copies``): each on a page of its own
context; the first is loaded alone, then the next ones load on other pages (reads only) while
a control is watched, and a spent copy loads again behind them while more will be needed. The
controls are still activated one at a time, in order, each on a fresh copy or one where only
dead controls were activated, as with one copy: only the loads overlap.
Controls are taken in document order, at most ``limit`` (``[sense] max_controls``): the rest are
counted, never guessed. Which of them a spec declares inert is the judge's business
(functional_correctness reads controls.json with the spec's ``inert`` selectors).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import re
import time
from collections import deque
from collections.abc import Awaitable, Callable
from contextlib import suppress
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from playwright.async_api import Dialog, Page, Request, Route, WebSocketRoute
from playwright.async_api import Error as PlaywrightError

from argus.errors import SensorError
from argus.sense._pages import WarmPage
from argus.sense._steps import run_steps
from argus.sense.framework_settle import framework_settle, settle_framework
from argus.sense.page_state import FONTS_READY_JS, NetworkMonitor
from argus.sense.world import evaluate_in, isolated_world_request, main_frame_id

CONTROLS_VERSION = 2  # 2: ambient, not_counted
WORLD = "argus-controls"
MAX_REQUESTS_LISTED = 5
# The longest the probe watches a copy at rest, before it judges, to learn what the page sends
# on its own (a poll it saw only during activations): enough to see a poll of up to about
# 0.5 s twice, which is what tells a poll (its counter changes) from a control's request.
LEARN_S = 1.0
LEARN_POLL_S = 0.02
# What a copy's document may send after an activation (EFFECTS_INIT_JS), and what the probe
# records of one activation: a flood (a timer fetching every millisecond) stays bounded.
MAX_HELD_SENDS = 200
MAX_HELD = 256
# The renderer's events that say what a control set out to fetch (``_caught_up``): Network is
# on in Argus's session for the page's life (page_state.watch_sockets), Page only while an
# activation is watched.
RENDERER_DOMAINS = ("Page",)
# After an activation: the page's handlers run, then a short timer and two frames, so what a
# handler starts with setTimeout(0), a promise or the next frame is seen.
SETTLE_JS = (
    "() => new Promise(r => setTimeout(() => requestAnimationFrame(() => "
    "requestAnimationFrame(() => r(true))), 0))"
)
# In the copy only (its own context): calls that leave no trace in the DOM are reported to
# the world by an event; the sensed page never runs this.
EFFECTS_INIT_JS = """(() => {
  const note = (kind) => { try { document.dispatchEvent(new Event("argus-effect:" + kind)); }
                           catch (e) {} };
  const wrap = (owner, name, kind) => {
    const f = owner && owner[name];
    if (typeof f !== "function") return;
    owner[name] = function (...args) { note(kind); return f.apply(this, args); };
  };
  for (const name of ["setItem", "removeItem", "clear"]) wrap(Storage.prototype, name, "storage");
  const clipboard = window.Clipboard && Clipboard.prototype;
  for (const name of ["writeText", "write"]) wrap(clipboard, name, "clipboard");
  wrap(Document.prototype, "execCommand", "clipboard");
  wrap(window, "print", "print");
  // From each activation on (the world's arm event) the document may send at most
  // MAX_HELD_SENDS requests through fetch, XMLHttpRequest and sendBeacon; beyond that they
  // fail here, as a held one fails anyway, never asking Argus: a control that starts a timer
  // sending every millisecond cannot flood the probe. Its websocket messages have a budget
  // of their own in COPY_SOCKETS_JS: Playwright's stand-in replaces the WebSocket class after
  // this script, so a wrapper of the native send here would never run.
  let budget = Infinity;
  document.addEventListener("argus-arm", () => { budget = MAX_HELD_SENDS; }, true);
  const spend = () => { if (budget <= 0) return false; budget -= 1; return true; };
  const refuse = (owner, name, refused) => {
    const f = owner && owner[name];
    if (typeof f !== "function") return;
    owner[name] = function (...args) { return spend() ? f.apply(this, args) : refused(this); };
  };
  refuse(window, "fetch", () => Promise.reject(new TypeError("Failed to fetch")));
  refuse(XMLHttpRequest.prototype, "send", (xhr) => { xhr.abort(); });
  refuse(Navigator.prototype, "sendBeacon", () => false);
})();""".replace("MAX_HELD_SENDS", str(MAX_HELD_SENDS))


# In the copy only, after Playwright's websocket stand-in is in place (its init script comes
# after EFFECTS_INIT_JS):
# - each message the page hands one of its sockets is told to the world, which counts those
#   sent while it watches (``sent`` in its effects). The route hears of them through
#   Playwright's driver, not in order with the world's answer, so the probe waits until it has
#   heard as many (``_Held.caught_up``); a send that throws (a socket not open) is not told;
# - from each activation on, the document may send at most MAX_HELD_SENDS messages; beyond
#   that a send does nothing and is not told, so a flood of messages never reaches the route;
# - every socket the page makes is kept, and SOCKETS_OPEN_JS waits until none is still
#   connecting. A stand-in socket opens only once Argus's route has connected it and the
#   server answered, and the browser makes the real socket only when the route connects it,
#   so the renderer's own events cannot tell the copy is waiting for one before then.
COPY_SOCKETS_JS = """(() => {
  const Socket = globalThis.WebSocket;
  const proto = Socket && Socket.prototype;
  const send = proto && proto.send;
  if (typeof send !== "function") return;
  let budget = Infinity;
  document.addEventListener("argus-arm", () => { budget = MAX_HELD_SENDS; }, true);
  proto.send = function (...args) {
    if (budget <= 0) return undefined;
    budget -= 1;
    const done = send.apply(this, args);
    try { document.dispatchEvent(new Event("argus-sent")); } catch (e) {}
    return done;
  };
  let connecting = [];
  globalThis.WebSocket = new Proxy(Socket, {
    construct(target, args, newTarget) {
      const socket = Reflect.construct(target, args, newTarget);
      connecting.push(socket);
      return socket;
    },
  });
  Object.defineProperty(globalThis, "__argusSocketsOpen", {
    value: () => new Promise((resolve) => {
      let waited = false;
      const check = () => {
        connecting = connecting.filter((socket) => socket.readyState === 0);
        if (!connecting.length) { resolve(waited); return; }
        waited = true;
        setTimeout(check, 5);
      };
      check();
    }),
  });
})();""".replace("MAX_HELD_SENDS", str(MAX_HELD_SENDS))
# In the copy's main world: whether it had to wait for a socket (False at once when none is
# connecting); absent (null) on a document the init script did not run in.
SOCKETS_OPEN_JS = "() => globalThis.__argusSocketsOpen ? globalThis.__argusSocketsOpen() : false"


# A message as remembered: its digest, and for text with digits in it the digest of its
# shape (each run of digits one ``#``): a heartbeat that carries a counter or a time.
MessageKey = tuple[str, str | None]
DIGITS = re.compile(r"[0-9]+")
MAX_LEARNED = 4096  # messages (and shapes) remembered per probe: a flood learns no more
MAX_KEEP_ALIVE_CHARS = 512
# Keep-alives of common protocols: sent on a timer whatever the user does, so never a
# control's effect, even when the probe never saw the page send one unprompted.
# engine.io (socket.io, NiceGUI, Flask-SocketIO): ping, pong, the upgrade probe, upgrade, noop.
ENGINE_IO_KEEP_ALIVE = frozenset({"2", "3", "2probe", "3probe", "5", "6"})


def message_key(message: str | bytes) -> MessageKey:
    if isinstance(message, bytes):
        return "b:" + hashlib.sha256(message).hexdigest(), None
    exact = "s:" + hashlib.sha256(message.encode("utf-8", "surrogatepass")).hexdigest()
    if not DIGITS.search(message):
        return exact, None
    shape = DIGITS.sub("#", message).encode("utf-8", "surrogatepass")
    return exact, hashlib.sha256(shape).hexdigest()


def request_key(method: str, url: str, body: bytes | None) -> MessageKey:
    """A request as remembered (never recorded): its method, URL (query included, fragment
    not) and body, as one text whose shape is taken as a message's (digits aside)."""
    head = f"{method} {url.split('#', 1)[0]}\n"
    return message_key(head + (body or b"").decode("utf-8", "surrogateescape"))


def keep_alive(url: str, message: str | bytes) -> bool:
    """Whether ``message``, sent on the websocket at ``url``, is a known keep-alive: an
    engine.io ping, pong or probe frame (a socket.io URL: ``EIO=`` in its query), a Phoenix
    heartbeat, a graphql-ws ping or pong, a SignalR ping."""
    if isinstance(message, bytes) or len(message) > MAX_KEEP_ALIVE_CHARS:
        return False
    text = message.strip()
    if "EIO=" in urlsplit(url).query:
        return text in ENGINE_IO_KEEP_ALIVE
    try:
        data = json.loads(text.rstrip("\x1e"))  # SignalR ends each message with RS
    except ValueError:
        return False
    if isinstance(data, list) and len(data) == 5:  # Phoenix v2: [join, ref, topic, event, {}]
        return data[2:4] == ["phoenix", "heartbeat"]
    if not isinstance(data, dict):
        return False
    if data.get("topic") == "phoenix" and data.get("event") == "heartbeat":  # Phoenix v1
        return True
    if data.get("type") in ("ping", "pong") and set(data) <= {"type", "payload"}:  # graphql-ws
        return True
    return data == {"type": 6}  # SignalR ping


class Unprompted:
    """What the copy's page sends on its websockets while no activation is watched (during
    loads, between activations): the page sends it on its own, so a held message identical to
    one of these, whenever it comes, is no control's doing. Neither is one of the same shape
    (digits aside) as unprompted messages that differed only in their digits ("tick 41",
    "tick 42"). Anything else still counts: a message that differs is the control's."""

    def __init__(self) -> None:
        self._exact: set[str] = set()
        self._shapes: dict[str, str] = {}  # shape -> the first message of that shape
        self._varying: set[str] = set()  # shapes seen with different digits

    def learn(self, key: MessageKey) -> None:
        exact, shape = key
        if len(self._exact) < MAX_LEARNED:
            self._exact.add(exact)
        if shape is None:
            return
        first = self._shapes.get(shape)
        if first is None and len(self._shapes) < MAX_LEARNED:
            self._shapes[shape] = exact
        elif first is not None and first != exact:
            self._varying.add(shape)

    def knows(self, key: MessageKey) -> bool:
        exact, shape = key
        return exact in self._exact or (shape is not None and shape in self._varying)


@dataclass
class _Seen:
    """What followed one activation, before the page's own doings are told from it."""

    kinds: list[str] = field(default_factory=list)  # what the world saw, dialogs, windows
    requests: list[tuple[MessageKey, str]] = field(default_factory=list)
    messages: list[MessageKey] = field(default_factory=list)
    dom: list[str] | None = field(default_factory=list)  # mutation shapes; None: too many


class _Shapes:
    """What a neutral click did (``ambient``): a request or message of the same shape (the
    same, digits aside) is no control's doing."""

    def __init__(self, keys: list[MessageKey]) -> None:
        self._exact = {exact for exact, _ in keys}
        self._shapes = {shape for _, shape in keys if shape is not None}

    def has(self, key: MessageKey) -> bool:
        exact, shape = key
        return exact in self._exact or (shape is not None and shape in self._shapes)


@dataclass
class _Held:
    """What the copy asked of the outside world while an activation was watched."""

    holding: bool = False
    # Loading the copy again (after a control that did something): reads only. The first load
    # repeats what sensing the view did; the next ones would repeat a state's writes again and
    # again, so a request that is not GET or HEAD is refused there (the view may then differ,
    # and its controls are found no more: not measured, never guessed).
    reloading: bool = False
    watching: bool = False  # an activation is watched (from arm to effects)
    # What the page does now is not its own doing: the copy's load and the state's steps
    # (not the waits after them), or a document where a control did something (its timers).
    prompted: bool = False
    # Spent from its activation until the probe has judged that nothing followed: what a
    # control's timers send while the watch winds down is never learned as a poll.
    spent: bool = False
    # Requests the page made while the activation was watched: remembered (never recorded)
    # and as recorded (method and path).
    requests: list[tuple[MessageKey, str]] = field(default_factory=list)
    # Websocket messages the page sent while the activation was watched (never delivered).
    messages: list[MessageKey] = field(default_factory=list)
    # What the page sent (messages) and asked for (requests: a poll on a timer) on its own,
    # over every copy; and what each control's activation did (its index): judged at the end,
    # against all the page was seen to do unprompted by then.
    unprompted: Unprompted = field(default_factory=Unprompted)
    polled: Unprompted = field(default_factory=Unprompted)
    seen: dict[int, _Seen] = field(default_factory=dict)
    dialogs: int = 0
    pages: int = 0
    closing: set[asyncio.Future[None]] = field(default_factory=set)  # dismissing, closing
    # What the copy's renderer said it set out to do while an activation was armed and
    # activated (``_Started``): the requests not over yet, whether it asked to navigate, and
    # whether a navigation has reached the route since, or the frame stopped loading without
    # one (the page cancelled it: window.stop(), another navigation).
    counting: bool = False
    started: set[str] = field(default_factory=set)
    navigating: bool = False
    navigated: bool = False
    stopped: bool = False
    # Messages the world saw the page send while it watched, and those the route has heard
    # of since the watch began (a message sent just before it may be among them).
    sent: int = 0
    heard_sent: int = 0
    heard: asyncio.Event = field(default_factory=asyncio.Event)

    def later(self, work: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(_quietly(work))
        self.closing.add(task)
        task.add_done_callback(self.closing.discard)

    def clear(self) -> None:
        self.requests.clear()
        self.messages.clear()
        self.dialogs = self.pages = 0
        self.started.clear()
        self.navigating = self.navigated = self.stopped = False
        self.sent = self.heard_sent = 0

    def caught_up(self) -> bool:
        """Whether the route has heard of all the renderer said it set out to do (a
        navigation the page cancelled never reaches it) and of every message the world saw
        the page send."""
        return (
            not self.started
            and (self.navigated or self.stopped or not self.navigating)
            and self.heard_sent >= self.sent
        )


class SocketHold:
    """The copy's websockets, routed through Argus once per context (a context keeps its
    websocket routes): messages pass both ways, except that what the page sends while the
    probe holds is never delivered, as its requests are held. What it sends while an
    activation is watched is recorded (a known keep-alive aside); everything else it sends
    while probed is learned as unprompted (``Unprompted``)."""

    def __init__(self) -> None:
        self.held: _Held | None = None

    def route(self, socket: WebSocketRoute) -> None:
        server = socket.connect_to_server()
        url = socket.url

        def from_page(message: str | bytes) -> None:
            held = self.held
            if held is not None and held.watching:
                held.heard_sent += 1
                held.heard.set()
                if not keep_alive(url, message) and len(held.messages) < MAX_HELD:
                    held.messages.append(message_key(message))
            elif held is not None and not held.spent:
                held.unprompted.learn(message_key(message))
            if held is None or not held.holding:
                server.send(message)

        socket.on_message(from_page)


@dataclass(frozen=True)
class CopyView:
    """How to bring the copy to the view's state: its URL and the state's steps."""

    url: str
    slug: str
    steps: tuple[Any, ...]
    timeout_s: float
    prepare: Callable[[WarmPage], Awaitable[None]]  # viewport and colour scheme, as sensed
    framework: str = ""  # the project's framework: its settle rule applies to the copy too


# Takes one more page for the copies (a context of its own, kept by the caller, who resets
# or closes every page it handed out once the probe is over).
TakePage = Callable[[], Awaitable[WarmPage]]


def copies_for(setting: int, limit: int) -> int:
    """How many copies the probe keeps side by side: ``[sense] control_copies``, or with 0
    (auto) two on a machine with more than one core, else one; never more than controls."""
    wanted = setting if setting > 0 else (2 if (os.cpu_count() or 1) > 1 else 1)
    return max(1, min(wanted, limit))


class _Copy:
    """One page the view is copied on, with what its activations asked of the outside world
    held (its own context: routes, listeners and storage are its own)."""

    def __init__(self, warm: WarmPage, view: CopyView, probe: _Held) -> None:
        self.warm = warm
        self.view = view
        self.held = _Held(unprompted=probe.unprompted, polled=probe.polled, seen=probe.seen)
        self.world = 0
        self.frame = ""  # the main frame's id: the same for every document the page loads
        self.loaded = False  # at the view's state, as loaded (until activated or loaded again)

    async def attach(self) -> None:
        warm, held, view = self.warm, self.held, self.view

        async def route(route: Route, request: Request) -> None:
            if held.watching:
                key = request_key(request.method, request.url, request.post_data_buffer)
                if len(held.requests) < MAX_HELD:
                    label = f"{request.method} {_path(request.url, view.url)}"
                    held.requests.append((key, label))
                held.navigated = held.navigated or request.is_navigation_request()
                held.heard.set()
            elif not (held.prompted or held.spent):
                held.polled.learn(
                    request_key(request.method, request.url, request.post_data_buffer)
                )
            if not held.holding:
                if held.reloading and request.method not in ("GET", "HEAD"):
                    await route.abort()
                else:
                    await route.fallback()
                return
            if request.is_navigation_request():
                # No Content: the browser stays on the document (an aborted navigation would
                # put an error page in its place).
                await route.fulfill(status=204)
            else:
                await route.abort()

        self._route = route
        if not warm.effects_reported:
            await warm.context.add_init_script(EFFECTS_INIT_JS)
            warm.effects_reported = True
        if warm.socket_hold is None:
            warm.socket_hold = SocketHold()
            await warm.context.route_web_socket(re.compile(r"^wss?://"), warm.socket_hold.route)
            await warm.context.add_init_script(COPY_SOCKETS_JS)
        warm.socket_hold.held = held
        await warm.context.route("**/*", route)
        warm.page.on("dialog", self._on_dialog)
        warm.context.on("page", self._on_page)
        for event, listener in self._renderer_events():
            warm.session.on(event, listener)

    def _renderer_events(self) -> list[tuple[str, Callable[[dict[str, Any]], None]]]:
        return [
            ("Network.requestWillBeSent", self._on_request_started),
            ("Network.loadingFinished", self._on_request_over),
            ("Network.loadingFailed", self._on_request_over),
            ("Network.requestServedFromCache", self._on_request_over),
            ("Page.frameRequestedNavigation", self._on_navigation_asked),
            ("Page.frameStoppedLoading", self._on_stopped_loading),
        ]

    def _on_request_started(self, event: dict[str, Any]) -> None:
        # A navigation's own request is told by the browser, not in the renderer's order:
        # the renderer's word for it is frameRequestedNavigation.
        request = event.get("request", {})
        held = self.held
        room = len(held.started) < MAX_HELD
        if held.counting and room and event.get("type") != "Document" and _fetched(request):
            held.started.add(str(event.get("requestId")))

    def _on_request_over(self, event: dict[str, Any]) -> None:
        self.held.started.discard(str(event.get("requestId")))
        self.held.heard.set()

    def _on_navigation_asked(self, event: dict[str, Any]) -> None:
        held, url = self.held, str(event.get("url", ""))
        if not held.counting or event.get("frameId") != self.frame:
            return
        if event.get("disposition", "currentTab") != "currentTab" or not _fetched({"url": url}):
            return
        here = self.warm.page.url
        if "#" in url and url.split("#", 1)[0] == here.split("#", 1)[0]:
            return  # a fragment of this document: no request
        held.navigating = True

    def _on_stopped_loading(self, event: dict[str, Any]) -> None:
        # A held navigation ends only once the route has answered it, so this comes after the
        # route heard of it; a navigation the page cancelled ends here without reaching it.
        held = self.held
        if held.navigating and event.get("frameId") == self.frame:
            held.stopped = True
            held.heard.set()

    def _on_dialog(self, dialog: Dialog) -> None:
        self.held.dialogs += 1
        self.held.later(dialog.dismiss())

    def _on_page(self, other: Page) -> None:
        self.held.pages += 1
        self.held.later(other.close())

    async def leave(self) -> None:
        """Leave the document while holding, unless the copy is at rest as loaded (neither
        activated nor stopped halfway through its load): nothing of a control's to send."""
        if self.held.holding or not self.loaded:
            self.held.holding = True
            # Gone once the blank document commits: no need to wait for its load.
            await _quietly(self.warm.page.goto("about:blank", wait_until="commit"))

    async def detach(self) -> None:
        warm, held = self.warm, self.held
        held.holding = False
        if warm.socket_hold is not None:
            warm.socket_hold.held = None
        warm.page.remove_listener("dialog", self._on_dialog)
        warm.context.remove_listener("page", self._on_page)
        for event, listener in self._renderer_events():
            warm.session.remove_listener(event, listener)
        if held.closing:
            await asyncio.gather(*held.closing)
        await _quietly(warm.context.unroute_all(behavior="ignoreErrors"))

    async def load(self, *, first: bool) -> _Copy:
        """The copy at the view's state, the world defined in it. Only the ``first`` load may
        write; every later one reads only (``_Held.reloading``)."""
        if self.held.holding:
            # Leave the activated document while still holding (a request its timers send
            # on the way out is held like the rest), and forget what it stored: the copy
            # starts again where the sensed page started. Only then may the view's own
            # loading go out.
            await self.warm.forget()
        self.loaded = False
        self.held.reloading = not first
        self.held.holding = self.held.spent = False
        await _load(self.warm, self.view, self.held)
        session = self.warm.session
        if not self.frame:
            self.frame = main_frame_id(await session.send("Page.getFrameTree"))
        world = await session.send(
            "Page.createIsolatedWorld", isolated_world_request(self.frame, WORLD)
        )
        self.world = int(world["executionContextId"])
        self.loaded = True
        return self

    async def controls(self, limit: int) -> tuple[int, list[dict[str, Any]]]:
        """How many controls the copy has, and the first ``limit`` of them described
        (``__argusControls.list``), the world's script defined first in the same call when
        this document's world has none yet. Only those can be activated, so only they are
        described and sent over: on a page of 20,000 rows the whole list was 10 MB of JSON."""
        listed = await _call(self, _list_js(limit))
        return int(listed["found"]), list(listed["described"])


async def probe_controls(
    take: TakePage, view: CopyView, limit: int, copies: int = 1
) -> dict[str, Any]:
    """controls.json for ``view``, measured on pages ``take`` gives (never the render's).

    The controls are activated one at a time, in document order, as on a single copy; with
    ``copies`` above one, the next copies of the view are loaded on other pages while a
    control is watched, so a control that did something finds a fresh copy ready (or soon).
    A copy that cannot be brought to the view's state gives ``error`` and no controls: nothing
    was measured, which the judge says, never a clean result."""
    probe = _Probe(take, view, max(1, copies))
    try:
        return await probe.run(limit)
    except (SensorError, PlaywrightError, TimeoutError) as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return {"version": CONTROLS_VERSION, "url": view.url, "error": reason, "controls": []}
    finally:
        await probe.close()


class _Probe:
    def __init__(self, take: TakePage, view: CopyView, copies: int) -> None:
        self.take = take
        self.view = view
        self.copies = copies
        # What the page sends on its own, and what each activation sent, over every copy.
        self.held = _Held()
        self.attached: list[_Copy] = []
        # Copies loading or loaded, in the order the controls will use them.
        self.ready: deque[asyncio.Task[_Copy]] = deque()

    async def _new_copy(self) -> _Copy:
        copy = _Copy(await self.take(), self.view, self.held)
        self.attached.append(copy)
        await copy.attach()
        return copy

    async def _fresh(self) -> _Copy:
        return await (await self._new_copy()).load(first=False)

    async def run(self, limit: int) -> dict[str, Any]:
        copy = await (await self._new_copy()).load(first=True)
        found, chosen = await copy.controls(limit)
        # The loads after the first only read, and start once it is over (its writes done).
        for _ in range(min(self.copies, len(chosen)) - 1):
            self.ready.append(asyncio.ensure_future(self._fresh()))
        # What a click on the page's body does (a click tracker): measured on the first copy,
        # before any control, under the same watch; a copy it changed is loaded again.
        ambient: _Seen | None = None
        fresh = True
        if chosen:
            refused, ambient = await _activate(copy, None)
            ambient = None if refused else ambient
            # What it asked for was held: only a change in the document spends the copy.
            fresh = ambient is None or not ambient.kinds
            copy.held.spent = not fresh
        controls: list[dict[str, Any]] = []
        listed = chosen  # the controls of the copy in use (its first ``limit``)
        for index, control in enumerate(chosen):
            if not fresh:
                # The spent copy loads again behind those ahead of it, when it will be needed.
                if len(self.ready) < min(self.copies, len(chosen) - index):
                    self.ready.append(asyncio.ensure_future(copy.load(first=False)))
                copy = await self.ready.popleft()
                listed, fresh = (await copy.controls(limit))[1], True
            if index >= len(listed) or _ident(listed[index]) != _ident(control):
                controls.append({**control, "outcome": "not_found", "effects": []})
                continue
            refused, seen = await _activate(copy, index)
            if refused:
                controls.append(
                    {**control, "outcome": "not_activated", "why": refused, "effects": []}
                )
                continue
            self.held.seen[index] = seen
            controls.append({**control, "outcome": "dead", "effects": []})
            fresh = not _spends(seen, self.held, ambient)
            copy.held.spent = not fresh
        await self._learn(copy, ambient)
        _judge(controls, self.held, ambient)
        return {
            "version": CONTROLS_VERSION,
            "url": self.view.url,
            "found": found,
            "limit": limit,
            "capped": found > limit,
            "ambient": _ambient_record(ambient),
            "controls": controls,
        }

    def _unexplained(self, ambient: _Seen | None) -> bool:
        """Whether an activation still counts only for requests or messages, which the page may
        also send on its own: learning more of what it sends unprompted may explain them."""
        for seen in self.held.seen.values():
            effects = _counted(seen, self.held, ambient)[0]
            if effects and set(effects) <= {"request", "message"}:
                return True
        return False

    async def _learn(self, last: _Copy, ambient: _Seen | None) -> None:
        """Before the judging, while an activation counts only for what it asked for: watch a
        copy at rest (loaded, untouched since, or activated without effect) for up to LEARN_S,
        learning what the page sends on its own, and stop as soon as nothing is left to
        explain. The copies rest only between activations, too briefly to see a slower poll
        twice, and a poll due while a control was watched must not make it look live. A copy
        that cannot be loaded for it leaves the judging to what was learned so far."""
        if not self._unexplained(ambient):
            return
        if not any(c.loaded and not c.held.spent for c in self.attached):
            try:
                await (self.ready.popleft() if self.ready else last.load(first=False))
            except (SensorError, PlaywrightError, TimeoutError):
                return
        deadline = time.monotonic() + LEARN_S
        while self._unexplained(ambient) and time.monotonic() < deadline:
            await asyncio.sleep(LEARN_POLL_S)

    async def close(self) -> None:
        """Stop the loads no control needed (their failures measured nothing), then let go of
        every copy."""
        pending, self.ready = list(self.ready), deque()
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        # Every copy leaves its document while still holding (a request an activated one's
        # timers send late, or a load stopped halfway through a step, reaches nothing), and
        # only then do its routes go.
        await asyncio.gather(*(copy.leave() for copy in self.attached))
        for copy in self.attached:
            await copy.detach()


async def _load(warm: WarmPage, view: CopyView, held: _Held) -> None:
    """The copy at the view's state. What the page asks for until it has settled (the load
    event, the data it fetches after it, the framework's own settle) and while the steps run
    and settle is not learned as its own (``_Held.prompted``): a control that fetches what
    the view fetched to show itself (a Refresh) still counts. Only what the page asks for
    when settled and untouched (a poll) is learned."""
    page = warm.page
    await view.prepare(warm)
    network = NetworkMonitor(page, warm.session)
    framework = framework_settle(page, view.framework)
    what = f"the copy of {view.url}"
    try:
        held.prompted = True
        response = await page.goto(view.url, wait_until="load")
        if response is not None and response.status >= 400:
            raise SensorError(f"{what} answered HTTP {response.status}")
        await page.evaluate(FONTS_READY_JS)
        await _at_rest(page, network, view.timeout_s, f"{what} kept loading")
        await settle_framework(framework, network, view.timeout_s, what)
        if view.steps:
            await run_steps(page, view.steps, view.slug)
            await _at_rest(page, network, view.timeout_s, f"{what} kept loading after its steps")
            await settle_framework(framework, network, view.timeout_s, what)
    finally:
        held.prompted = False
        network.detach()
        if framework is not None:
            framework.detach()


async def _at_rest(page: Page, network: NetworkMonitor, timeout_s: float, failure: str) -> None:
    """A quiet network and no socket of the page still connecting, then quiet again after
    any socket the copy waited for (what opened it may fetch more); SensorError(failure)
    when that does not come within ``timeout_s``."""
    deadline = asyncio.get_running_loop().time() + timeout_s
    while True:
        left = deadline - asyncio.get_running_loop().time()
        if left <= 0 or not await network.wait_idle(left):
            raise SensorError(failure)
        try:
            waited = await asyncio.wait_for(page.evaluate(SOCKETS_OPEN_JS), left)
        except TimeoutError:
            raise SensorError(f"{failure} (a websocket never opened)") from None
        if not waited:
            return


@cache
def _list_js(limit: int) -> str:
    """``__argusControls.list(limit)``, defining the world's script first (controls_world.js)
    in a world that has none yet (a new document's): one call for both."""
    source = resources.files("argus.sense").joinpath("controls_world.js").read_text("utf-8")
    define = f"if (!globalThis.__argusControls) {{\n{source}\n}}"
    return f"(() => {{\n{define}\nreturn __argusControls.list({int(limit)});\n}})()"


async def _activate(copy: _Copy, index: int | None) -> tuple[str, _Seen]:
    """Activate control ``index`` (None: the page's body, ``__argusControls.neutral``) with
    the outside world held (from here until the copy is loaded again): why it could not be
    activated, or what followed."""
    warm, held = copy.warm, copy.held
    held.clear()
    held.holding = held.watching = held.spent = True
    start = "__argusControls.neutral()" if index is None else f"__argusControls.start({index})"
    seen = _Seen()
    try:
        # The renderer tells Argus's session what it sets out to fetch from here on.
        await asyncio.gather(*(warm.session.send(f"{d}.enable") for d in RENDERER_DOMAINS))
        held.counting = True
        async with asyncio.timeout(copy.view.timeout_s):
            # Armed and activated in one call; the settle and the reading after it stay apart.
            refused = str(await _call(copy, start) or "")
            await warm.page.evaluate(SETTLE_JS)
        found = await _call(copy, "__argusControls.effects()")
        held.counting = False
        held.sent = int(found.get("sent", 0))
        seen.kinds = [str(k) for k in found["kinds"]]
        seen.dom = None if found["dom"] is None else [str(d) for d in found["dom"]]
        await _caught_up(held, copy.view.timeout_s)
    except (PlaywrightError, SensorError):
        if warm.page.is_closed():
            raise
        # The document went away under the watch (a navigation held too late, a reload by
        # script): something surely happened.
        refused, seen.kinds = "", ["navigation"]
    finally:
        held.watching = held.counting = False
        if not warm.page.is_closed():
            for domain in RENDERER_DOMAINS:
                await _quietly(warm.session.send(f"{domain}.disable"))
    seen.requests = list(held.requests)
    seen.messages = list(held.messages)
    if held.dialogs:
        seen.kinds.append("dialog")
    if held.pages:
        seen.kinds.append("page")
    return refused, seen


async def _caught_up(held: _Held, timeout_s: float) -> None:
    """Wait until the route has heard of every request the renderer said it started while the
    activation was watched (each is over: held ones are aborted only once the route has heard
    of them), of a navigation, when it asked for one, and of every websocket message the world
    saw the page send (COPY_SOCKETS_JS).

    The route hears of a request from the browser, which tells it beside the renderer's own
    answers, not in their order: on a loaded machine a request a control sent could reach the
    route after the watch had ended, and count for the next control on that copy, or be
    learned as the page's own poll. The renderer's events on Argus's session come in order
    with the reading of the effects, so once the route has caught up with them, what the
    activation set out to do is all recorded. Bounded by the view's timeout (a navigation the
    page cancels itself never reaches the route)."""
    with suppress(TimeoutError):
        async with asyncio.timeout(timeout_s):
            while not held.caught_up():
                held.heard.clear()
                await held.heard.wait()


def _fetched(request: dict[str, Any]) -> bool:
    """Whether a request the renderer starts goes through the network (and so the route)."""
    return urlsplit(str(request.get("url", ""))).scheme in ("http", "https")


def _counted(
    seen: _Seen, held: _Held, ambient: _Seen | None
) -> tuple[list[str], list[str], list[str]]:
    """The effects of an activation that are its own, the requests it made of its own (as
    recorded), and the kinds of effect it had that are the page's: a request or message the
    page also makes unprompted (``Unprompted``), or an effect a click on the body has too
    (``ambient``: the same kind; a request or message of the same shape; DOM mutations all
    of shapes the body's click made)."""
    like = ambient or _Seen()
    requested, sent = _Shapes([k for k, _ in like.requests]), _Shapes(like.messages)
    requests = [
        label
        for key, label in seen.requests
        if not held.polled.knows(key) and not requested.has(key)
    ]
    messages = [k for k in seen.messages if not held.unprompted.knows(k) and not sent.has(k)]
    effects: set[str] = set()
    for kind in seen.kinds:
        if kind in like.kinds and kind != "dom":
            continue
        if kind == "dom" and "dom" in like.kinds and _within(seen.dom, like.dom):
            continue
        effects.add(kind)
    if requests:
        effects.add("request")
    if messages:
        effects.add("message")
    return sorted(effects), requests, sorted(_kinds(seen) - effects)


def _kinds(seen: _Seen) -> set[str]:
    """Every kind of effect that followed, the page's own or not."""
    kinds = set(seen.kinds)
    if seen.requests:
        kinds.add("request")
    if seen.messages:
        kinds.add("message")
    return kinds


def _within(shapes: list[str] | None, ambient: list[str] | None) -> bool:
    return shapes is not None and ambient is not None and set(shapes) <= set(ambient)


def _spends(seen: _Seen, held: _Held, ambient: _Seen | None) -> bool:
    """Whether the copy must be loaded again after an activation: anything changed in it, or
    it asked for something that is not (yet) known as the page's own. What it does from now
    on is not learned as the page's own (``_Held.spent``)."""
    return bool(seen.kinds) or bool(_counted(seen, held, ambient)[0])


def _judge(controls: list[dict[str, Any]], held: _Held, ambient: _Seen | None) -> None:
    """Each activated control's outcome, judged at the end against all the page was seen to
    do unprompted by then (a heartbeat or poll first sent during an early watch is learned
    later) and against what a click on the body does: a control whose every effect is the
    page's own is dead."""
    for index, seen in held.seen.items():
        effects, requests, page_s = _counted(seen, held, ambient)
        entry = controls[index]
        entry["outcome"], entry["effects"] = ("live" if effects else "dead"), effects
        if requests:
            entry["requests"] = requests[:MAX_REQUESTS_LISTED]
        if page_s:
            entry["not_counted"] = page_s


def _ambient_record(ambient: _Seen | None) -> dict[str, Any]:
    """controls.json's ``ambient``: what a click on the page's body did (kinds, and its
    requests as recorded), whether it was measured."""
    if ambient is None:
        return {"measured": False, "effects": [], "requests": []}
    labels = sorted({label for _, label in ambient.requests})[:MAX_REQUESTS_LISTED]
    return {"measured": True, "effects": sorted(_kinds(ambient)), "requests": labels}


async def _call(copy: _Copy, expression: str) -> Any:
    return await evaluate_in(copy.warm.session, copy.world, expression, "the controls probe")


def _ident(control: dict[str, Any]) -> str:
    return json.dumps([control.get(k) for k in ("tag", "id", "testid", "role", "name")])


def _path(url: str, view_url: str) -> str:
    """A request as recorded: its path (with its origin when not the view's), without query or
    fragment, cut short (page data): the same for every run of the same page."""
    parts, view = urlsplit(url), urlsplit(view_url)
    origin = "" if parts.netloc == view.netloc else f"{parts.scheme}://{parts.netloc}"
    return (origin + parts.path)[:200]


async def _quietly(work: Awaitable[Any]) -> None:
    with suppress(PlaywrightError):
        await work
