"""Run a state's interaction steps on a loaded page (the model is argus.spec.steps).

Each step is Playwright's action on a locator, so it waits for the element to be attached,
visible, stable and enabled as a user would need it, and fails when the locator matches no
element or several (strict mode). A failing step raises SensorError naming the step by its
number and what it does; what the page answered is the first line of Playwright's error.
"""

from __future__ import annotations

from typing import Any, cast

from playwright.async_api import CDPSession, Page
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Locator as PlaywrightLocator
from playwright.async_api import TimeoutError as PlaywrightTimeout

from argus.errors import SensorError
from argus.sense.world import evaluate_in, isolated_world
from argus.spec.steps import Locator, Step


def locate(page: Page, locator: Locator) -> PlaywrightLocator:
    """The Playwright locator for a spec locator (exactly one of role, testid, text, css)."""
    if locator.role is not None:
        role = cast(Any, locator.role)  # Playwright types roles as a Literal of ARIA roles
        return page.get_by_role(role, name=locator.name, exact=locator.exact or None)
    if locator.testid is not None:
        return page.get_by_test_id(locator.testid)
    if locator.text is not None:
        return page.get_by_text(locator.text, exact=locator.exact or None)
    assert locator.css is not None, "the schema requires one of role, testid, text, css"
    return page.locator(locator.css)


async def run_step(page: Page, step: Step) -> None:
    """One step; Playwright's error when it fails."""
    timeout = step.timeout_s * 1000
    target = locate(page, step.locator) if step.locator is not None else None
    match step.action:
        case "click":
            assert target is not None
            await target.click(timeout=timeout)
        case "fill":
            assert target is not None and step.value is not None
            await target.fill(step.value, timeout=timeout)
        case "press":
            assert step.key is not None
            if target is None:
                await page.keyboard.press(step.key)
            else:
                await target.press(step.key, timeout=timeout)
        case "hover":
            assert target is not None
            await target.hover(timeout=timeout)
        case "focus":
            assert target is not None
            await target.focus(timeout=timeout)
        case "select":
            assert target is not None
            options = list(step.values) if step.values else step.value
            await target.select_option(options, timeout=timeout)
        case "check":
            assert target is not None
            await target.check(timeout=timeout)
        case "uncheck":
            assert target is not None
            await target.uncheck(timeout=timeout)
        case "scroll_into_view":
            assert target is not None
            await target.scroll_into_view_if_needed(timeout=timeout)
        case "wait_for":
            assert target is not None
            await target.wait_for(state="visible", timeout=timeout)
        case "wait_for_text":
            assert step.text is not None
            await page.get_by_text(step.text).first.wait_for(state="visible", timeout=timeout)
        case "set_viewport":
            assert step.width is not None and step.height is not None
            await page.set_viewport_size({"width": step.width, "height": step.height})
        case "emulate":
            await page.emulate_media(
                reduced_motion=cast(Any, step.reduced_motion),
                color_scheme=cast(Any, step.color_scheme),
            )


async def run_steps(page: Page, steps: tuple[Step, ...], slug: str) -> None:
    """Every step in order; SensorError naming the first that fails."""
    for number, step in enumerate(steps, start=1):
        try:
            await run_step(page, step)
        except PlaywrightTimeout as exc:
            raise SensorError(
                f"{slug}: step {number} ({step.describe()}) timed out after "
                f"{step.timeout_s:g}s: {_first_line(exc)}"
            ) from exc
        except PlaywrightError as exc:
            raise SensorError(
                f"{slug}: step {number} ({step.describe()}) failed: {_first_line(exc)}"
            ) from exc


def _first_line(exc: PlaywrightError) -> str:
    lines = [line for line in (exc.message or "").splitlines() if line.strip()]
    return lines[0] if lines else type(exc).__name__


FOCUS_WORLD = "argus-focus"

# The element holding the keyboard focus, by the ids the spec uses (None: nothing has it).
FOCUSED_JS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body || el === document.documentElement) return null;
  return { id: el.id || "", testid: el.getAttribute("data-testid") || "",
           tag: el.tagName.toLowerCase() };
}"""


async def focus_walk(page: Page, session: CDPSession, stops: int) -> list[dict[str, str] | None]:
    """The focused element, then the one Tab reaches, ``stops`` entries in all. Runs after the
    capture: it moves the focus, so nothing of the render may come after it. The focus is read
    in an isolated world (argus.sense.world): the page cannot fake ``document.activeElement``."""
    world = await isolated_world(session, FOCUS_WORLD)
    reading = f"({FOCUSED_JS})()"
    order: list[dict[str, str] | None] = [
        await evaluate_in(session, world, reading, "reading the focus")
    ]
    for _ in range(stops - 1):
        await page.keyboard.press("Tab")
        order.append(await evaluate_in(session, world, reading, "reading the focus"))
    return order
