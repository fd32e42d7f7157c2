"""The focus walk in a real Chromium: the forced-group measurement gives the same verdict per
stop as focusing every stop for real, and hands to real focus what it cannot prove."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.async_api import Browser
from playwright.async_api import Error as PlaywrightError

from argus.sense.focus_visible import focus_visibility
from argus.sense.page_state import FREEZE_CSS
from argus.sense.probe import ProbeBudget
from tests.support.chromium import AsyncChromium

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def chromium() -> Iterator[AsyncChromium]:
    """One browser for the module; every walk below has browser contexts of its own."""
    browser = AsyncChromium()
    yield browser
    browser.close()


STYLE = """<style>
body { margin: 0; font: 16px sans-serif; background: rgb(255, 255, 255); }
button { display: block; position: absolute; width: 80px; height: 32px; border: 0;
         background: rgb(220, 220, 220); }
button:focus { outline: none; }
.ring:focus-visible { outline: 3px solid rgb(0, 0, 200); outline-offset: 2px; }
.ghost:focus-visible { outline: 3px solid rgb(255, 255, 255); outline-offset: 2px; }
.row { position: absolute; left: 0; width: 300px; height: 60px; }
.row:focus-within { background: rgb(255, 240, 200); }
.hint { display: none; position: absolute; width: 90px; height: 40px;
        background: rgb(250, 0, 0); }
.tip:focus + .hint { display: block; }
.js-on { box-shadow: 0 0 0 3px rgb(0, 150, 0); }
</style>"""

PAGES = {
    # A CSS ring, no indicator at all, an indicator drawn by a focus handler (DOM changed by
    # the page while focused: every stop is then measured for real).
    "handler": """
<button id="ring" class="ring" style="left:20px;top:20px">ring</button>
<button id="none" style="left:200px;top:20px">none</button>
<button id="js" style="left:380px;top:20px"
  onfocus="this.classList.add('js-on')" onblur="this.classList.remove('js-on')">js</button>
""",
    # An outline in the background colour changes no pixel: invisible, it must still fail.
    "ghost": """
<button id="ring" class="ring" style="left:20px;top:20px">ring</button>
<button id="ghost" class="ghost" style="left:20px;top:200px">ghost</button>
""",
    # Adjacent controls: their rings would overlap each other's areas, so they are never in
    # one group; the control without a ring still shows none.
    "adjacent": """
<button id="a" class="ring" style="left:20px;top:20px">a</button>
<button id="b" style="left:100px;top:20px">b</button>
<button id="c" class="ring" style="left:180px;top:20px">c</button>
<button id="d" class="ring" style="left:20px;top:300px">d</button>
""",
    # Focusing tip shows a hint over plain, which has no indicator of its own; the row
    # around inrow is coloured while it holds the focus (:focus-within).
    # The page hides the focus from its own scripts: the walk reads it in an isolated world,
    # where the page's replacement of document.activeElement is not seen.
    "hidden": """
<script>Object.defineProperty(Document.prototype, "activeElement", { get() { return null; } });
</script>
<button id="ring" class="ring" style="left:20px;top:20px">ring</button>
<button id="none" style="left:200px;top:20px">none</button>
""",
    "around": """
<button id="tip" class="tip ring" style="left:20px;top:20px">tip</button>
<div class="hint" style="left:290px;top:16px"></div>
<button id="plain" style="left:300px;top:20px">plain</button>
<div class="row" style="top:200px">
  <button id="inrow" style="left:20px;top:14px">in row</button></div>
""",
    # Focusing far shows a hint at the left edge of plain's area, the left edge of the
    # group's: the neighbours looked for within the group's bounds still include it.
    "edge": """
<button id="plain" style="left:20px;top:20px">plain</button>
<button id="far" class="tip ring" style="left:300px;top:20px">far</button>
<div class="hint" style="left:4px;top:16px;width:20px"></div>
""",
}

# What a person sees when each stop holds the keyboard focus.
VISIBLE = {
    "handler": {"ring": True, "none": False, "js": True},
    "ghost": {"ring": True, "ghost": False},
    "adjacent": {"a": True, "b": False, "c": True, "d": True},
    "hidden": {"ring": True, "none": False},
    "around": {"tip": True, "plain": False, "inrow": True},
    "edge": {"plain": False, "far": True},
}


class RefusingForce:
    """A CDP session that refuses CSS.forcePseudoState (as a browser without it would)."""

    def __init__(self, session: Any) -> None:
        self.session = session

    async def send(self, method: str, params: Any = None) -> Any:
        if method == "CSS.forcePseudoState":
            raise PlaywrightError("CSS.forcePseudoState: not supported")
        return await self.session.send(method, params)


@functools.cache
def walk_both(
    chromium: AsyncChromium, html: str, refuse: bool = False, focus_first: str | None = None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The walk with a CDP session (forced groups first) and without (every stop focused),
    each in a new browser context."""

    async def run(browser: Browser) -> tuple[dict[str, Any], dict[str, Any]]:
        walks = []
        for batched in (True, False):
            context = await browser.new_context(
                viewport={"width": 640, "height": 480}, device_scale_factor=1
            )
            page = await context.new_page()
            session: Any = await context.new_cdp_session(page) if batched else None
            if session is not None and refuse:
                session = RefusingForce(session)
            await page.set_content(f"<!doctype html>{STYLE}<body>{html}</body>")
            await page.add_style_tag(content=FREEZE_CSS)
            render = await page.screenshot(animations="disabled", caret="hide")
            if focus_first is not None:  # what a state's steps or a focus_order walk leave
                await page.focus(focus_first)
            walks.append(await focus_visibility(page, render, session))
            await context.close()
        return walks[0], walks[1]

    return chromium.run(run)


def visible(walk: dict[str, Any]) -> dict[str, bool]:
    return {s["id"]: s["changed_pixels"] > 0 for s in walk["stops"]}


def methods(walk: dict[str, Any]) -> dict[str, str]:
    return {s["id"]: s["method"] for s in walk["stops"]}


@pytest.mark.parametrize("name", [name for name in PAGES if name != "hidden"])
def test_forced_groups_give_the_verdict_real_focus_gives(
    chromium: AsyncChromium, name: str
) -> None:
    batched, focused = walk_both(chromium, PAGES[name])
    assert visible(batched) == visible(focused) == VISIBLE[name]
    assert set(methods(focused).values()) == {"focused"}


def test_a_page_that_changes_its_dom_on_focus_is_measured_for_real(chromium: AsyncChromium) -> None:
    batched, _ = walk_both(chromium, PAGES["handler"])
    assert methods(batched) == {"ring": "focused", "none": "focused", "js": "focused"}


def test_only_a_stop_that_shows_a_change_when_forced_is_measured_forced(
    chromium: AsyncChromium,
) -> None:
    batched, _ = walk_both(chromium, PAGES["ghost"])
    assert methods(batched) == {"ring": "forced", "ghost": "focused"}
    batched, _ = walk_both(chromium, PAGES["adjacent"])
    # b shows nothing: real focus; a, c and d each show their own ring in their groups.
    assert methods(batched) == {"a": "forced", "b": "focused", "c": "forced", "d": "forced"}


def test_a_change_drawn_beside_the_stop_is_not_credited_to_a_neighbour(
    chromium: AsyncChromium,
) -> None:
    """Forced together, tip's hint would cover plain's area: plain's neighbourhood changed,
    so real focus measures it, and it shows nothing."""
    batched, _ = walk_both(chromium, PAGES["around"])
    assert methods(batched)["plain"] == "focused"
    assert methods(batched)["tip"] == "forced"
    batched, _ = walk_both(chromium, PAGES["edge"])
    assert methods(batched) == {"plain": "focused", "far": "forced"}


def test_a_page_hiding_the_focus_from_its_scripts_is_walked_all_the_same(
    chromium: AsyncChromium,
) -> None:
    batched, _ = walk_both(chromium, PAGES["hidden"])
    assert visible(batched) == VISIBLE["hidden"]
    assert methods(batched) == {"ring": "forced", "none": "focused"}


def test_a_browser_refusing_forced_states_gets_every_stop_focused_for_real(
    chromium: AsyncChromium,
) -> None:
    batched, focused = walk_both(chromium, PAGES["adjacent"], refuse=True)
    assert batched == focused
    assert visible(batched) == VISIBLE["adjacent"]


@pytest.mark.parametrize("where", ["#c", "#d"])
def test_the_walk_starts_at_the_first_stop_wherever_the_focus_was_left(
    chromium: AsyncChromium, where: str
) -> None:
    """A focus left mid-page or on the last stop (by a state's steps, by the focus_order walk)
    does not hide the stops before it: both walks still visit every stop, in page order."""
    batched, focused = walk_both(chromium, PAGES["adjacent"], focus_first=where)
    assert [s["id"] for s in batched["stops"]] == ["a", "b", "c", "d"]
    assert visible(batched) == visible(focused) == VISIBLE["adjacent"]


# Two skip links clipped to the same pixel, of one tag and without ids: two stops all the same.
TWINS = """
<style>.sr { position: absolute; left: 0; top: 0; width: 1px; height: 1px; overflow: hidden; }
</style>
<a class="sr" href="#main">Skip to content</a><a class="sr" href="#nav">Skip to navigation</a>
<button id="after" class="ring" style="left:20px;top:100px">after</button>
"""
# A web component whose two buttons live in its shadow root: Tab moves between them while the
# document's activeElement stays the host.
SHADOW = """
<div id="host" style="position:absolute;left:20px;top:20px"></div>
<script>
  const root = document.getElementById("host").attachShadow({ mode: "open" });
  root.innerHTML = `<style>button { width: 80px; height: 32px; border: 0; outline: none; }
    button:focus-visible { outline: 3px solid rgb(0, 0, 200); }</style>
    <button id="first">first</button><button id="second">second</button>`;
</script>
<button id="after" style="left:20px;top:200px">after</button>
"""


def stops(walk: dict[str, Any]) -> list[tuple[str, str]]:
    return [(s["tag"], s["id"]) for s in walk["stops"]]


def test_two_stops_of_one_tag_at_one_place_are_two_stops(chromium: AsyncChromium) -> None:
    """A repeat is the same element reached again, not another one drawn at the same place."""
    batched, focused = walk_both(chromium, TWINS)
    assert stops(batched) == stops(focused) == [("a", ""), ("a", ""), ("button", "after")]
    assert visible(batched)["after"] and visible(focused)["after"]


def test_the_walk_goes_into_a_shadow_root_and_out_again(chromium: AsyncChromium) -> None:
    """Each button of the component is a stop of its own, measured on its own box; a button
    without a ring of its own after the component is still reached."""
    batched, focused = walk_both(chromium, SHADOW)
    expected = [("button", "first"), ("button", "second"), ("button", "after")]
    assert stops(batched) == stops(focused) == expected
    assert visible(batched) == visible(focused) == {"first": True, "second": True, "after": False}


# Rings on the first screen (640x480), then stops below it: Tab scrolls the page to them.
TALL = """
<button id="a" class="ring" style="left:20px;top:20px">a</button>
<button id="b" class="ring" style="left:20px;top:200px">b</button>
<button id="c" style="left:200px;top:200px">c</button>
<button id="d" class="ring" style="left:20px;top:900px">d</button>
<button id="e" class="ring" style="left:20px;top:1400px">e</button>
<div style="position:absolute;top:2000px;height:10px;width:10px"></div>
"""


@functools.cache
def walk_tall(
    chromium: AsyncChromium, max_elements: int | None
) -> tuple[dict[str, Any], float, dict[str, Any]]:
    """The batched walk of TALL (with a budget of ``max_elements``, or none), the page's
    scroll once it is over, and the walk with every stop focused for real."""

    async def run(browser: Browser) -> tuple[dict[str, Any], float, dict[str, Any]]:
        context = await browser.new_context(
            viewport={"width": 640, "height": 480}, device_scale_factor=1
        )
        page = await context.new_page()
        session = await context.new_cdp_session(page)
        await page.set_content(f"<!doctype html>{STYLE}<body>{TALL}</body>")
        await page.add_style_tag(content=FREEZE_CSS)
        render = await page.screenshot(animations="disabled", caret="hide")
        budget = None if max_elements is None else ProbeBudget(max_elements=max_elements)
        batched = await focus_visibility(page, render, session, budget)
        scrolled = float(await page.evaluate("window.scrollY"))
        await page.evaluate("window.scrollTo(0, 0)")
        focused = await focus_visibility(page, render)
        await context.close()
        return batched, scrolled, focused

    return chromium.run(run)


def test_stops_on_the_first_screen_are_measured_forced_though_later_ones_scrolled(
    chromium: AsyncChromium,
) -> None:
    """The Tab walk scrolls the page to d and e; it is scrolled back before the forced groups,
    so a, b and c are measured where real focus found them (not walked a second time)."""
    batched, scrolled, focused = walk_tall(chromium, None)
    assert [s["id"] for s in batched["stops"]] == ["a", "b", "c", "d", "e"]
    assert methods_or_none(batched) == {
        "a": "forced",
        "b": "forced",
        "c": "focused",
        "d": None,
        "e": None,
    }
    assert visible_compared(batched) == visible_compared(focused)
    assert visible_compared(batched) == {"a": True, "b": True, "c": False}
    assert scrolled == 0
    assert "bounded" not in batched


def methods_or_none(walk: dict[str, Any]) -> dict[str, str | None]:
    return {s["id"]: s.get("method") for s in walk["stops"]}


def visible_compared(walk: dict[str, Any]) -> dict[str, bool]:
    return {
        s["id"]: s["changed_pixels"] > 0 for s in walk["stops"] if s["changed_pixels"] is not None
    }


def test_a_walk_within_the_budget_is_not_bounded(chromium: AsyncChromium) -> None:
    batched, _, _ = walk_tall(chromium, 1000)
    assert [s["id"] for s in batched["stops"]] == ["a", "b", "c", "d", "e"]
    assert "bounded" not in batched


def test_a_page_past_the_budget_is_walked_to_the_first_stop_that_scrolls_it_and_says_so(
    chromium: AsyncChromium,
) -> None:
    batched, _, focused = walk_tall(chromium, 5)
    assert [s["id"] for s in batched["stops"]] == ["a", "b", "c", "d"]
    assert batched["stops"][-1]["changed_pixels"] is None
    assert (
        visible_compared(batched) == visible_compared(focused) == {"a": True, "b": True, "c": False}
    )
    bounded = batched["bounded"]
    assert bounded["max_elements"] == 5 and bounded["elements"] > 5 and bounded["stops"] == 4
    assert "scrolled" in bounded["after"]


class Recording:
    """A CDP session that keeps the name of every method sent."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self.sent: list[str] = []

    async def send(self, method: str, params: Any = None) -> Any:
        self.sent.append(method)
        return await self.session.send(method, params)


def test_a_session_with_its_domains_on_is_not_asked_to_enable_them_again(
    chromium: AsyncChromium,
) -> None:
    """The sensor enables DOM and CSS once for the page's life: the walk does not enable them
    again (CSS sends its style sheets over each time), and still forces its groups."""

    async def run(browser: Browser) -> tuple[dict[str, Any], list[str]]:
        context = await browser.new_context(
            viewport={"width": 640, "height": 480}, device_scale_factor=1
        )
        page = await context.new_page()
        session: Any = Recording(await context.new_cdp_session(page))
        await session.send("DOM.enable")
        await session.send("CSS.enable")
        session.sent.clear()
        await page.set_content(f"<!doctype html>{STYLE}<body>{PAGES['ghost']}</body>")
        await page.add_style_tag(content=FREEZE_CSS)
        render = await page.screenshot(animations="disabled", caret="hide")
        walk = await focus_visibility(page, render, session, domains_on=True)
        await context.close()
        return walk, session.sent

    walk, sent = chromium.run(run)
    assert methods(walk) == {"ring": "forced", "ghost": "focused"}
    assert visible(walk) == VISIBLE["ghost"]
    assert "CSS.forcePseudoState" in sent
    assert "DOM.enable" not in sent and "CSS.enable" not in sent


class Batches:
    """A CDP session that numbers its batches (a call sent while another is unanswered is of
    that call's batch) and keeps every answered CSS.forcePseudoState: (batch, node, forced).
    ``refuse_unforce`` refuses the first call letting a state go, as a browser might."""

    def __init__(self, session: Any, refuse_unforce: bool = False) -> None:
        self.session = session
        self.refuse_unforce = refuse_unforce
        self.waiting = 0
        self.batch = 0
        self.forced: list[tuple[int, int, bool]] = []

    async def send(self, method: str, params: Any = None) -> Any:
        if self.waiting == 0:
            self.batch += 1
        batch = self.batch
        self.waiting += 1
        try:
            letting_go = method == "CSS.forcePseudoState" and not params["forcedPseudoClasses"]
            if letting_go and self.refuse_unforce:
                self.refuse_unforce = False
                raise PlaywrightError("CSS.forcePseudoState: refused")
            answer = await self.session.send(method, params)
            if method == "CSS.forcePseudoState":
                forcing = bool(params["forcedPseudoClasses"])
                self.forced.append((batch, params["nodeId"], forcing))
            return answer
        finally:
            self.waiting -= 1

    def batches(self) -> list[tuple[set[int], set[int]]]:
        """Per batch of forced states, in order: the nodes let go and the nodes forced."""
        order: dict[int, tuple[set[int], set[int]]] = {}
        for batch, node, forcing in self.forced:
            order.setdefault(batch, (set(), set()))[1 if forcing else 0].add(node)
        return list(order.values())

    def left_forced(self) -> set[int]:
        state: dict[int, bool] = {}
        for _, node, forcing in self.forced:
            state[node] = forcing
        return {node for node, forcing in state.items() if forcing}


def walk_batches(chromium: AsyncChromium, refuse_unforce: bool) -> tuple[dict[str, Any], Batches]:
    """The walk of PAGES["adjacent"] (two forced groups: a, c, d and b) on a Batches session."""

    async def run(browser: Browser) -> tuple[dict[str, Any], Batches]:
        context = await browser.new_context(
            viewport={"width": 640, "height": 480}, device_scale_factor=1
        )
        page = await context.new_page()
        session = Batches(await context.new_cdp_session(page), refuse_unforce)
        await page.set_content(f"<!doctype html>{STYLE}<body>{PAGES['adjacent']}</body>")
        await page.add_style_tag(content=FREEZE_CSS)
        render = await page.screenshot(animations="disabled", caret="hide")
        walk = await focus_visibility(page, render, session)
        await context.close()
        return walk, session

    return chromium.run(run)


def test_one_groups_states_are_let_go_in_the_batch_that_forces_the_next(
    chromium: AsyncChromium,
) -> None:
    """Each change of forced states costs Chromium a style pass over the whole document: the
    first group's states go in the batch that forces the second's (one pass, not two), and
    the last group's are let go at the end. The verdicts are real focus's."""
    walk, session = walk_batches(chromium, refuse_unforce=False)
    assert methods(walk) == {"a": "forced", "b": "focused", "c": "forced", "d": "forced"}
    assert visible(walk) == VISIBLE["adjacent"]
    batches = session.batches()
    assert len(batches) == 3
    (none, first), (let_go, second), (last, none_after) = batches
    assert not none and not none_after and let_go == first and last == second
    assert len(first) == 3 and len(second) == 1 and not first & second
    assert not session.left_forced()


def test_a_refused_call_between_groups_leaves_no_state_forced(chromium: AsyncChromium) -> None:
    """The batch letting the first group go and forcing the second fails on one call: every
    stop of both groups is let go, and every stop is measured with real focus instead."""
    walk, session = walk_batches(chromium, refuse_unforce=True)
    assert not session.left_forced()
    assert set(methods(walk).values()) == {"focused"}
    assert visible(walk) == VISIBLE["adjacent"]
