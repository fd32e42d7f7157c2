"""The keyboard focus walk the focus_visible gate reads: each element Tab reaches, its box, and
how many pixels around it change when it holds the focus (WCAG 2.4.7 Focus Visible).

Runs after the capture (it moves the focus, so nothing of the render may come after it). The
focus is first let go, then Tab is pressed until the focus leaves the page, comes back to an
element already seen, or MAX_STOPS elements were visited. For each stop the area of its box
grown by PAD CSS px (an outline drawn outside, with an offset) is compared, byte for byte, with
the same area of the captured render, where nothing had the focus. An element outside the
viewport (or on a scrolled page) is recorded as not compared.

Each stop's focused pixels come from one of two measurements (``method`` in focus.json):

- ``forced``: after the Tab walk, :focus, :focus-visible and :focus-within are forced on
  groups of stops at once (CDP ``CSS.forcePseudoState``), one screenshot per group (a group's
  states are let go in the batch that forces the next group's: one style pass each). A stop's
  count is taken from it only when it is at least one pixel and the forced state is provably
  what real focus gave: the walk kept, at real focus, the computed styles and boxes of the
  stop, its ancestors and descendants, and they are the same when forced; no other element in
  its clip changed; no other stop of the group paints into its clip (outline and shadows
  measured; changed pseudo-elements or descendants count as painting anywhere); and the page
  did not change its DOM during the whole walk (a focus handler at work).
- ``focused``: every other stop (no change when forced: a focus style drawn by a script or
  absent; anything the checks above could not prove; CDP refused) is focused for real again,
  by the same Tab presses, and its area screenshotted, as every stop used to be.

A stop that changes nothing is therefore always measured with real focus, so a missing
indicator is never decided by the forced state.

The walk is written once over a ``FocusDriver`` (argus.sense._focus_driver): the sensor runs it
on Playwright's async API (``focus_visibility``), the pytest plugin on a test's sync page
(``focus_visibility_sync``), with the same scripts and the same measurement.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from contextlib import suppress
from importlib import resources
from typing import Any

import numpy as np
from playwright._impl._api_structures import Clip
from playwright.async_api import CDPSession, Page
from playwright.async_api import Error as PlaywrightError
from playwright.sync_api import CDPSession as SyncSession
from playwright.sync_api import Page as SyncPage

from argus.diff.arrays import U8
from argus.diff.png import decode_png
from argus.sense._focus_driver import (
    AsyncFocusDriver,
    Call,
    FocusDriver,
    SyncFocusDriver,
    run_to_end,
)
from argus.sense.probe import ProbeBudget
from argus.sense.world import isolated_world

MAX_STOPS = 40
Walked = tuple[list[dict[str, Any]], dict[str, Any] | None]  # the stops, and the walk's bound
PAD = 8  # CSS px around the box: outlines and their offsets are drawn outside it
FOCUS_FILE = "focus.json"
FOCUS_VERSION = 1
FORCED = ["focus", "focus-visible", "focus-within"]
WORLD = "argus-focus"

# The focused element, through open shadow roots: a component's own button, not its host.
_DEEP = """let el = document.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;"""
_BLUR_JS = f"() => {{ {_DEEP} if (el && el.blur) el.blur(); }}"
# Tab starts where the focus last was, even after a blur (Chromium keeps the blurred element as
# the sequential focus navigation starting point): after a focus_order walk or a state's steps
# the first Tab would start mid-page, or past the last stop and find none. A mark focused at
# the document's start and removed moves that point there, so the walk begins at the first stop.
_TO_START_JS = f"""() => {{
  {_DEEP} if (el && el.blur) el.blur();
  const root = document.body || document.documentElement;
  const mark = document.createElement("span"); mark.tabIndex = -1;
  root.prepend(mark); mark.focus({{ preventScroll: true }}); mark.remove();
}}"""
# Without the isolated world (no CDP session) nothing is kept between two presses: the element
# is told apart by where it is in the tree (child indices, "#" for a shadow root), not on screen.
_FOCUSED_JS = f"""() => {{
  {_DEEP}
  if (!el || el === document.body || el === document.documentElement) return null;
  const r = el.getBoundingClientRect();
  const path = [];
  for (let node = el; node && node.parentNode; ) {{
    const parent = node.parentNode;
    if (parent instanceof ShadowRoot) {{ path.push("#"); node = parent.host; continue; }}
    path.push(Array.prototype.indexOf.call(parent.children, node));
    node = parent;
  }}
  return {{ id: el.id || "", testid: el.getAttribute("data-testid") || "",
           tag: el.tagName.toLowerCase(), x: r.x, y: r.y, width: r.width, height: r.height,
           scrolled: window.scrollX !== 0 || window.scrollY !== 0,
           vw: window.innerWidth, vh: window.innerHeight, path: path.join("/") }};
}}"""


async def focus_visibility(
    page: Page,
    render_png: bytes,
    session: CDPSession | None = None,
    budget: ProbeBudget | None = None,
    *,
    domains_on: bool = False,
) -> dict[str, Any]:
    """Walk the focus with Tab and measure each stop's visible change (see the module doc).

    With ``session`` (a CDP session on ``page``) stops are first measured in forced groups;
    without one, or when the browser refuses, every stop is focused and screenshotted. The
    walk asks for the document's DOM node ids on ``session``, which drops the ids handed out
    before: nothing else may use node ids on it meanwhile. With ``budget`` too, the walk of a
    page past ``budget.max_elements`` is bounded (see ``_bound``). ``domains_on``: the
    session's DOM and CSS domains are already enabled (the sensor's are, for the page's life;
    enabling CSS again costs about 40 ms a view, its style sheets sent over once more)."""
    driver = AsyncFocusDriver(page, session)
    return await measure_focus(driver, render_png, budget, domains_on=domains_on)


def focus_visibility_sync(
    page: SyncPage,
    render_png: bytes,
    session: SyncSession | None = None,
    budget: ProbeBudget | None = None,
) -> dict[str, Any]:
    """``focus_visibility`` on a sync-API page (a test's): the same walk, run to its end."""
    return run_to_end(measure_focus(SyncFocusDriver(page, session), render_png, budget))


async def measure_focus(
    driver: FocusDriver,
    render_png: bytes,
    budget: ProbeBudget | None = None,
    *,
    domains_on: bool = False,
) -> dict[str, Any]:
    """focus.json of the page behind ``driver`` (see ``focus_visibility``)."""
    render = decode_png(render_png, "render.png")
    walked: Walked | None = None
    if driver.has_session:
        try:
            walked = await _batched(driver, render, budget, domains_on)
        except PlaywrightError:
            if driver.is_closed():
                raise
            # CDP refused (an older or remote browser): every stop is measured for real.
    if walked is None:
        walked = await _focused_walk(driver, render), None
    stops, bounded = walked
    focus: dict[str, Any] = {"version": FOCUS_VERSION, "pad": PAD, "stops": stops}
    if bounded is not None:
        focus["bounded"] = bounded
    return focus


def _key(found: dict[str, Any]) -> tuple[Any, ...]:
    """The element the main world's read names (``_FOCUSED_JS``): where it is in the tree."""
    return (found["tag"], found["id"], found["testid"], found["path"])


def _stop(found: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": found["id"],
        "testid": found["testid"],
        "tag": found["tag"],
        "box": {k: round(float(found[k]), 2) for k in ("x", "y", "width", "height")},
    }


async def _shot(driver: FocusDriver, clip: Clip) -> U8:
    return decode_png(await driver.screenshot(clip), "clip")


async def _focused_walk(driver: FocusDriver, render: U8) -> list[dict[str, Any]]:
    """Every stop focused for real and its area screenshotted."""
    await driver.evaluate(_TO_START_JS)
    stops: list[dict[str, Any]] = []
    seen: set[tuple[Any, ...]] = set()
    for _ in range(MAX_STOPS):
        await driver.press_tab()
        found = await driver.evaluate(_FOCUSED_JS)
        if not isinstance(found, dict) or _key(found) in seen:
            break
        seen.add(_key(found))
        stop = _stop(found)
        clip = _clip(found)
        if clip is None:
            stop["changed_pixels"] = None  # not compared: off the viewport or scrolled
        else:
            stop["changed_pixels"] = _changed(render, await _shot(driver, clip), clip)
            stop["method"] = "focused"
        stops.append(stop)
    await driver.evaluate(_BLUR_JS)
    return stops


class _World:
    """The walk's helper (focus_world.js) in an isolated world of the page's main frame."""

    def __init__(self, driver: FocusDriver, context_id: int) -> None:
        self.driver = driver
        self.context_id = context_id
        self.domains_on = False  # DOM and CSS already enabled on the session

    @classmethod
    async def open(cls, driver: FocusDriver) -> _World:
        return cls(driver, await isolated_world(driver, WORLD))

    async def define(self) -> int:
        """Define the helper; the number of elements in the document."""
        source = resources.files("argus.sense").joinpath("focus_world.js").read_text("utf-8")
        return int(await self.call(f'{source};\ndocument.getElementsByTagName("*").length'))

    async def call(self, expression: str, by_value: bool = True) -> Any:
        answer = await self.driver.send(
            "Runtime.evaluate",
            {
                "expression": expression,
                "contextId": self.context_id,
                "returnByValue": by_value,
                "objectGroup": WORLD,
            },
        )
        if "exceptionDetails" in answer:
            raise PlaywrightError(f"focus walk: {answer['exceptionDetails'].get('text', '')}")
        return answer["result"].get("value") if by_value else answer["result"]


def _bound(elements: int, budget: ProbeBudget | None, stops: int) -> dict[str, Any] | None:
    """What focus.json says of a walk that ended at a stop scrolling the page (None: the
    walk is not bounded there).

    Past ``budget.max_elements`` (where the probe and axe take a sample) each Tab costs a
    style pass over every element (about 0.4 s a stop on 100,000 elements), and once a stop
    has scrolled the page no later stop is compared (the render is of the first screen), so
    the walk ends at that stop, which is kept, not compared; the stops after it are not
    visited, and the record says so."""
    if budget is None or elements <= budget.max_elements:
        return None
    return {
        "elements": elements,
        "max_elements": budget.max_elements,
        "stops": stops,
        "after": "the first stop that scrolled the page: no later stop would be compared",
    }


async def _batched(
    driver: FocusDriver, render: U8, budget: ProbeBudget | None, domains_on: bool
) -> Walked | None:
    """The walk with forced groups first, and its bound (None: not bounded); None when the
    stops cannot be walked again alike."""
    world = await _World.open(driver)
    world.domains_on = domains_on
    await world.call(f"({_TO_START_JS})()")  # before define(): its DOM change is not the page's
    elements = await world.define()
    found_stops: list[dict[str, Any]] = []
    bounded = None
    for _ in range(MAX_STOPS):
        await driver.press_tab()
        found = await world.call("__argusFocus.read()")
        if not isinstance(found, dict) or found["seen"] >= 0:
            break  # off the page, or back at a stop the walk kept
        found_stops.append(found)
        if found["scrolled"]:
            bounded = _bound(elements, budget, len(found_stops))
            if bounded is not None:
                break
    # The focus let go and the page scrolled back to where it was (a stop below the first
    # screen scrolled it): the forced groups are measured where real focus was.
    await world.call("__argusFocus.back()")
    clips = [_clip(found) for found in found_stops]
    changed: dict[int, int] = {}
    if any(clips) and not await world.call("__argusFocus.mutated()"):
        try:
            changed = await _forced(world, clips, render)
        finally:
            # DOM and CSS stay enabled: the sensor's fonts lookup uses them on this session.
            await _quietly(driver, "Runtime.releaseObjectGroup", {"objectGroup": WORLD})
    stops = [_stop(found) for found in found_stops]
    for i, clip in enumerate(clips):
        if clip is None:
            stops[i]["changed_pixels"] = None  # not compared: off the viewport or scrolled
        elif i in changed:
            stops[i]["changed_pixels"] = changed[i]
            stops[i]["method"] = "forced"
    again = [i for i, clip in enumerate(clips) if clip is not None and i not in changed]
    if again and not await _refocus(world, found_stops, again, render, stops):
        return None
    return stops, bounded


async def _quietly(driver: FocusDriver, method: str, params: dict[str, Any] | None = None) -> None:
    with suppress(PlaywrightError):
        await driver.send(method, params)


async def _forced(world: _World, clips: Sequence[Clip | None], render: U8) -> dict[int, int]:
    """Changed pixels of the stops whose forced focus is provably what real focus showed."""
    driver = world.driver
    await world.call(f"__argusFocus.neighbours({json.dumps(clips)})")
    if not world.domains_on:
        await driver.send("DOM.enable")
        await driver.send("CSS.enable")
    await driver.send("DOM.getDocument", {"depth": 0})
    elements = await world.call("__argusFocus.elements()", by_value=False)
    listed = await driver.send(
        "Runtime.getProperties", {"objectId": elements["objectId"], "ownProperties": True}
    )
    objects = {
        int(p["name"]): p["value"]["objectId"]
        for p in listed["result"]
        if p["name"].isdigit() and "objectId" in p.get("value", {})
    }
    wanted = [i for i, clip in enumerate(clips) if clip is not None and i in objects]
    answers = _all_answered(
        await driver.send_all([("DOM.requestNode", {"objectId": objects[i]}) for i in wanted])
    )
    nodes = {i: int(a["nodeId"]) for i, a in zip(wanted, answers, strict=True)}

    def force(group: Sequence[int], classes: list[str]) -> list[Call]:
        return [
            ("CSS.forcePseudoState", {"nodeId": nodes[i], "forcedPseudoClasses": classes})
            for i in group
        ]

    # Each change of forced states makes Chromium restyle the whole document at the next
    # read (about 0.6 s on 120,000 elements): one group's states are let go in the batch
    # that forces the next group's, so a group costs one such pass, not two.
    changed: dict[int, int] = {}
    forced: list[int] = []  # the stops whose states may be forced now
    try:
        for group in _groups({i: c for i, c in enumerate(clips) if c is not None and i in nodes}):
            calls = force(forced, []) + force(group, FORCED)
            forced = [*forced, *group]  # until the batch is answered, either may be forced
            _all_answered(await driver.send_all(calls))  # every call made before one is raised
            forced = list(group)
            checks = await world.call(f"__argusFocus.check({json.dumps(group)})")
            union = _union([clips[i] for i in group])
            shot = await _shot(driver, union)
            for i, check in zip(group, checks, strict=True):
                clip = clips[i]
                assert clip is not None
                others = [checks[k]["reach"] for k, j in enumerate(group) if j != i]
                if not check["same"] or any(r is None or _overlap(r, clip) for r in others):
                    continue
                count = _changed(render, _crop(shot, union, clip), clip)
                if count > 0:
                    changed[i] = count
    finally:
        # Every stop of the last group, whatever failed: a state left forced would show a
        # ring to whatever measures the page next.
        if forced:
            _all_answered(await driver.send_all(force(forced, [])))
    return changed


def _all_answered(answers: Sequence[dict[str, Any] | BaseException]) -> list[dict[str, Any]]:
    """The answers, or the first error among them raised."""
    for answer in answers:
        if isinstance(answer, BaseException):
            raise answer
    return [a for a in answers if not isinstance(a, BaseException)]


async def _refocus(
    world: _World,
    found_stops: Sequence[dict[str, Any]],
    again: Sequence[int],
    render: U8,
    stops: list[dict[str, Any]],
) -> bool:
    """Tab through the same stops again, screenshotting those in ``again`` while focused.
    False when the walk does not reach the same elements in the same order.

    Where Tab starts depends on where the focus last was (a blurred element stays the
    starting point), so the walk first tabs round until it reaches the first stop again."""
    driver = world.driver
    await driver.evaluate(_BLUR_JS)
    todo = set(again)
    try:
        for _ in range(len(found_stops) + 2):
            await driver.press_tab()
            found = await world.call("__argusFocus.current()")
            if isinstance(found, dict) and found["seen"] == 0:
                break
        else:
            return False
        for i in range(len(found_stops)):
            if i > 0:
                await driver.press_tab()
                found = await world.call("__argusFocus.current()")
            if not isinstance(found, dict) or found["seen"] != i:
                return False
            if i in todo:
                clip = _clip(found)
                if clip is None:
                    return False
                stops[i]["changed_pixels"] = _changed(render, await _shot(driver, clip), clip)
                stops[i]["method"] = "focused"
        # On to where the first walk ended (the focus left the page, or came back round).
        await driver.press_tab()
        return True
    finally:
        await world.call("__argusFocus.back()")  # the page left as the walk found it


def _grown(clip: Clip, by: float) -> Clip:
    return Clip(
        x=clip["x"] - by,
        y=clip["y"] - by,
        width=clip["width"] + 2 * by,
        height=clip["height"] + 2 * by,
    )


def _overlap(a: Any, b: Any) -> bool:
    return bool(
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def _groups(clips: dict[int, Clip]) -> list[list[int]]:
    """Stops in walk order, each in the first group where its clip, grown by PAD, meets no
    member's clip: focus rings of one group stay apart."""
    groups: list[list[int]] = []
    for i, clip in clips.items():
        grown = _grown(clip, PAD)
        for group in groups:
            if not any(_overlap(grown, clips[j]) for j in group):
                group.append(i)
                break
        else:
            groups.append([i])
    return groups


def _union(clips: Sequence[Clip | None]) -> Clip:
    boxes = [c for c in clips if c is not None]
    x0, y0 = min(c["x"] for c in boxes), min(c["y"] for c in boxes)
    x1 = max(c["x"] + c["width"] for c in boxes)
    y1 = max(c["y"] + c["height"] for c in boxes)
    return Clip(x=x0, y=y0, width=x1 - x0, height=y1 - y0)


def _crop(shot: U8, union: Clip, clip: Clip) -> U8:
    """The part of a screenshot of ``union`` that shows ``clip`` (whole CSS px, scale 1)."""
    scale = shot.shape[1] / union["width"] if union["width"] else 1.0
    x0 = round((clip["x"] - union["x"]) * scale)
    y0 = round((clip["y"] - union["y"]) * scale)
    w, h = round(clip["width"] * scale), round(clip["height"] * scale)
    return shot[y0 : y0 + h, x0 : x0 + w]


def _clip(found: dict[str, Any]) -> Clip | None:
    if found["scrolled"] or found["width"] <= 0 or found["height"] <= 0:
        return None
    x0, y0 = max(found["x"] - PAD, 0.0), max(found["y"] - PAD, 0.0)
    x1 = min(found["x"] + found["width"] + PAD, float(found["vw"]))
    y1 = min(found["y"] + found["height"] + PAD, float(found["vh"]))
    if x1 - x0 < 1 or y1 - y0 < 1:
        return None
    x0, y0 = float(int(x0)), float(int(y0))  # whole CSS px, so both crops line up
    return Clip(x=x0, y=y0, width=float(int(x1 - x0)), height=float(int(y1 - y0)))


def _changed(render: U8, shot: U8, clip: Clip) -> int:
    """Pixels of the clip that differ from the same area of the render (device px)."""
    scale = shot.shape[1] / clip["width"] if clip["width"] else 1.0
    x0, y0 = round(clip["x"] * scale), round(clip["y"] * scale)
    h, w = shot.shape[:2]
    area = render[y0 : y0 + h, x0 : x0 + w, :3]
    if area.shape[:2] != (h, w):
        h, w = area.shape[:2]
        shot = shot[:h, :w]
    return int(np.count_nonzero(np.any(area != shot[:, :, :3], axis=2)))
