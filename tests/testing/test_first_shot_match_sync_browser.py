"""The pytest plugin's capture (a test's sync page) ends at a first screenshot equal to the
baseline, as the sensor's does; a baseline that differs, or a capture with the probe, still
takes two identical shots. It freezes the test's page for the capture only: the page is given
back as it was."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, sync_playwright

from argus.errors import SensorError
from argus.sense import discover_browser, launch_args
from argus.testing import _capture
from argus.testing._capture import stable_render

PAGE = "<!doctype html><html><body><h1 style='color:#123'>Still</h1></body></html>"


@pytest.fixture
def page() -> Iterator[Page]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=discover_browser(), args=launch_args(), headless=True
        )
        context = browser.new_context(viewport={"width": 320, "height": 160})
        yield context.new_page()
        browser.close()


@pytest.mark.browser
def test_a_first_shot_equal_to_the_baseline_ends_the_capture(page: Page) -> None:
    page.set_content(PAGE)
    first = stable_render(page)
    assert first.attempts == 2 and first.settled  # nothing to compare with: two shots
    again = stable_render(page, expected=[b"not this image", first.png])
    assert (again.attempts, again.settled, again.png) == (1, True, first.png)
    assert stable_render(page, expected=[b"not this image"]).attempts == 2
    # With the probe, the probe must run between two identical shots: no early end.
    probed = stable_render(page, probe=True, expected=[first.png])
    assert probed.attempts == 2 and probed.probed is not None


MOVING = """<!doctype html><html><head><style>
@keyframes spin { to { transform: rotate(360deg); } }
#spinner { width: 40px; height: 40px; background: #123; animation: spin 1s linear infinite; }
</style></head><body><div id="spinner"></div><input id="field" value="typed"></body></html>"""
STATE_JS = """() => ({
  animations: document.getAnimations().filter(a => a.playState === "running").length,
  caret: getComputedStyle(document.getElementById("field")).caretColor,
  styles: document.querySelectorAll("style").length,
})"""


@pytest.mark.browser
def test_the_capture_freezes_the_page_and_gives_it_back_as_it_was(page: Page) -> None:
    page.set_content(MOVING)
    page.focus("#field")
    before = page.evaluate(STATE_JS)
    assert before["animations"] == 1 and before["styles"] == 1
    render = stable_render(page)
    # Frozen for the capture: an endless spin still gives two identical shots.
    assert render.settled and render.attempts == 2
    # Then the page is the test's again: its own stylesheet alone, the spin running, the caret
    # its own colour.
    assert page.evaluate(STATE_JS) == before


@pytest.mark.browser
def test_a_capture_that_fails_still_gives_the_page_back(
    page: Page, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_: object) -> bytes:
        raise PlaywrightError("the screenshot failed")

    page.set_content(MOVING)
    page.focus("#field")
    before = page.evaluate(STATE_JS)
    monkeypatch.setattr(_capture, "_shot", broken)
    with pytest.raises(SensorError, match="the screenshot failed"):
        stable_render(page)
    assert page.evaluate(STATE_JS) == before  # the freeze was taken out on the way
