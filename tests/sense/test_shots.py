"""The capture's screenshots without a browser: when the fast shot is Playwright's (its clip),
how two shots compare, and when two images hold the same pixels (argus.sense._shots)."""

from __future__ import annotations

import asyncio
import base64
import io
import json
from typing import Any

import numpy as np
import pytest
from PIL import Image
from PIL.PngImagePlugin import PngInfo
from playwright.async_api import Error as PlaywrightError

from argus.diff.png import encode_png
from argus.sense._shots import (
    PREPARE_JS,
    RESTORE_JS,
    Shooter,
    Shot,
    plain_png,
    playwright_options,
    same_image,
    shot_clip,
)

LAYOUT: dict[str, Any] = {
    "frames": 0,
    "ratio": 1,
    "zoom": 1,
    "x": 0,
    "y": 40,
    "width": 1280,
    "height": 800,
    "full": {"width": 1280, "height": 2400},
}


def test_the_viewport_clip_is_the_visual_viewport_where_it_is_scrolled_to() -> None:
    assert shot_clip(LAYOUT, full_page=False) == (
        {"x": 0, "y": 40, "width": 1280, "height": 800, "scale": 1},
        False,
    )


def test_a_full_page_clip_is_the_document_captured_beyond_the_viewport() -> None:
    assert shot_clip(LAYOUT, full_page=True) == (
        {"x": 0, "y": 0, "width": 1280, "height": 2400, "scale": 1},
        True,
    )
    short = {**LAYOUT, "full": {"width": 1280, "height": 600}}
    assert shot_clip(short, full_page=True) == (
        {"x": 0, "y": 0, "width": 1280, "height": 600, "scale": 1},
        False,
    )


@pytest.mark.parametrize(
    "change",
    [{"frames": 1}, {"ratio": 2}, {"zoom": 1.5}, {"full": None}, {"width": None}, {}],
)
def test_what_only_playwright_prepares_gets_playwrights_screenshot(change: dict[str, Any]) -> None:
    layout = {**LAYOUT, **change} if change else {}
    full_page = "full" in change or not change
    assert shot_clip(layout, full_page=full_page) is None


def test_two_shots_are_identical_only_from_one_encoder() -> None:
    assert Shot(b"png", True).same_bytes(Shot(b"png", True))
    assert not Shot(b"png", True).same_bytes(Shot(b"png", False))
    assert not Shot(b"png", True).same_bytes(Shot(b"other", True))


def _image(colour: tuple[int, int, int], size: tuple[int, int] = (4, 3)) -> Any:
    pixels = np.zeros((size[1], size[0], 4), dtype=np.uint8)
    pixels[..., :3] = colour
    pixels[..., 3] = 255
    return pixels


def test_the_same_pixels_from_two_encoders_are_the_same_image() -> None:
    fast, slow = encode_png(_image((9, 8, 7)), 1), encode_png(_image((9, 8, 7)), 9)
    assert fast != slow and same_image(fast, slow)
    assert not same_image(fast, encode_png(_image((9, 8, 6)), 9))
    assert not same_image(fast, encode_png(_image((9, 8, 7), (3, 4)), 9))
    assert not same_image(fast, b"not a png")


def test_a_png_with_more_than_pixels_is_not_plain() -> None:
    plain = encode_png(_image((1, 2, 3)))
    assert plain_png(plain)
    noted = io.BytesIO()
    info = PngInfo()
    info.add_text("Comment", "hello")
    Image.open(io.BytesIO(plain)).save(noted, format="PNG", pnginfo=info)
    assert not plain_png(noted.getvalue())
    assert not plain_png(plain[:-12])  # cut short: not whole


class _ThrowingPage:
    """A CDP session whose page throws in the shot's preparation, and the page's own
    Playwright screenshot (what the shooter falls back to)."""

    def __init__(self) -> None:
        self.expressions: list[str] = []

    async def send(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        if method == "Page.getFrameTree":
            return {"frameTree": {"frame": {"id": "main"}}}
        if method == "Page.createIsolatedWorld":
            return {"executionContextId": 7}
        assert method == "Runtime.evaluate" and params is not None
        self.expressions.append(params["expression"])
        return {"exceptionDetails": {"text": "Uncaught", "exception": {"description": "boom"}}}

    async def screenshot(self, **options: Any) -> bytes:
        assert options == playwright_options(False)
        return b"playwright's"


def test_a_preparation_that_throws_falls_back_to_playwrights_screenshot() -> None:
    page = _ThrowingPage()
    shot = asyncio.run(Shooter(page, page, False)())  # type: ignore[arg-type]
    assert shot == Shot(b"playwright's", False)
    # Whatever the preparation did before it threw is undone.
    assert page.expressions == [PREPARE_JS, RESTORE_JS]


class _CountingSession:
    """A CDP session on a page the fast shot can take: counts the worlds made; the first
    ``fail_worlds`` attempts to make one fail as a navigation would make them."""

    def __init__(self, fail_worlds: int = 0) -> None:
        self.worlds = 0
        self.fail_worlds = fail_worlds

    async def send(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        if method == "Page.getFrameTree":
            return {"frameTree": {"frame": {"id": "main"}}}
        if method == "Page.createIsolatedWorld":
            self.worlds += 1
            if self.worlds <= self.fail_worlds:
                raise PlaywrightError("Frame was detached")
            return {"executionContextId": self.worlds}
        if method == "Runtime.evaluate":
            assert params is not None and params["contextId"] == self.worlds
            layout = json.dumps(LAYOUT) if params["expression"] == PREPARE_JS else None
            return {"result": {"value": layout}}
        assert method == "Page.captureScreenshot" and params is not None
        assert params["optimizeForSpeed"] is True
        return {"data": base64.b64encode(b"fast").decode()}


def test_a_world_started_ahead_is_the_one_the_shots_use() -> None:
    async def run() -> tuple[Shot, Shot, int]:
        session = _CountingSession()
        shoot = Shooter(None, session, False)  # type: ignore[arg-type]
        started = shoot.start()
        assert started is not None and shoot.start() is started  # one world, however often
        first, second = await shoot(), await shoot()
        return first, second, session.worlds

    assert asyncio.run(run()) == (Shot(b"fast", True), Shot(b"fast", True), 1)


def test_a_world_started_ahead_that_failed_is_made_again() -> None:
    async def run() -> tuple[Shot, int]:
        session = _CountingSession(fail_worlds=1)
        shoot = Shooter(None, session, False)  # type: ignore[arg-type]
        shoot.start()
        return await shoot(), session.worlds

    assert asyncio.run(run()) == (Shot(b"fast", True), 2)


def test_playwrights_shooter_starts_no_world() -> None:
    session = _CountingSession()
    assert Shooter(None, session, False, fast=False).start() is None  # type: ignore[arg-type]
