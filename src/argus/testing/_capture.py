"""Capture a test's own Playwright page (sync API) the way Argus's sensor captures a view.

The page belongs to the test: it was opened, navigated and clicked by the test, so nothing
here navigates or resets it. ``stable_render`` freezes animations, transitions and the caret
for the capture only (the stylesheet is taken out again afterwards), waits for fonts and two
drawn frames, and takes screenshots until two in a row are byte-identical, as the sensor does.
``sense_page`` adds what the gates read, into one directory in the sensor's file format:
probe.json (element dump and ARIA snapshot, taken while the page is frozen and at rest),
console.json (the messages the page logged so far, from Playwright's own record), axe.json
(axe-core in an isolated world, so the page never sees it), focus.json when the focus_visible
gate runs (the sensor's focus walk, argus.sense.focus_visible, run on the sync page while it is
still frozen: it presses Tab through the page and leaves nothing focused) and meta.json.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from argus.config import ProjectConfig
from argus.errors import InputError, SensorError
from argus.io import atomic_write_json
from argus.sense import result as files
from argus.sense.attempt import begin_attempt, fail_attempt, seal_attempt
from argus.sense.axe import load_request, read_results, run_request, world_request
from argus.sense.controls_choice import PYTEST_PLUGIN  # the plugin only gates
from argus.sense.focus_visible import focus_visibility_sync
from argus.sense.framework_settle import settle_framework_sync
from argus.sense.output import Probed, WebCapture, web_meta, write_sensed_files
from argus.sense.page_state import FREEZE_CSS, SETTLE_JS, UNFREEZE_JS
from argus.sense.probe import PROBE_WORLD, ProbeBudget, probe_request, read_probe
from argus.sense.views import ViewPlan
from argus.sense.web import MAX_ATTEMPTS, ConsoleLog
from argus.sense.world import isolated_world_request, main_frame_id, raise_on_exception
from argus.spec.model import View, Viewport

MASK_COLOR = "#FF00FF"


@dataclass(frozen=True)
class Render:
    png: bytes
    settled: bool  # two consecutive screenshots were identical
    attempts: int
    probed: Probed | None = None
    focus: dict[str, Any] | None = None  # the focus walk (focus.json), when asked for


def stable_render(
    page: Page,
    *,
    full_page: bool = False,
    mask: Sequence[Locator] = (),
    probe: bool = False,
    walk_focus: bool = False,
    expected: Collection[bytes] = (),
    budget: ProbeBudget | None = None,
) -> Render:
    """Screenshots until two in a row are identical (at most MAX_ATTEMPTS), with the probe
    (``budget``: its size and the mask selectors it resolves) taken between the last two when
    ``probe``, then the focus walk when ``walk_focus``; SensorError when the browser fails.

    Without the probe, a first screenshot byte-identical to one of ``expected`` (the baseline)
    ends the capture there, as the sensor's does (argus.sense.web.stable_capture) and as
    Playwright's toHaveScreenshot does: an image equal to a render taken at rest proves the
    page reached that rest."""
    try:
        with _frozen(page):
            render = _until_identical(page, full_page, list(mask), probe, expected, budget)
            if not walk_focus:
                return render
            # The walk compares each stop with the page unfocused: the render, unless masks
            # were painted over it (then a screenshot of the same page without them).
            unfocused = _shot(page, full_page, []) if mask else render.png
            return replace(render, focus=_focus_walk(page, unfocused))
    except PlaywrightError as exc:
        raise SensorError(f"capturing {page.url} failed: {_first_line(exc)}") from exc


@contextmanager
def _frozen(page: Page) -> Iterator[None]:
    """Animations, transitions and the caret frozen (the stylesheet taken out afterwards),
    fonts loaded and two frames drawn: in one evaluation, as the sensor settles (three took
    about 20 ms more on the example)."""
    try:
        page.evaluate(SETTLE_JS, {"css": FREEZE_CSS, "frames": True})
        yield
    except BaseException:
        with suppress(PlaywrightError):  # the first failure is the one to tell
            page.evaluate(UNFREEZE_JS, FREEZE_CSS)
        raise
    page.evaluate(UNFREEZE_JS, FREEZE_CSS)


def _focus_walk(page: Page, unfocused: bytes) -> dict[str, Any]:
    session = page.context.new_cdp_session(page)
    try:
        return focus_visibility_sync(page, unfocused, session)
    finally:
        session.detach()


def _shot(page: Page, full_page: bool, mask: list[Locator]) -> bytes:
    return page.screenshot(
        type="png",
        animations="disabled",
        caret="hide",
        full_page=full_page,
        scale="css",
        mask=mask,
        mask_color=MASK_COLOR,
    )


def _until_identical(
    page: Page,
    full_page: bool,
    mask: list[Locator],
    probe: bool,
    expected: Collection[bytes],
    budget: ProbeBudget | None = None,
) -> Render:
    def shot() -> bytes:
        return _shot(page, full_page, mask)

    previous = shot()
    if not probe and previous in expected:
        return Render(previous, True, 1, None)
    probed = None
    for attempt in range(2, MAX_ATTEMPTS + 1):
        if probe:
            probed = _probe(page, budget)
        current = shot()
        if current == previous:
            return Render(current, True, attempt, probed)
        previous = current
    return Render(previous, False, MAX_ATTEMPTS, probed)


def _probe(page: Page, budget: ProbeBudget | None = None) -> Probed:
    budget = budget or ProbeBudget()
    session = page.context.new_cdp_session(page)
    try:  # in an isolated world, as the sensor reads it (argus.sense.world)
        tree = session.send("Page.getFrameTree")
        world = session.send(
            "Page.createIsolatedWorld", isolated_world_request(main_frame_id(tree), PROBE_WORLD)
        )
        answer = session.send(
            "Runtime.evaluate", probe_request(int(world["executionContextId"]), budget)
        )
    finally:
        session.detach()
    elements, _fonts, sections = read_probe(answer)
    try:
        aria: str | None = page.locator("body").aria_snapshot(timeout=budget.aria_timeout_s * 1000)
    except PlaywrightTimeoutError:
        aria = None  # a huge page: probe.json says the snapshot is missing
    return elements, aria, sections


def console_record(page: Page) -> dict[str, Any]:
    """What the page logged so far and its uncaught errors, as console.json stores them
    (Playwright 1.56+ keeps them for the page: Argus needs no listener from the test's start)."""
    log = ConsoleLog()
    for message in page.console_messages():
        log.add_message(message)
    for error in page.page_errors():
        log.add_page_error(error)
    return log.as_json()


def run_axe_sync(page: Page, config: ProjectConfig) -> dict[str, Any]:
    """axe-core on the page, in an isolated world of its main frame (as the sensor runs it)."""
    session = page.context.new_cdp_session(page)
    try:
        tree = session.send("Page.getFrameTree")
        world = session.send(
            "Page.createIsolatedWorld", world_request(tree["frameTree"]["frame"]["id"])
        )
        context_id = int(world["executionContextId"])
        loaded = session.send("Runtime.evaluate", load_request(context_id))
        raise_on_exception(loaded, "loading axe-core")
        budget = ProbeBudget(
            config.sense.max_elements, config.sense.per_shape, config.sense.aria_timeout
        )
        answer = session.send("Runtime.evaluate", run_request(context_id, config.gates.axe, budget))
        return read_results(answer, config.gates.axe)
    finally:
        session.detach()


def sense_page(
    page: Page,
    view: View,
    out_dir: Path,
    config: ProjectConfig,
    *,
    gates: tuple[str, ...],
    full_page: bool = False,
    mask: Sequence[Locator] = (),
    masks: Sequence[str] = (),
) -> Render:
    """The page's render plus the files the gates read, in the sensor's format, in ``out_dir``.
    ``masks``: the view's snapshot mask selectors, resolved in the page and recorded in
    probe.json (argus.diff.masks); MaskSelectorError for one the page cannot parse."""
    started = time.perf_counter()
    size = page.viewport_size or {"width": config.viewport.width, "height": config.viewport.height}
    plan = ViewPlan(
        view=view,
        adapter="web",
        route=page.url,
        fixture=view.state,
        viewport=Viewport(size["width"], size["height"]),
        full_page=full_page,
        url=page.url,
        gates=gates,
    )
    attempt = begin_attempt(out_dir)  # what was in out_dir is an older attempt's from here
    try:
        settle_framework_sync(page, config.framework, config.browser.timeout)
        render = stable_render(
            page,
            full_page=full_page,
            mask=mask,
            probe=True,
            walk_focus="focus_visible" in gates,
            budget=ProbeBudget(masks=tuple(masks), full_page=full_page),
        )
        axe = run_axe_sync(page, config) if "axe" in gates else None
        console = console_record(page)
        browser = page.context.browser
    except PlaywrightError as exc:
        error = SensorError(f"reading {page.url} failed: {_first_line(exc)}")
        fail_attempt(out_dir, attempt, str(error))
        raise error from exc
    except (SensorError, InputError) as exc:
        fail_attempt(out_dir, attempt, str(exc))
        raise
    capture = WebCapture(
        url=page.url,
        png=render.png,
        probed=render.probed,
        console=console,
        axe=axe,
        settled=render.settled,
        attempts=render.attempts,
        focus_visible=render.focus,
    )
    write_sensed_files(plan, out_dir, capture)
    info = {
        "name": browser.browser_type.name if browser is not None else "chromium",
        "version": browser.version if browser is not None else "",
        "executable": "",
    }
    timings = {"total": round((time.perf_counter() - started) * 1000, 1)}
    meta = web_meta(
        plan, capture, None, browser=info, timings=timings, probed=True, controls=PYTEST_PLUGIN
    )
    atomic_write_json(out_dir / files.META, meta)
    seal_attempt(out_dir, attempt)
    return render


def _first_line(exc: PlaywrightError) -> str:
    lines = [line for line in (exc.message or "").splitlines() if line.strip()]
    return lines[0] if lines else type(exc).__name__
