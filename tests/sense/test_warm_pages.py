"""Warm pages: a page reused across views leaves nothing behind for the next view."""

from __future__ import annotations

import asyncio
import hashlib
import http.server
import json
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import async_playwright

from argus.config import ProjectConfig
from argus.sense import Sensor, discover_browser, launch_args
from argus.sense._pages import WarmPage
from argus.sense.controls_choice import LOOP
from argus.spec import View, load_spec
from tests.sense.test_web_sensor import make_web_repo
from tests.support.fixtures import static_server

pytestmark = pytest.mark.browser

# Reports what the page found when it loaded, then leaves something of each kind behind.
REMEMBERS = """<!doctype html><html><head><meta charset="utf-8">
<link rel="stylesheet" href="look.css"></head><body>
<p id="found" data-testid="found">pending</p>
<script>
  const found = {
    local: localStorage.getItem("k"), session: sessionStorage.getItem("k"),
    cookie: document.cookie, history: history.length, name: window.name,
  };
  localStorage.setItem("k", "1");
  sessionStorage.setItem("k", "1");
  document.cookie = "k=1";
  window.name = "used";
  addEventListener("pagehide", () => sessionStorage.setItem("left", "1"));
  const open = indexedDB.open("db");
  open.onupgradeneeded = () => open.result.createObjectStore("s");
  open.onsuccess = () => {
    found.left = sessionStorage.getItem("left");
    const tx = open.result.transaction("s", "readwrite");
    const get = tx.objectStore("s").get("k");
    get.onsuccess = () => {
      found.idb = get.result === undefined ? null : get.result;
      tx.objectStore("s").put("1", "k");
      tx.oncomplete = () => {
        document.getElementById("found").textContent = JSON.stringify(found);
      };
    };
  };
</script></body></html>"""


class _CachingHandler(http.server.SimpleHTTPRequestHandler):
    """Serves everything as cacheable for an hour, as many dev servers do for assets."""

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "max-age=3600")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


def caching_server(directory: Path) -> AbstractContextManager[str]:
    return static_server(directory, _CachingHandler)


def _found(out: Path) -> dict[str, Any]:
    probe = json.loads((out / "probe.json").read_text())
    text = next(e["text"] for e in probe["elements"] if e["testid"] == "found")
    found: dict[str, Any] = json.loads(text)
    return found


def test_a_reused_page_starts_every_view_afresh(tmp_path: Path) -> None:
    root = make_web_repo(tmp_path, {"remembers.html": REMEMBERS}, {"remembers": "/remembers.html"})
    (root / "look.css").write_text("p { color: rgb(0, 0, 200); }")
    spec = load_spec(root / "argus/specs/demo/spec.json")
    view = View("demo", "remembers", "default", "light")
    config = ProjectConfig.model_validate({"root": root, "gates": {"enabled": []}})
    with caching_server(root) as base, Sensor(config, workers=1, controls=LOOP) as sensor:
        outs = [tmp_path / f"view-{i}" for i in range(3)]
        for out in outs[:2]:
            result = sensor.sense(spec, view, out, base_url=base)
            assert result.ok, result.error
        # The stylesheet changes between views (as an implementer's edit would); it was
        # served as fresh for an hour, so only an emptied cache fetches it again.
        (root / "look.css").write_text("p { color: rgb(200, 0, 0); }")
        result = sensor.sense(spec, view, outs[2], base_url=base)
        assert result.ok, result.error
        # Three views on one page (and their copies for the dead-control probe on another):
        # the test is about reuse.
        assert sensor._browser is not None and len(sensor._browser.contexts) == 2
    found = [_found(out) for out in outs]
    # The first view ran on a new page; the others must find what it found.
    nothing = {"local": None, "session": None, "cookie": "", "name": "", "left": None, "idb": None}
    assert found[0].items() >= nothing.items()
    assert found[1:] == [found[0]] * 2
    renders = [hashlib.sha256((out / "render.png").read_bytes()).hexdigest() for out in outs]
    assert renders[0] == renders[1] != renders[2]
    probe = json.loads((outs[2] / "probe.json").read_text())
    found_p = next(e for e in probe["elements"] if e["testid"] == "found")
    assert found_p["style"]["color"] == "rgb(200, 0, 0)"


def test_a_reset_clears_what_a_file_page_stored(tmp_path: Path) -> None:
    """file: pages share one origin in Chromium; its storage is cleared like any other."""
    page_file = tmp_path / "remembers.html"
    page_file.write_text(REMEMBERS.replace('<link rel="stylesheet" href="look.css">', ""))

    async def found_twice() -> list[dict[str, Any]]:
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(
                executable_path=discover_browser(), args=launch_args(), headless=True
            )
            warm = await WarmPage.open(browser, {})
            found = []
            for _ in range(2):
                await warm.page.goto(page_file.as_uri())
                await warm.page.wait_for_function(
                    "document.getElementById('found').textContent !== 'pending'"
                )
                found.append(json.loads(await warm.page.text_content("#found") or "{}"))
                await warm.reset()
            await browser.close()
            return found

    first, second = asyncio.run(found_twice())
    assert first["local"] is None and first["session"] is None and first["idb"] is None
    assert second == first
