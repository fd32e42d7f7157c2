"""Playwright's Chromium found from its registry file, without starting its driver."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from argus.sense import _playwright_registry as registry
from argus.sense import browser

LAYOUT = {"linux": "chrome-linux64/chrome", "darwin": registry._LAYOUTS["darwin"][0]}.get(
    sys.platform, "chrome-win64/chrome.exe"
)


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Path]:
    """A Playwright package whose browsers.json names chromium ``revision``; the registry
    folder (PLAYWRIGHT_BROWSERS_PATH) is returned, empty."""
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(tmp_path / "browsers"))
    monkeypatch.setattr(registry, "_package_dir", lambda: tmp_path / "playwright")

    def make(revision: str = "1255", **extra: Any) -> Path:
        path = tmp_path / "playwright" / "driver" / "package" / "browsers.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        chromium = {"name": "chromium", "revision": revision, **extra}
        path.write_text(json.dumps({"browsers": [{"name": "firefox", "revision": "9"}, chromium]}))
        (tmp_path / "browsers").mkdir(exist_ok=True)
        return tmp_path / "browsers"

    return make


def test_an_installed_chromium_is_its_build_folders_executable(
    package: Callable[..., Path],
) -> None:
    exe = package() / "chromium-1255" / LAYOUT
    exe.parent.mkdir(parents=True)
    exe.write_text("")
    assert registry.registry_chromium() == str(exe)


def test_no_build_folder_is_no_chromium_without_asking_the_driver(
    package: Callable[..., Path],
) -> None:
    (package() / "chromium-1200" / LAYOUT).parent.mkdir(parents=True)  # an older revision
    assert registry.registry_chromium() is None


@pytest.mark.parametrize(
    "case", ["unknown layout", "revision override", "inside the package", "relative path"]
)
def test_what_it_does_not_recognise_is_left_to_the_driver(
    package: Callable[..., Path], monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    override = {"revisionOverrides": {"mac14": "1100"}} if case == "revision override" else {}
    browsers = package(**override)
    (browsers / "chromium-1255" / "chrome-somewhere" / "chrome").parent.mkdir(parents=True)
    if case == "inside the package":
        monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", "0")
    if case == "relative path":
        monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", "browsers")
    assert registry.registry_chromium() == registry.UNSURE


def test_the_answer_is_kept_for_the_process_and_the_driver_not_started(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[int] = []
    monkeypatch.setattr(browser, "registry_chromium", lambda: asked.append(1) or None)
    monkeypatch.setitem(sys.modules, "playwright.sync_api", None)  # an import would raise
    browser.playwright_chromium_path.cache_clear()
    try:
        assert browser.playwright_chromium_path() is None
        assert browser.playwright_chromium_path() is None
    finally:
        browser.playwright_chromium_path.cache_clear()
    assert asked == [1]


def test_the_registry_agrees_with_the_driver_on_this_machine() -> None:
    """The same choice as asking the driver: its path when that exists, else none."""
    known = registry.registry_chromium()
    if known == registry.UNSURE:
        pytest.skip("this machine's Playwright layout is left to the driver")
    browser.playwright_chromium_path.cache_clear()
    try:
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(browser, "registry_chromium", lambda: registry.UNSURE)
            driver = browser.playwright_chromium_path()
    finally:
        browser.playwright_chromium_path.cache_clear()
    assert driver is not None
    assert known == (driver if os.path.isfile(driver) else None)
