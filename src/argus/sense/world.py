"""Scripts Argus runs in the page, in isolated worlds of its main frame.

An isolated world shares the page's DOM but not its JavaScript globals: a page that replaces
``getComputedStyle``, ``getBoundingClientRect``, ``JSON.stringify`` or an array method changes
nothing Argus's scripts call. Created over CDP (Playwright has no public API for it); one world
per script and document, as a navigation drops the worlds of the document before.
"""

from __future__ import annotations

from typing import Any, Protocol

from argus.errors import SensorError


class CDPSession(Protocol):
    """What a world needs of a CDP session: Playwright's async CDPSession, or the focus
    walk's driver (argus.sense._focus_driver)."""

    async def send(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]: ...


def isolated_world_request(frame_id: str, name: str) -> dict[str, Any]:
    """Page.createIsolatedWorld parameters for the world ``name`` in ``frame_id``."""
    return {"frameId": frame_id, "worldName": name}


def main_frame_id(tree: dict[str, Any]) -> str:
    """The main frame's id in a Page.getFrameTree answer."""
    return str(tree["frameTree"]["frame"]["id"])


def raise_on_exception(answer: dict[str, Any], doing: str) -> None:
    """A Runtime.evaluate answer that threw becomes one line: what failed and the first line
    of what was thrown."""
    details = answer.get("exceptionDetails")
    if details:
        thrown = details.get("exception", {}).get("description") or details.get("text", "")
        first = str(thrown).strip().splitlines()[0] if str(thrown).strip() else "an error"
        raise SensorError(f"{doing} failed in the page: {first}")


def returned_string(answer: dict[str, Any], doing: str) -> str:
    """The string a Runtime.evaluate (returnByValue) answered; anything else is an error."""
    raise_on_exception(answer, doing)
    value = answer.get("result", {}).get("value")
    if not isinstance(value, str):
        raise SensorError(f"{doing} returned no text from the page")
    return value


async def isolated_world(session: CDPSession, name: str) -> int:
    """A new isolated world ``name`` in the current document of the main frame: its
    execution context id."""
    tree = await session.send("Page.getFrameTree")
    world = await session.send(
        "Page.createIsolatedWorld", isolated_world_request(main_frame_id(tree), name)
    )
    return int(world["executionContextId"])


async def evaluate_in(session: CDPSession, context_id: int, expression: str, doing: str) -> Any:
    """The value of ``expression`` evaluated in the world ``context_id``."""
    answer = await session.send(
        "Runtime.evaluate",
        {"expression": expression, "contextId": context_id, "returnByValue": True},
    )
    raise_on_exception(answer, doing)
    return answer.get("result", {}).get("value")
