"""What the focus walk (argus.sense.focus_visible) asks of a browser, for Playwright's async API
(the sensor) and its sync API (the pytest plugin's page): one walk, two drivers.

The walk is written once, as coroutines awaiting a ``FocusDriver``. The async driver awaits
Playwright; the sync driver's methods call the sync API and return without ever suspending, so
``run_to_end`` drives the walk to its result with no event loop (a sync Playwright page cannot
be used from inside one).
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Sequence
from typing import Any, Generic, Protocol, TypeVar

from playwright._impl._api_structures import Clip
from playwright.async_api import CDPSession as AsyncSession
from playwright.async_api import Page as AsyncPage
from playwright.sync_api import CDPSession as SyncSession
from playwright.sync_api import Page as SyncPage

T = TypeVar("T")
PageT = TypeVar("PageT", AsyncPage, SyncPage)
SessionT = TypeVar("SessionT", AsyncSession, SyncSession)
Call = tuple[str, dict[str, Any]]  # a CDP method and its parameters


class FocusDriver(Protocol):
    """The page and, optionally, a CDP session on it (``has_session``)."""

    @property
    def has_session(self) -> bool: ...

    def is_closed(self) -> bool: ...

    async def evaluate(self, expression: str) -> Any: ...

    async def press_tab(self) -> None: ...

    async def screenshot(self, clip: Clip) -> bytes: ...

    async def send(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """One CDP call on the session."""
        ...

    async def send_all(self, calls: Sequence[Call]) -> list[dict[str, Any] | BaseException]:
        """Every call (at once where the driver can), each answer or error in call order."""
        ...


class _OnPage(Generic[PageT, SessionT]):
    """A page of either API and, optionally, a CDP session on it."""

    def __init__(self, page: PageT, session: SessionT | None) -> None:
        self.page: PageT = page
        self.session: SessionT | None = session

    @property
    def has_session(self) -> bool:
        return self.session is not None

    def is_closed(self) -> bool:
        return self.page.is_closed()


class AsyncFocusDriver(_OnPage[AsyncPage, AsyncSession]):
    async def evaluate(self, expression: str) -> Any:
        return await self.page.evaluate(expression)

    async def press_tab(self) -> None:
        await self.page.keyboard.press("Tab")

    async def screenshot(self, clip: Clip) -> bytes:
        return await self.page.screenshot(clip=clip, animations="disabled", caret="hide")

    async def send(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        assert self.session is not None
        answer: dict[str, Any] = await self.session.send(method, params)
        return answer

    async def send_all(self, calls: Sequence[Call]) -> list[dict[str, Any] | BaseException]:
        return list(
            await asyncio.gather(*(self.send(m, p) for m, p in calls), return_exceptions=True)
        )


class SyncFocusDriver(_OnPage[SyncPage, SyncSession]):
    """Sync Playwright behind the driver's coroutines, which never suspend (``run_to_end``)."""

    async def evaluate(self, expression: str) -> Any:
        return self.page.evaluate(expression)

    async def press_tab(self) -> None:
        self.page.keyboard.press("Tab")

    async def screenshot(self, clip: Clip) -> bytes:
        return self.page.screenshot(clip=clip, animations="disabled", caret="hide")

    async def send(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        assert self.session is not None
        answer: dict[str, Any] = self.session.send(method, params)
        return answer

    async def send_all(self, calls: Sequence[Call]) -> list[dict[str, Any] | BaseException]:
        answers: list[dict[str, Any] | BaseException] = []
        for method, params in calls:  # one after the other: a sync session sends one at a time
            try:
                answers.append(await self.send(method, params))
            except Exception as exc:  # returned in its place, as asyncio.gather's would be
                answers.append(exc)
        return answers


def run_to_end(coroutine: Coroutine[Any, Any, T]) -> T:
    """The result of a coroutine that never suspends (the walk over a ``SyncFocusDriver``),
    without an event loop; RuntimeError if it does suspend (it awaited real async work)."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        result: T = done.value
        return result
    coroutine.close()
    raise RuntimeError("the focus walk awaited async work on a sync driver")
