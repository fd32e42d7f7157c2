"""Browser discovery order and launch flags, with the filesystem and PATH monkeypatched."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from argus.config import BrowserConfig, ProjectConfig
from argus.errors import SensorError
from argus.sense import browser


def _exe(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


@pytest.fixture
def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    """Every candidate exists as a fake executable; tests remove what they need gone."""
    paths = {
        "env": _exe(tmp_path / "env" / "chrome"),
        "config": _exe(tmp_path / "config" / "chrome"),
        "playwright": _exe(tmp_path / "pw" / "chrome"),
        "debian_lib": _exe(tmp_path / "usr-lib" / "chromium"),
        "debian_bin": _exe(tmp_path / "usr-bin" / "chromium"),
        "google": _exe(tmp_path / "bin" / "google-chrome"),
    }
    monkeypatch.setenv("ARGUS_BROWSER", str(paths["env"]))
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    monkeypatch.setattr(browser, "DEBIAN_PATHS", (paths["debian_lib"], paths["debian_bin"]))
    return paths


def _discover(world: dict[str, Path]) -> str:
    config = ProjectConfig(browser=BrowserConfig(executable=str(world["config"])))
    return browser.discover_browser(config, playwright_path=lambda: str(world["playwright"]))


ORDER = ["env", "config", "playwright", "debian_lib", "debian_bin", "google"]


@pytest.mark.parametrize("first_present", range(len(ORDER)))
def test_discovery_order(world: dict[str, Path], first_present: int) -> None:
    for name in ORDER[:first_present]:
        world[name].unlink()
    assert _discover(world) == str(world[ORDER[first_present]])


def test_env_may_name_a_program_on_path(
    world: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARGUS_BROWSER", "google-chrome")
    assert _discover(world) == str(world["google"])


def test_nothing_found_is_one_line_listing_what_was_tried(world: dict[str, Path]) -> None:
    for name in ORDER:
        world[name].unlink()
    with pytest.raises(SensorError) as info:
        _discover(world)
    message = str(info.value)
    assert "\n" not in message
    for part in ("ARGUS_BROWSER=", "[browser] executable=", "Playwright", "google-chrome"):
        assert part in message
    assert str(world["debian_lib"]) in message
    assert "python -m playwright install chromium" in message
    assert "chromium" in message


def test_no_playwright_driver_is_skipped(world: dict[str, Path]) -> None:
    for name in ("env", "config"):
        world[name].unlink()
    found = browser.discover_browser(None, playwright_path=lambda: None)
    assert found == str(world["debian_lib"])


def test_no_sandbox_only_as_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    assert "--no-sandbox" in browser.launch_args()
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    args = browser.launch_args(["--lang=en-US"])
    assert "--no-sandbox" not in args
    assert args[-1] == "--lang=en-US"
    for flag in ("--disable-background-networking", "--disable-component-update", "--disable-sync"):
        assert flag in args


def test_playwright_path_is_asked_without_launching() -> None:
    # The real driver answers with a path (which may or may not exist on this machine).
    path = browser.playwright_chromium_path()
    assert path is None or "chrom" in path.lower()
