"""The Habits app's views, asserted with Argus's pytest plugin beside ordinary Playwright
steps: a snapshot of each view plus, since each names its spec target, the target's gates
that need no build tool (contrast, axe, token compliance, accessibility ids, console, the
focus walk, and the source scans source_tokens and tell_tales)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from argus.testing.plugin import ViewAssert


@pytest.mark.parametrize("appearance", ["light", "dark"])
@pytest.mark.parametrize("state", ["populated", "empty"])
def test_list(
    page: Page, app_url: str, argus_snapshot: ViewAssert, state: str, appearance: str
) -> None:
    page.emulate_media(color_scheme="dark" if appearance == "dark" else "light")
    page.goto(f"{app_url}/?argus_fixture={state}&argus_appearance={appearance}")
    expect(page.get_by_role("heading", name="Habits", exact=True)).to_be_visible()
    argus_snapshot(page, feature="habits", target="list", state=state, appearance=appearance)


def test_add_form_takes_the_focus(page: Page, app_url: str, argus_snapshot: ViewAssert) -> None:
    page.goto(f"{app_url}/?argus_fixture=populated&argus_appearance=light")
    page.get_by_role("button", name="Add habit").click()
    name = page.get_by_role("textbox", name="Habit name")
    expect(name).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Save")).to_be_focused()
    name.focus()
    argus_snapshot(page, feature="habits", target="add", state="open")


def test_a_new_habit_joins_the_list(page: Page, app_url: str, argus_snapshot: ViewAssert) -> None:
    page.goto(f"{app_url}/?argus_fixture=empty&argus_appearance=light")
    page.get_by_role("button", name="Add habit").click()
    page.get_by_role("textbox", name="Habit name").fill("Stretch")
    page.keyboard.press("Enter")
    expect(page.get_by_role("listitem")).to_have_count(1)
    argus_snapshot(page, "one-new-habit")
