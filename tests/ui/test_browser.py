"""The review page in a real Chromium, against a real `argus ui` process: compare, accept a
changed snapshot, approve HE-1 and HE-2 until the loop is DONE, and the refusals."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from argus.loop.engine.modes import Mode
from argus.loop.human.decisions import os_user
from argus.loop.records.signoff import load_records
from argus.loop.records.status import Status
from argus.sense.browser import discover_browser, launch_args
from tests.loop.fakeapp import make_repo
from tests.ui.support import changed_snapshot_repo, decisions, loop, serve_ui, spec_dir

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=discover_browser(), args=launch_args()
        )
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    problems: list[str] = []
    opened.on("pageerror", lambda err: problems.append(str(err)))
    opened.on(
        "console",
        lambda msg: problems.append(msg.text) if "Content Security Policy" in msg.text else None,
    )
    yield opened
    context.close()
    assert problems == []  # no script error, nothing the page does is blocked by its own CSP


def open_view(page: Page, name: str) -> None:
    """Follow the list's link to view ``name`` and wait for the view's load event. The page's
    script wires its buttons and sliders on DOMContentLoaded, while Playwright's click returns
    once the navigation commits: a click or fill before the wiring would do nothing."""
    page.get_by_role("link", name=name).click()
    page.wait_for_url(lambda url: "/view/" in url, wait_until="load")


def test_compare_a_changed_snapshot_use_the_slider_and_accept_it(
    tmp_path: Path, page: Page
) -> None:
    root, render, baseline = changed_snapshot_repo(tmp_path)
    with serve_ui(root) as ui:
        page.goto(f"{ui.url}?filter=changed#token={ui.token}")
        expect(page.locator("#token-state")).to_have_text("token set")
        open_view(page, "list-a-light")
        expect(page.locator("h1")).to_have_text("list-a-light")
        expect(page.locator(".page-head .badge", has_text="changed")).to_be_visible()

        page.get_by_role("button", name="Overlay").click()
        over = page.locator(".stack img.over")
        page.locator("#opacity").fill("80")
        expect(over).to_have_css("opacity", "0.8")
        page.get_by_role("button", name="Split").click()
        page.locator("#split").fill("30")
        expect(over).to_have_css("clip-path", "inset(0px 70% 0px 0px)")
        page.keyboard.press("1")
        page.locator("#zoom").select_option("4")  # every image at the same zoom: aligned
        widths = page.eval_on_selector_all(".side .frame", "els => els.map(e => e.offsetWidth)")
        assert widths == [32 * 4] * 3  # the fake app renders 32x24
        page.keyboard.press("-")
        expect(page.locator("#zoom")).to_have_value("2")
        page.keyboard.press("4")  # the diff, changed regions boxed
        expect(page.locator(".diffpane")).to_be_visible()
        expect(page.locator(".diffpane .box.changed")).to_have_count(1)

        page.get_by_role("button", name="Accept render as baseline").click()
        expect(page.locator("#toast")).to_contain_text("as its baseline")
        expect(page.locator(".page-head .badge", has_text="same")).to_be_visible()

    assert baseline.read_bytes() == render.read_bytes()
    (event,) = decisions(root)
    assert event.payload["action"] == "accept_baseline" and event.payload["via"] == "ui"
    assert event.payload["by"] == os_user() and event.created_at
    assert event.payload["was"] == "diff" and event.payload["iteration"] == 2


def test_the_accepted_message_stays_inside_a_narrow_window(tmp_path: Path, page: Page) -> None:
    """The message names the baseline's full path: it wraps, never runs off the right edge."""
    root, _, _ = changed_snapshot_repo(tmp_path / ("deep" * 40))  # one unbreakable word
    page.set_viewport_size({"width": 420, "height": 800})
    with serve_ui(root) as ui:
        page.goto(f"{ui.url}view/demo/list-a-light#token={ui.token}")
        expect(page.locator("#token-state")).to_have_text("token set")
        page.get_by_role("button", name="Accept render as baseline").click()
        toast = page.locator("#toast")
        expect(toast).to_contain_text("as its baseline")
        box = toast.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 420
        overflow = toast.evaluate("el => el.scrollWidth - el.clientWidth")
        assert overflow == 0


def test_he1_and_he2_through_the_page_let_the_loop_finish_done(tmp_path: Path, page: Page) -> None:
    root = make_repo(tmp_path, [], states=("a", "b"), reference="needed")
    assert loop(root, Mode.INTERACTIVE).status is Status.NEEDS_CONTEXT  # HE-1: a candidate
    with serve_ui(root) as ui:
        page.goto(f"{ui.url}?filter=pending#token={ui.token}")
        open_view(page, "list-a-light")
        page.get_by_role("button", name="Approve candidate reference (HE-1)").click()
        expect(page.locator("#toast")).to_contain_text("approved the candidate reference")

        paused = loop(root, Mode.INTERACTIVE)
        assert paused.status is Status.NEEDS_CONTEXT and paused.paused  # HE-2: the spot-check

        page.reload()
        page.locator("#spot-note").fill("looks like the design <b>really</b>")
        page.get_by_role("button", name="Approve: the judge was right").click()
        expect(page.locator("#toast")).to_contain_text("spot-check of list-a-light approved")

    assert loop(root, Mode.INTERACTIVE).status is Status.DONE
    records = load_records(spec_dir(root) / ".argus-runs" / "signoff.json")
    assert [r["state"] for r in records] == ["a", "b"]
    assert records[0]["human_spotcheck"]["status"] == "approved"
    assert records[0]["human_spotcheck"]["note"] == "looks like the design <b>really</b>"
    assert records[0]["reference_source"] == "candidate"
    actions = [(e.payload["action"], e.payload["via"]) for e in decisions(root)]
    assert actions == [("approve_reference", "ui"), ("spotcheck", "ui")]


def test_an_approval_without_the_token_is_refused(tmp_path: Path, page: Page) -> None:
    root = make_repo(tmp_path, [])
    loop(root, Mode.INTERACTIVE)
    signoff = spec_dir(root) / ".argus-runs" / "signoff.json"
    before = signoff.read_bytes()
    with serve_ui(root) as ui:
        page.goto(f"{ui.url}view/demo/list-a-light")  # no token in this browser
        expect(page.locator("#token-state")).to_contain_text("no token")
        page.get_by_role("button", name="Approve: the judge was right").click()
        expect(page.locator("#toast")).to_contain_text("launch token is missing or wrong")
        # A wrong token, pasted, is refused the same way.
        page.locator("#token-input").fill("not-the-token")
        page.get_by_role("button", name="Use").click()
        page.get_by_role("button", name="Approve: the judge was right").click()
        expect(page.locator("#toast")).to_contain_text("launch token is missing or wrong")
        status = page.evaluate(
            """async () => (await fetch('/api/decide', {method: 'POST',
                headers: {'Content-Type': 'application/json'},
                body: JSON.stringify({action: 'approve_spotcheck', feature: 'demo',
                                      slug: 'list-a-light'})})).status"""
        )
        assert status == 403
    assert signoff.read_bytes() == before
    assert decisions(root) == []


def test_reading_a_file_outside_the_repository_is_refused(tmp_path: Path, page: Page) -> None:
    root, render, _ = changed_snapshot_repo(tmp_path)
    secret = tmp_path / "secret.png"
    secret.write_bytes(render.read_bytes())
    runs = spec_dir(root) / ".argus-runs"
    (runs / "linked.png").symlink_to(secret)
    with serve_ui(root) as ui:
        relative = render.relative_to(root).as_posix()
        ok = page.request.get(f"{ui.url}file?path={relative}")
        assert ok.status == 200 and ok.body() == render.read_bytes()
        for path in (
            "../secret.png",
            str(secret),
            "argus/specs/demo/.argus-runs/../../../../secret.png",
            "argus/specs/demo/.argus-runs/linked.png",
            "argus/specs/demo/spec.json",
        ):
            response = page.request.get(f"{ui.url}file", params={"path": path})
            assert response.status == 403, path
            assert "image/png" not in response.headers["content-type"]


AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def _axe_violations(page: Page) -> list[object]:
    from axe_playwright_python.sync_playwright import Axe

    page.evaluate(Axe().axe_script)  # through the DevTools protocol: the page's CSP stands
    raw = page.evaluate(
        """async (tags) => JSON.stringify((await axe.run(document, {
            runOnly: {type: "tag", values: tags}})).violations.map(v => ({
            id: v.id, nodes: v.nodes.map(n => n.target)})))""",
        AXE_TAGS,
    )
    found: list[object] = json.loads(raw)
    return found


def test_the_pages_have_no_accessibility_violations(tmp_path: Path, page: Page) -> None:
    root, _, _ = changed_snapshot_repo(tmp_path)
    with serve_ui(root) as ui:
        page.goto(ui.url)
        assert _axe_violations(page) == []
        page.goto(f"{ui.url}view/demo/list-a-light")
        for mode in ("side", "overlay", "diff"):
            page.locator(f'button[data-mode="{mode}"]').click()
            assert _axe_violations(page) == [], mode
