"""Browser discovery order and launch flags, with the filesystem and PATH monkeypatched."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from argus.config import BrowserConfig, ProjectConfig
from argus.errors import ConfigError, SensorError
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
    named = str(world["config"]) if "config" in world else ""
    config = ProjectConfig(browser=BrowserConfig(executable=named))
    return browser.discover_browser(config, playwright_path=lambda: str(world["playwright"]))


ORDER = ["env", "config", "playwright", "debian_lib", "debian_bin", "google"]


def _gone(world: dict[str, Path], name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Take one candidate away: the user's two by not naming them, the rest by deleting."""
    if name == "env":
        monkeypatch.delenv("ARGUS_BROWSER")
    elif name == "config":
        del world["config"]
    else:
        world[name].unlink()


@pytest.mark.parametrize("first_present", range(len(ORDER)))
def test_discovery_order(
    world: dict[str, Path], first_present: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = str(world[ORDER[first_present]])
    for name in ORDER[:first_present]:
        _gone(world, name, monkeypatch)
    assert _discover(world) == expected


@pytest.mark.parametrize("named", ["env", "config"])
@pytest.mark.parametrize("how", ["missing", "not executable", "not on PATH"])
def test_a_named_browser_that_is_not_there_is_an_error_not_a_fallback(
    world: dict[str, Path], monkeypatch: pytest.MonkeyPatch, named: str, how: str
) -> None:
    if how == "missing":
        world[named].unlink()
        value = str(world[named])
    elif how == "not executable":
        world[named].chmod(0o644)
        value = str(world[named])
    else:
        value = "no-such-chrome"
    if named == "env":
        monkeypatch.setenv("ARGUS_BROWSER", value)
    else:
        monkeypatch.delenv("ARGUS_BROWSER")
        world["config"] = Path(value)
    with pytest.raises(ConfigError) as info:
        _discover(world)
    message = str(info.value)
    assert "\n" not in message
    assert value in message
    assert ("ARGUS_BROWSER" if named == "env" else "[browser] executable") in message
    assert {"missing": "does not exist", "not executable": "is not executable"}.get(
        how, "is not on PATH"
    ) in message


def test_env_may_name_a_program_on_path(
    world: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARGUS_BROWSER", "google-chrome")
    assert _discover(world) == str(world["google"])


def test_nothing_found_is_one_line_listing_what_was_tried(
    world: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ORDER:
        _gone(world, name, monkeypatch)
    with pytest.raises(SensorError) as info:
        _discover(world)
    message = str(info.value)
    assert "\n" not in message
    for part in ("Playwright", "google-chrome"):
        assert part in message
    assert str(world["debian_lib"]) in message
    assert "python -m playwright install chromium" in message
    assert "chromium" in message


def test_no_playwright_driver_is_skipped(
    world: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ARGUS_BROWSER")
    found = browser.discover_browser(None, playwright_path=lambda: None)
    assert found == str(world["debian_lib"])


def test_no_sandbox_only_as_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    assert "--no-sandbox" in browser.launch_args()
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    args = browser.launch_args(["--lang=en-US"])
    assert "--no-sandbox" not in args
    assert "--lang=en-US" in args
    for flag in ("--disable-background-networking", "--disable-component-update", "--disable-sync"):
        assert flag in args


def test_playwright_path_is_asked_without_launching() -> None:
    # The real driver answers with a path (which may or may not exist on this machine).
    path = browser.playwright_chromium_path()
    assert path is None or "chrom" in path.lower()
