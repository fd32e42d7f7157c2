"""The built-in web sensor: one view on a warm page (argus.sense._pages), written to one directory.

Order: viewport and colour scheme -> navigate -> load -> fonts ready and animations,
transitions and caret frozen -> network quiet (two frames drawn after the last request) ->
the state's interaction steps, if any, then fonts and a quiet network again -> screenshots
until two in a row are byte-identical, the probe (element dump, ARIA snapshot) beside the last
one -> axe -> files, with the fonts-used lookup beside both.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Collection, Iterable, Mapping
from contextlib import AbstractAsyncContextManager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol, TypeVar

from playwright.async_api import CDPSession, Page
from playwright.async_api import Error as PlaywrightError

from argus.config import ProjectConfig
from argus.errors import InputError, SensorError
from argus.io import atomic_write_json, read_bytes, read_json
from argus.sense import result as files
from argus.sense._controls import (
    CONTROLS_VERSION,
    CopyView,
    TakePage,
    copies_for,
    probe_controls,
)
from argus.sense._focus_trap import trap_walk
from argus.sense._fonts import FontProbe
from argus.sense._pages import WarmPage
from argus.sense._shots import Shooter, Shot, plain_png, same_image
from argus.sense._steps import focus_walk, run_steps
from argus.sense.axe import LoadedAxe, load_axe, run_axe
from argus.sense.controls_choice import (
    LOOP_DEFERRED,
    NO_CONTROLS,
    SNAPSHOT_ONLY,
    ControlsChoice,
)
from argus.sense.focus_visible import focus_visibility
from argus.sense.framework_settle import FrameworkSettle, framework_settle, settle_framework
from argus.sense.output import Probed, WebCapture, web_meta, write_sensed_files
from argus.sense.page_state import FONTS_READY_JS, FREEZE_CSS, SETTLE_JS, NetworkMonitor
from argus.sense.probe import ProbeBudget, aria_snapshot, dump_elements, warm_probe
from argus.sense.result import SenseResult
from argus.sense.truncate import truncate_probe
from argus.sense.views import ViewPlan

MAX_ATTEMPTS = 5
COUNT_ELEMENTS_JS = "() => document.getElementsByTagName('*').length"
MAX_EXPECTED_BYTES = 64 * 1024 * 1024
MAX_CONSOLE_MESSAGES = 200
T = TypeVar("T")
A = TypeVar("A")
B = TypeVar("B")
# Pages of their own for the dead-control probe's throw-away copies of the view (never the
# page the render comes from: the probe adds an init script and routes to their contexts):
# the context manager gives a function that takes one more, and takes them all back after.
CopyPage = Callable[[], AbstractAsyncContextManager[TakePage]]


class ConsoleMessageLike(Protocol):
    """A console message from Playwright's async or sync API."""

    @property
    def type(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def location(self) -> Mapping[str, Any]: ...


@dataclass
class ConsoleLog:
    """Console messages and uncaught page errors, as console.json stores them."""

    messages: list[dict[str, str]] = field(default_factory=list)
    page_errors: list[dict[str, str]] = field(default_factory=list)
    dropped: int = 0

    def attach(self, page: Page) -> None:
        page.on("console", self.add_message)
        page.on("pageerror", self.add_page_error)

    def detach(self, page: Page) -> None:
        page.remove_listener("console", self.add_message)
        page.remove_listener("pageerror", self.add_page_error)

    def add_message(self, message: ConsoleMessageLike) -> None:
        if len(self.messages) >= MAX_CONSOLE_MESSAGES:
            self.dropped += 1
            return
        where = message.location
        location = (
            f"{where.get('url', '')}:{where.get('lineNumber', 0)}:{where.get('columnNumber', 0)}"
        )
        self.messages.append({"level": message.type, "text": message.text, "location": location})

    def add_page_error(self, error: PlaywrightError) -> None:
        self.page_errors.append(
            {"text": f"{error.name}: {error.message}" if error.name else error.message}
        )

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"messages": self.messages, "page_errors": self.page_errors}
        if self.dropped:
            data["dropped_messages"] = self.dropped
        result: dict[str, Any] = truncate_probe(data)
        return result


class Clock:
    """Milliseconds per named phase."""

    def __init__(self) -> None:
        self.timings: dict[str, float] = {}
        self._start = time.perf_counter()

    async def phase(self, name: str, work: Awaitable[T]) -> T:
        started = time.perf_counter()
        try:
            return await work
        finally:
            self.timings[name] = round((time.perf_counter() - started) * 1000, 1)

    def total(self) -> None:
        self.timings["total"] = round((time.perf_counter() - self._start) * 1000, 1)


async def _probe(
    page: Page, session: CDPSession, budget: ProbeBudget
) -> tuple[Probed, dict[str, Any]]:
    """The element dump and ARIA snapshot, and the fonts lookup's representatives.

    A page over the element budget gets no ARIA snapshot (Playwright's takes minutes there);
    probe.json says it is missing and the judge's template check abstains."""
    huge = await page.evaluate(COUNT_ELEMENTS_JS) > budget.max_elements
    aria = _none() if huge else aria_snapshot(page, budget.aria_timeout_s)
    (elements, picks, sections), snapshot = await together(dump_elements(session, budget), aria)
    return (elements, snapshot, sections), picks


async def _none() -> None:
    return None


def probe_budget(plan: ViewPlan, config: ProjectConfig) -> ProbeBudget:
    sense = config.sense
    return ProbeBudget(
        sense.max_elements,
        sense.per_shape,
        sense.aria_timeout,
        plan.keep_ids,
        masks=plan.masks,
        full_page=plan.full_page,
    )


def expected_images(plan: ViewPlan, out_dir: Path) -> tuple[bytes, ...]:
    """What a first screenshot may match to end the capture early: the view's snapshot
    baseline and the render already in ``out_dir`` when its meta.json says it was taken at
    rest (unreadable or huge files are skipped)."""
    previous = out_dir / files.RENDER if _settled(out_dir) else None
    return readable_images((plan.baseline, previous))


def readable_images(paths: Iterable[Path | None]) -> tuple[bytes, ...]:
    """The bytes of each image in ``paths`` that can be read: a missing, unreadable, huge or
    symlinked file (or None) is skipped, never an error."""
    found: list[bytes] = []
    for path in paths:
        if path is None or path.is_symlink():
            continue
        try:
            found.append(read_bytes(path, what="expected image", limit=MAX_EXPECTED_BYTES))
        except InputError:
            continue
    return tuple(found)


def _settled(out_dir: Path) -> bool:
    try:
        meta = read_json(out_dir / files.META, what="meta.json")
    except InputError:
        return False
    return isinstance(meta, dict) and meta.get("settled") is True


async def _nothing() -> None:
    return None


async def _matched(shot: Shot, expected: Collection[bytes]) -> bytes | None:
    """The render's bytes when ``shot`` holds the pixels of one of the ``expected`` images,
    else None. Byte-identical: the shot. The same pixels from another encoder (a baseline
    written from Playwright's screenshot or by an older Argus): that image's bytes when it
    holds nothing but pixels (argus.sense._shots.plain_png), so the render stays byte-identical
    to its baseline and every byte-identity shortcut after it holds; else the shot's."""
    if shot.png in expected:
        return shot.png
    if not expected:
        return None

    def compare() -> bytes | None:
        for image in expected:
            if same_image(shot.png, image):
                return image if plain_png(image) else shot.png
        return None

    return await asyncio.to_thread(compare)


async def stable_capture(
    shoot: Callable[[], Awaitable[Shot]],
    page: Page,
    probe_with: CDPSession | None = None,
    warmed: Awaitable[None] | None = None,
    budget: ProbeBudget | None = None,
    expected: Collection[bytes] = (),
    first: Shot | None = None,
) -> tuple[bytes, tuple[Probed, dict[str, Any]] | None, bool, int]:
    """Screenshots (``shoot``, argus.sense._shots.Shooter) until two consecutive ones are
    byte-identical, at most MAX_ATTEMPTS. Two shots count as identical only when one encoder
    took both (``Shot.same_bytes``).

    The probe (through ``probe_with``, a CDP session of ``page``) runs alongside each
    confirming screenshot: when the screenshots before and after it are identical the page was
    at rest while it ran, so it describes the render. It only reads the page. ``warmed`` (the
    probe's cold start, which only reads the page too) may still be running during the first
    screenshot; it is awaited before the probe runs.

    With ``expected`` images (the view's baseline, its previous render) the first shot is
    taken beside the probe and, when it holds the pixels of one of them (``_matched``), ends
    the capture there, as Playwright's toHaveScreenshot stops at a first match: an image equal
    to a render taken at rest proves the page reached that rest. Otherwise the two-shot rule
    goes on.

    ``first`` is a first screenshot already taken at rest (during the network's quiet
    window); the capture goes on from it. With the probe, a first shot that matches an
    expected image does not end the capture (the probe still needs its confirming shot)."""

    probed: tuple[Probed, dict[str, Any]] | None = None
    if first is not None:
        previous = first
        if probe_with is None and (kept := await _matched(previous, expected)) is not None:
            return kept, None, True, 1
        if warmed is not None:
            await warmed
    elif expected:
        if warmed is not None:
            await warmed
        if probe_with is not None:
            previous, probed = await together(
                shoot(), _probe(page, probe_with, budget or ProbeBudget())
            )
        else:
            previous = await shoot()
        if (kept := await _matched(previous, expected)) is not None:
            return kept, probed, True, 1
    else:
        previous = await shoot()
        if warmed is not None:
            await warmed
    for attempt in range(2, MAX_ATTEMPTS + 1):
        if probe_with is not None:
            current, probed = await together(
                shoot(), _probe(page, probe_with, budget or ProbeBudget())
            )
        else:
            current = await shoot()
        if current.same_bytes(previous):
            return current.png, probed, True, attempt
        previous = current
    return previous.png, probed, False, MAX_ATTEMPTS


def context_options(config: ProjectConfig, *, user_agent: str | None = None) -> dict[str, Any]:
    """Options shared by every view's context; per-view viewport and colour scheme are set on
    the page, so a context can be made ahead of time. ``user_agent`` replaces the headless
    browser's own (argus.sense.browser.neutral_user_agent)."""
    agent = {"user_agent": user_agent} if user_agent else {}
    return {
        **agent,
        "viewport": {"width": config.viewport.width, "height": config.viewport.height},
        "device_scale_factor": 1,
        "reduced_motion": "reduce",
        "locale": config.browser.locale,
        "timezone_id": config.browser.timezone,
        "service_workers": "block",
    }


def _color_scheme(plan: ViewPlan) -> Literal["light", "dark", "null"]:
    scheme = plan.color_scheme
    return "light" if scheme == "light" else "dark" if scheme == "dark" else "null"


def _first_line(exc: PlaywrightError, default: str) -> str:
    return exc.message.splitlines()[0] if exc.message else default


async def sense_web_view(
    warm: WarmPage,
    plan: ViewPlan,
    config: ProjectConfig,
    out_dir: Path,
    *,
    browser: dict[str, str],
    probe: bool = True,
    copy: CopyPage | None = None,
    controls: ControlsChoice,
) -> SenseResult:
    """Sense one view on a warm ``page`` into ``out_dir``; SensorError when it cannot.

    The caller owns the page (and resets or closes it afterwards). ``probe=False`` captures
    only: no probe.json, fonts or axe (the benchmark's baseline). ``controls`` says whether
    the dead-control probe runs (argus.sense.controls_choice); ``copy`` gives the pages it
    loads its copies of the view on (needed when it runs). meta.json records what happened.
    """
    choice = effective_controls(controls, probe=probe, max_controls=config.sense.max_controls)
    if choice.run and copy is None:
        raise ValueError("the dead-control probe runs on a copy page: pass copy")
    assert plan.url is not None, "web views always have a URL"
    page = warm.page
    console = ConsoleLog()
    console.attach(page)
    network = NetworkMonitor(page, warm.session)
    framework = framework_settle(page, config.framework)
    try:
        return await _sense(
            warm,
            plan,
            config,
            out_dir,
            browser,
            probe,
            console,
            network,
            copy if choice.run else None,
            framework,
            choice,
        )
    finally:
        console.detach(page)
        network.detach()
        if framework is not None:
            framework.detach()


def effective_controls(choice: ControlsChoice, *, probe: bool, max_controls: int) -> ControlsChoice:
    """The caller's choice, unless the sense leaves the probe out anyway: capturing only, or
    ``[sense] max_controls`` 0."""
    if not probe:
        return SNAPSHOT_ONLY
    if (choice.run or choice == LOOP_DEFERRED) and max_controls <= 0:
        return NO_CONTROLS
    return choice


async def _prepare(warm: WarmPage, plan: ViewPlan, timeout_s: float) -> None:
    """The view's viewport and colour scheme; skipped when the page already has them."""
    warm.context.set_default_timeout(timeout_s * 1000)
    viewport = (plan.viewport.width, plan.viewport.height)
    scheme = _color_scheme(plan)
    steps: list[Awaitable[None]] = []
    if warm.viewport != viewport:
        steps.append(warm.page.set_viewport_size({"width": viewport[0], "height": viewport[1]}))
    if warm.color_scheme != scheme:
        steps.append(warm.page.emulate_media(color_scheme=scheme, reduced_motion="reduce"))
    # Unknown until both are done: a failure in between must not leave a stale record.
    warm.viewport = warm.color_scheme = None
    await asyncio.gather(*steps)
    warm.viewport, warm.color_scheme = viewport, scheme


async def _at_rest(
    page: Page,
    network: NetworkMonitor,
    timeout_s: float,
    frozen: Callable[[], None] = lambda: None,
    beside: Callable[[], Awaitable[Shot]] | None = None,
) -> bool:
    """Fonts ready and the freeze stylesheet in, then a quiet network; False when it never is.

    The network is quiet only after the page drew two frames past its last request, and those
    come after the fonts and the stylesheet, so the render is at rest with both. One
    evaluation (SETTLE_JS) adds the stylesheet, waits for the fonts and draws the first two
    frames; when nothing happened on the network meanwhile they count as the quiet wait's
    first frames. With a request in flight when it starts (a fixture the page fetches on
    load), frames drawn then could never count, as the request's end comes after them: the
    evaluation draws none, and the quiet wait draws its two after the end (measured on the
    example: 20 ms less settling a view). ``frozen`` is called in between: what starts there
    shares the page's main thread with the quiet wait, not with the steps before it.
    ``beside``: the first
    screenshot, taken during the network's quiet window (``network.early``; see
    NetworkMonitor.wait_idle)."""
    mark = network.mark()
    await page.evaluate(SETTLE_JS, {"css": FREEZE_CSS, "frames": mark is not None})
    frozen()
    return await network.wait_idle(timeout_s, beside=beside, drawn=mark)


async def _interact(
    warm: WarmPage,
    plan: ViewPlan,
    network: NetworkMonitor,
    timeout_s: float,
    framework: FrameworkSettle | None = None,
) -> None:
    """The state's steps on the settled page, then at rest again (fonts, quiet network)."""
    if any(step.action in ("set_viewport", "emulate") for step in plan.steps):
        # The page no longer has the view's viewport or media: the next view sets them again.
        warm.viewport = warm.color_scheme = None
    await run_steps(warm.page, plan.steps, plan.view.slug)
    await warm.page.evaluate(FONTS_READY_JS)
    if not await network.wait_idle(timeout_s):
        raise SensorError(
            f"{plan.view.slug}: the page kept loading for {timeout_s:g}s after its steps "
            "(network never went idle)"
        )
    await settle_framework(framework, network, timeout_s, f"{plan.view.slug}: after its steps")


async def _run_loaded(
    warm: WarmPage, loading: Awaitable[LoadedAxe], config: ProjectConfig, budget: ProbeBudget
) -> dict[str, Any]:
    return await run_axe(warm.session, await loading, config.gates.axe, budget)


async def together(first: Awaitable[A], second: Awaitable[B]) -> tuple[A, B]:
    """Both awaited side by side, as ``asyncio.gather`` does, except that when one fails the
    other is cancelled and waited for before the error goes on: a probe that throws never
    leaves its paired screenshot running on the page the caller is about to leave."""
    tasks = (asyncio.ensure_future(first), asyncio.ensure_future(second))
    try:
        done = await asyncio.gather(*tasks)
    except BaseException:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise
    return done[0], done[1]


async def _abandon(*tasks: asyncio.Future[Any] | None) -> None:
    """Cancel side tasks a failed view left running, and collect their outcome."""
    for task in tasks:
        if task is not None and not task.done():
            task.cancel()
        if task is not None:
            with suppress(asyncio.CancelledError, PlaywrightError, SensorError):
                await task


async def controls_evidence(
    copy: CopyPage, plan: ViewPlan, config: ProjectConfig
) -> dict[str, Any]:
    """The dead-control probe on a copy of the view (argus.sense._controls): controls.json.
    A copy that cannot be had is recorded as not measured, never as a failed sense."""
    assert plan.url is not None
    timeout = config.browser.timeout
    view = CopyView(
        plan.url,
        plan.view.slug,
        plan.steps,
        timeout,
        lambda other: _prepare(other, plan, timeout),
        config.framework,
    )
    limit = config.sense.max_controls
    try:
        async with copy() as take:
            copies = copies_for(config.sense.control_copies, limit)
            return await probe_controls(take, view, limit, copies)
    except (SensorError, PlaywrightError) as exc:
        reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        return {"version": CONTROLS_VERSION, "url": plan.url, "error": reason, "controls": []}


async def _sense(
    warm: WarmPage,
    plan: ViewPlan,
    config: ProjectConfig,
    out_dir: Path,
    browser: dict[str, str],
    probe: bool,
    console: ConsoleLog,
    network: NetworkMonitor,
    copy: CopyPage | None,
    framework: FrameworkSettle | None,
    controls: ControlsChoice,
) -> SenseResult:
    assert plan.url is not None
    url = plan.url
    page = warm.page
    clock = Clock()
    try:
        await _prepare(warm, plan, config.browser.timeout)
        try:
            response = await clock.phase("navigate", page.goto(url, wait_until="load"))
        except PlaywrightError as exc:
            reason = _first_line(exc, "navigation failed")
            raise SensorError(f"{plan.view.slug}: {url} did not answer ({reason})") from exc
        if response is not None and response.status >= 400:
            raise SensorError(f"{plan.view.slug}: {url} answered HTTP {response.status}")
        # Reading the page never changes it, so what only reads runs beside the waits and the
        # first screenshot: sending and evaluating axe's source, and the probe's first (cold)
        # ARIA pass, which injects and warms Playwright's script. That pass starts once fonts
        # are ready and the page is frozen (measured: ~5 ms less settling than beside them).
        font_probe = FontProbe(warm.session) if probe else None
        looking_up_fonts: asyncio.Future[dict[str, Any]] | None = None
        warming: asyncio.Future[None] | None = None
        making_world: asyncio.Future[int] | None = None
        checking_controls: asyncio.Future[dict[str, Any]] | None = None

        def start_warming() -> None:
            nonlocal warming
            if probe and warming is None:
                warming = asyncio.ensure_future(warm_probe(page))

        loading_axe = (
            asyncio.ensure_future(load_axe(warm.session)) if probe and "axe" in plan.gates else None
        )
        try:
            expected = await asyncio.to_thread(expected_images, plan, out_dir)
            # The first screenshot is taken while the network's quiet window runs (unless the
            # state's steps come first). With the probe, its warm-up starts once that shot is
            # taken, not before it: the warm-up has the page's main thread, and a shot beside
            # it only waited for it (measured: settle + capture 70 ms slower). With a baseline
            # to match and the probe, the first shot belongs beside the probe instead (one shot
            # when it matches), so there is no early one.
            # A framework's page may still be busy in the network's quiet window: no early shot.
            quick = not (plan.steps or framework or (probe and expected))
            shoot = Shooter(page, warm.session, plan.full_page)
            making_world = shoot.start()

            async def shoot_then_warm() -> Shot:
                try:
                    return await shoot()
                finally:
                    start_warming()

            early = (shoot_then_warm if probe else shoot) if quick else None
            frozen = (lambda: None) if quick and probe else start_warming
            settling = _at_rest(page, network, config.browser.timeout, frozen, early)
            settled_in_time = await clock.phase("settle", settling)
            start_warming()  # no early shot started it (or none was taken)
            if not settled_in_time:
                raise SensorError(
                    f"{plan.view.slug}: {url} kept loading for {config.browser.timeout:g}s "
                    "(network never went idle)"
                )
            timeout = config.browser.timeout
            if framework is not None:
                what = f"{plan.view.slug}: {url}"
                await clock.phase("framework", settle_framework(framework, network, timeout, what))
            if plan.steps:
                await clock.phase("steps", _interact(warm, plan, network, timeout, framework))
            png, sensed, settled, attempts = await clock.phase(
                "capture_and_probe",
                stable_capture(
                    shoot,
                    page,
                    warm.session if probe else None,
                    warming,
                    probe_budget(plan, config),
                    expected,
                    None if plan.steps or framework else network.early,
                ),
            )
            probed, picks = sensed if sensed is not None else (None, None)
            # The dead-control probe works on a copy of the view on a page of its own, so it
            # runs beside everything that follows on this one.
            if copy is not None:  # the caller's choice (sense_web_view)
                checking_controls = asyncio.ensure_future(
                    clock.phase("controls", controls_evidence(copy, plan, config))
                )
            # Which fonts drew the text is read once the render is confirmed at rest, like
            # axe: beside axe's run and the file writing, off the screenshots' path.
            if font_probe is not None and picks is not None:
                looking_up_fonts = asyncio.ensure_future(font_probe.used(picks))
            axe = None
            if loading_axe is not None:
                # Still loading after the screenshots? That wait is axe's too.
                axe = await clock.phase(
                    "axe", _run_loaded(warm, loading_axe, config, probe_budget(plan, config))
                )
            # Last, as it moves the focus: the keyboard's path the state's expectation names.
            focus = None
            if probe and plan.focus_stops:
                walk = focus_walk(page, warm.session, plan.focus_stops)
                focus = await clock.phase("focus_order", walk)
            trap = None
            if probe and plan.focus_trap is not None:
                trap_walking = trap_walk(page, warm.session, plan.focus_trap)
                trap = await clock.phase("focus_trap", trap_walking)
            # Then each focus stop's visible change, for the focus_visible gate and the
            # accessibility dimension (which measures it whatever the gate list says).
            visibility = None
            if probe:
                if looking_up_fonts is not None:
                    # The walk asks for DOM node ids on the session the fonts lookup uses,
                    # which drops those handed out before: the lookup finishes first.
                    await asyncio.wait([looking_up_fonts])
                # The walk of a huge page is bounded (past the probe's budget); the sensor's
                # session has DOM and CSS on for the page's life (Sensor._new_page).
                budget = probe_budget(plan, config)
                walking = focus_visibility(page, png, warm.session, budget, domains_on=True)
                visibility = await clock.phase("focus_visible", walking)
            capture = WebCapture(
                url=url,
                png=png,
                probed=probed,
                console=console.as_json(),
                axe=axe,
                settled=settled,
                attempts=attempts,
                focus_order=focus,
                focus_visible=visibility,
                focus_trap=trap,
                controls=await checking_controls if checking_controls is not None else None,
            )
            # File writing (JSON encoding, fsync) runs off the event loop, so other views and
            # the fonts lookup keep going.
            _, fonts = await clock.phase(
                "fonts_and_write",
                asyncio.gather(
                    asyncio.to_thread(write_sensed_files, plan, out_dir, capture),
                    looking_up_fonts if looking_up_fonts is not None else _nothing(),
                ),
            )
        finally:
            await _abandon(warming, loading_axe, looking_up_fonts, checking_controls, making_world)
    except PlaywrightError as exc:
        reason = _first_line(exc, type(exc).__name__)
        raise SensorError(
            f"{plan.view.slug}: browser failed while sensing {url}: {reason}"
        ) from exc

    clock.total()
    meta = web_meta(
        plan,
        capture,
        fonts,
        browser=browser,
        timings=clock.timings,
        probed=probe,
        controls=controls,
    )
    await asyncio.to_thread(atomic_write_json, out_dir / files.META, meta, durable=False)
    return SenseResult(
        view=plan.view,
        out_dir=out_dir,
        settled=settled,
        attempts=attempts,
        timings_ms=dict(clock.timings),
    )
