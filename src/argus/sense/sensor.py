"""The warm sensor: one browser (and one web server) kept across views and loop iterations.

    with Sensor(config, controls=GATES) as sensor:  # the dead-control probe: whose reader?
        result = sensor.sense(spec, view, out_dir)   # a SenseResult; never raises SensorError
        results = sensor.sense_many(spec, views, out_root, workers=2)

Playwright's sync API is not thread-safe, so the sensor runs Playwright's async API on an event
loop in a background thread; ``sense`` and ``sense_many`` are thread-safe entry points that hand
work to it. Views run concurrently, at most ``workers`` at once, each on a warm page of its own:
a context and page kept across views and reset in between (argus.sense._pages).

``controls`` is the caller's explicit choice whether the dead-control probe runs (a path that
only gates has no reader for it); argus.sense.controls_choice states each path's choice.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from contextlib import ExitStack, asynccontextmanager, suppress
from pathlib import Path
from typing import Any, Self, TypeVar

from playwright.async_api import Browser, Playwright
from playwright.async_api import Error as PlaywrightError

from argus._interrupt import raise_if_interrupted
from argus.closing import Closing
from argus.config import ProjectConfig
from argus.diff.masks import MaskSelectorError
from argus.errors import SensorError
from argus.io import atomic_write_json, read_json
from argus.sense._controls import TakePage, copies_for
from argus.sense._fonts import FontProbe
from argus.sense._pages import PagePool, WarmPage
from argus.sense.adapter import sense_adapter_view
from argus.sense.attempt import add_to_attempt, begin_attempt, fail_attempt, seal_attempt
from argus.sense.browser import (
    discover_browser,
    launch_args,
    neutral_user_agent,
    public_endpoint,
    remote_endpoint,
    start_playwright,
)
from argus.sense.controls_choice import (
    LOOP_AFTER_GATES,
    LOOP_DEFERRED,
    ControlsChoice,
    controls_record,
)
from argus.sense.page_state import watch_sockets
from argus.sense.probe import located_mask_error
from argus.sense.result import CONTROLS, META, SenseResult
from argus.sense.server import web_server
from argus.sense.truncate import truncate_probe
from argus.sense.views import ViewPlan, plan_view
from argus.sense.web import context_options, controls_evidence, sense_web_view
from argus.spec.model import Spec, View

T = TypeVar("T")
OnDone = Callable[[SenseResult], None]


class Sensor(Closing):
    """Context manager holding a warm browser; see the module docstring."""

    def __init__(
        self,
        config: ProjectConfig,
        root: Path | None = None,
        *,
        controls: ControlsChoice,
        workers: int | None = None,
    ) -> None:
        self.config = config
        self.controls = controls
        self.root = (root or config.root).resolve()
        self.workers = max(1, workers or config.pool_size)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None
        self._browser_path = ""
        self._browser_lock: asyncio.Lock | None = None
        self._pages = PagePool(self._new_page, self.workers)
        # Pages for the dead-control probe's copies of a view, never lent to a render: the
        # probe leaves an init script in their contexts (argus.sense._controls); it keeps up
        # to ``[sense] control_copies`` side by side per view.
        copies = copies_for(config.sense.control_copies, config.sense.max_controls)
        self._copies = PagePool(self._new_page, self.workers * copies)
        self._server = ExitStack()
        self._server_up = False
        self._server_lock = threading.Lock()
        self._work: set[asyncio.Task[Any]] = set()  # the callers' work running on the loop

    # -- lifetime -------------------------------------------------------------------------
    def __enter__(self) -> Self:
        loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=loop.run_forever, name="argus-sensor", daemon=True)
        self._thread.start()
        self._loop = loop
        return self

    def close(self) -> None:
        try:
            if self._loop is not None:
                self._wait(self._wind_down())
        finally:
            if self._loop is not None:
                self._loop.call_soon_threadsafe(self._loop.stop)
                if self._thread is not None:
                    self._thread.join(timeout=30)
                self._loop.close()
                self._loop = None
            self._server.close()
            self._server_up = False

    def _call(self, work: Coroutine[Any, Any, T]) -> T:
        done = self._wait(work)
        raise_if_interrupted()  # a Ctrl-C while it ran, dropped by Python (argus._interrupt)
        return done

    def _wait(self, work: Coroutine[Any, Any, T]) -> T:
        """``work`` run on the sensor's loop, waited for (``close`` winds down with this, so
        the Ctrl-C it may be cleaning up after is not raised again there)."""
        if self._loop is None:
            work.close()
            raise RuntimeError("use Sensor as a context manager: with Sensor(config) as sensor")
        return asyncio.run_coroutine_threadsafe(self._tracked(work), self._loop).result()

    async def _tracked(self, work: Coroutine[Any, Any, T]) -> T:
        """``work`` as a task ``close`` can find: a Ctrl-C in the caller's thread leaves it
        running on the loop, and it must end before the browser does."""
        task = asyncio.current_task()
        assert task is not None
        self._work.add(task)
        try:
            return await work
        finally:
            self._work.discard(task)

    async def _wind_down(self) -> None:
        """Stop what the caller left running, close the browser, then end every task still on
        the loop as ``asyncio.run`` does: after a Ctrl-C nothing may be left pending to print
        a traceback at exit."""
        current = asyncio.current_task()
        await _cancelled({t for t in self._work if t is not current})
        with suppress(PlaywrightError):  # a driver already gone: nothing left to stop
            await self._shutdown_browser()
        await _cancelled({t for t in asyncio.all_tasks() if t is not current})
        await asyncio.get_running_loop().shutdown_asyncgens()

    async def _shutdown_browser(self) -> None:
        await self._pages.close()
        await self._copies.close()
        if self._browser is not None:
            with suppress(PlaywrightError):  # already gone (crashed, or its farm hung up)
                await self._browser.close()
            self._browser = None
        if self._playwright is not None:
            await self._playwright.stop()
            self._playwright = None

    async def _warm_browser(self) -> Browser:
        if self._browser_lock is None:
            self._browser_lock = asyncio.Lock()
        async with self._browser_lock:
            if self._browser is None or not self._browser.is_connected():
                if self._playwright is None:
                    self._playwright = await start_playwright()
                self._browser = await self._start_browser(self._playwright)
            return self._browser

    async def _start_browser(self, pw: Playwright) -> Browser:
        """Launch the local Chromium, or connect to ``[browser] connect`` (ARGUS_BROWSER_CONNECT
        wins) when the project renders on a browser farm."""
        endpoint, protocol = remote_endpoint(self.config)
        try:
            if endpoint:
                self._browser_path = public_endpoint(endpoint)
                if protocol == "cdp":
                    return await pw.chromium.connect_over_cdp(endpoint, timeout=30_000)
                return await pw.chromium.connect(endpoint, timeout=30_000)
            self._browser_path = discover_browser(self.config)
            return await pw.chromium.launch(
                executable_path=self._browser_path,
                args=launch_args(self.config.browser.args),
                headless=True,
                # A Ctrl-C reaches Playwright's driver too; by default it then kills the browser
                # under the views still running. Argus closes it itself (close, _wind_down).
                handle_sigint=False,
            )
        except PlaywrightError as exc:
            first = exc.message.splitlines()[0] if exc.message else "launch failed"
            verb = "connect to" if endpoint else "launch"
            raise SensorError(f"cannot {verb} {self._browser_path}: {first}") from exc

    async def _new_page(self) -> WarmPage:
        browser = await self._warm_browser()
        try:
            agent = neutral_user_agent(browser.version)
            warm = await WarmPage.open(browser, context_options(self.config, user_agent=agent))
        except PlaywrightError as exc:
            first = exc.message.splitlines()[0] if exc.message else "new page failed"
            raise SensorError(f"browser could not open a page: {first}") from exc
        try:
            # The fonts lookup's CDP domains and Network (websocket handshakes, NetworkMonitor)
            # stay on for the page's life (once, not per view).
            await asyncio.gather(FontProbe(warm.session).enable(), watch_sockets(warm.session))
        except PlaywrightError as exc:
            await warm.close()
            first = exc.message.splitlines()[0] if exc.message else "CDP failed"
            raise SensorError(f"browser could not open a page: {first}") from exc
        return warm

    @asynccontextmanager
    async def _copy_pages(self) -> AsyncIterator[TakePage]:
        """Warm pages for the throw-away copies of a view, taken one by one as the probe
        needs them, each reset for the next view afterwards."""
        taken: list[WarmPage] = []

        async def take() -> WarmPage:
            warm = await self._copies.take()
            taken.append(warm)
            return warm

        done = False
        try:
            yield take
            done = True
        finally:
            for warm in taken:
                self._copies.give_back(warm, reusable=done)

    def _browser_info(self) -> dict[str, str]:
        version = self._browser.version if self._browser is not None else ""
        endpoint, _ = remote_endpoint(self.config)
        if endpoint:
            return {"name": "chromium", "version": version, "endpoint": public_endpoint(endpoint)}
        return {"name": "chromium", "version": version, "executable": self._browser_path}

    def start_server(self, spec: Spec | None = None) -> None:
        """Start the configured web server now (idempotent); SensorError when it cannot."""
        self._ensure_server(spec)

    def _ensure_server(self, spec: Spec | None) -> None:
        """Start the configured web server once, on first use (adapter-only projects never do)."""
        with self._server_lock:
            if not self._server_up:
                self._server.enter_context(web_server(self.config, self.root, spec))
                self._server_up = True

    # -- sensing --------------------------------------------------------------------------
    def plan(self, spec: Spec, view: View, base_url: str | None = None) -> ViewPlan:
        """Resolve a view (InputError/ConfigError for a bad view or config: those raise)."""
        return plan_view(spec, view, self.config, base_url=base_url)

    async def _sense(
        self, spec: Spec, plan: ViewPlan, out_dir: Path, capture_only: bool
    ) -> SenseResult:
        # Recorded before anything is written: from here the files already in out_dir are an
        # older attempt's, and only this attempt's success binds new ones (evidence.attempt).
        attempt = await asyncio.to_thread(begin_attempt, out_dir)
        try:
            result = await self._sense_view(spec, plan, out_dir, capture_only)
        except SensorError as err:
            await asyncio.to_thread(fail_attempt, out_dir, attempt, str(err))
            return SenseResult(view=plan.view, out_dir=out_dir, error=str(err))
        except MaskSelectorError as err:
            # Bad input, not a failed render: the command stops with this one line (exit 2).
            bad = located_mask_error(err, spec, plan.view.target, self.config.framework)
            await asyncio.to_thread(fail_attempt, out_dir, attempt, str(bad))
            raise bad from None
        await asyncio.to_thread(seal_attempt, out_dir, attempt)
        return result

    async def _sense_view(
        self, spec: Spec, plan: ViewPlan, out_dir: Path, capture_only: bool
    ) -> SenseResult:
        if plan.adapter != "web":
            return await sense_adapter_view(
                spec.root, plan, out_dir, timeout=self.config.adapter.timeout
            )
        warm = await self._pages.take()
        done = False
        try:
            result = await sense_web_view(
                warm,
                plan,
                self.config,
                out_dir,
                browser=self._browser_info(),
                probe=not capture_only,
                copy=self._copy_pages,
                controls=self.controls,
            )
            done = True
            return result
        finally:
            self._pages.give_back(warm, reusable=done)

    def probe_controls(
        self,
        spec: Spec,
        view: View,
        out_dir: Path,
        *,
        base_url: str | None = None,
        choice: ControlsChoice = LOOP_AFTER_GATES,
    ) -> bool:
        """The dead-control probe of a view sensed into ``out_dir`` with it left for later
        (``LOOP_DEFERRED``: the loop runs it once the view's gates are green): controls.json
        written, meta.json's ``controls`` record ``choice`` and its ``controls`` timing, both
        added to that sense's sealed files (argus.sense.attempt.add_to_attempt). False, with
        nothing written, when the sense left nothing for later (it ran the probe or left it
        out, an adapter view; meta.json says which). InputError when the files in ``out_dir``
        are not all of its last successful sense; SensorError when the server cannot start.
        A copy that cannot be had is recorded in controls.json as not measured, as in a sense.
        """
        meta = read_json(out_dir / META, what=META)
        record = meta.get("controls") if isinstance(meta, dict) else None
        if record != controls_record(LOOP_DEFERRED):
            return False
        plan = self.plan(spec, view, base_url)
        if plan.adapter != "web" or plan.url is None:
            return False
        if base_url is None and spec.adapter == "web":
            self._ensure_server(spec)

        async def measure() -> tuple[dict[str, Any], float]:
            started = time.perf_counter()
            found = await controls_evidence(self._copy_pages, plan, self.config)
            return found, round((time.perf_counter() - started) * 1000, 1)

        controls, ms = self._call(measure())
        timings = dict(meta.get("timings_ms") or {}) if isinstance(meta, dict) else {}
        timings["controls"] = ms

        def write() -> None:
            atomic_write_json(out_dir / CONTROLS, truncate_probe(controls), durable=False)

        update = {"controls": controls_record(choice), "timings_ms": timings}
        add_to_attempt(out_dir, CONTROLS, write, update)
        return True

    def _prepare(self, spec: Spec, base_url: str | None) -> SenseResult | None:
        """Start the web server when needed; its failure becomes every view's error."""
        if spec.adapter != "web" or base_url is not None:
            return None
        try:
            self._ensure_server(spec)
        except SensorError as err:
            return SenseResult(view=View(spec.feature, "", "", ""), out_dir=Path(), error=str(err))
        return None

    def sense(
        self,
        spec: Spec,
        view: View,
        out_dir: Path,
        *,
        base_url: str | None = None,
        capture_only: bool = False,
    ) -> SenseResult:
        """Sense one view. A sensor failure is returned as ``SenseResult.error``, not raised.

        ``capture_only`` writes render.png, console.json and meta.json (``probed`` false,
        ``evidence`` "snapshot-only") but no probe, fonts, axe, focus walk or controls: the
        snapshot-only path (``argus sense --snapshot-only``) and the benchmark's baseline for
        the probe's cost.
        """
        return self.sense_many(
            spec, [view], out_dir, base_url=base_url, single=True, capture_only=capture_only
        )[0]

    def sense_many(
        self,
        spec: Spec,
        views: Sequence[View],
        out_root: Path,
        *,
        workers: int | None = None,
        base_url: str | None = None,
        on_done: OnDone | None = None,
        single: bool = False,
        capture_only: bool = False,
    ) -> list[SenseResult]:
        """Sense ``views`` into ``out_root/<slug>/`` concurrently; results in the order given.

        ``single`` writes the one view straight into ``out_root``.
        """
        plans = [self.plan(spec, view, base_url) for view in views]
        dirs = [out_root if single else out_root / plan.view.slug for plan in plans]
        failed = self._prepare(spec, base_url)
        if failed is not None:
            results = [
                SenseResult(view=p.view, out_dir=d, error=failed.error)
                for p, d in zip(plans, dirs, strict=True)
            ]
            for item in results:
                fail_attempt(item.out_dir, None, item.error or "")
                if on_done is not None:
                    on_done(item)
            return results
        limit = max(1, workers or self.workers)
        self._pages.keep = self._copies.keep = max(self.workers, limit)

        async def run_all() -> list[SenseResult]:
            gate = asyncio.Semaphore(limit)

            async def one(plan: ViewPlan, out_dir: Path) -> SenseResult:
                async with gate:
                    outcome = await self._sense(spec, plan, out_dir, capture_only)
                if on_done is not None:
                    on_done(outcome)
                return outcome

            # A view that raises (bad input: an unparsable mask selector) does not leave the
            # others running unwatched: every view ends first, then the first error is raised.
            ended = await asyncio.gather(
                *(one(p, d) for p, d in zip(plans, dirs, strict=True)), return_exceptions=True
            )
            for item in ended:
                if isinstance(item, BaseException):
                    raise item
            return [item for item in ended if isinstance(item, SenseResult)]

        return self._call(run_all())


async def _cancelled(tasks: set[asyncio.Task[Any]]) -> None:
    """Cancel ``tasks`` and wait for them, their outcomes (errors included) taken and dropped."""
    for task in tasks:
        task.cancel()
    if tasks:
        await asyncio.gather(*tasks, return_exceptions=True)


def sense_view(
    spec: Spec, view: View, config: ProjectConfig, out_dir: Path, *, controls: ControlsChoice
) -> SenseResult:
    """Sense one view with a browser started for the occasion."""
    with Sensor(config, controls=controls) as sensor:
        return sensor.sense(spec, view, out_dir)


def sense_many(
    spec: Spec,
    views: Sequence[View],
    config: ProjectConfig,
    out_root: Path,
    workers: int | None = None,
    *,
    controls: ControlsChoice,
) -> list[SenseResult]:
    """Sense many views with one browser, ``workers`` at a time (default: the config's pool)."""
    with Sensor(config, workers=workers, controls=controls) as sensor:
        return sensor.sense_many(spec, views, out_root)
