"""Launch and context options that make a test's Chromium render as Argus's sensor does.

With pytest-playwright, in conftest.py:

    from argus.testing import context_options, launch_options

    @pytest.fixture(scope="session")
    def browser_type_launch_args(browser_type_launch_args):
        return {**browser_type_launch_args, **launch_options()}

    @pytest.fixture(scope="session")
    def browser_context_args(browser_context_args):
        return {**browser_context_args, **context_options()}

The flags (no partial raster, an sRGB colour profile, no Skia runtime optimisations) make a
view's screenshot byte-identical run after run; the Chromium is the one Argus finds
(ARGUS_BROWSER, [browser].executable, Playwright's own, Debian's, google-chrome).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from argus.config import ProjectConfig, load_config
from argus.errors import ArgusError
from argus.sense.browser import discover_browser, launch_args
from argus.spec.paths import find_repo_root


def _config(root: Path | None) -> ProjectConfig | None:
    """The project's config; None outside any project. An invalid config is an error, never
    quietly replaced by defaults (its [browser] executable, say, would then be ignored)."""
    try:
        where = root if root is not None else find_repo_root(Path.cwd())
    except ArgusError:
        return None
    return load_config(where)


def launch_options(root: Path | None = None) -> dict[str, Any]:
    """``executable_path`` and ``args`` for ``chromium.launch`` (SensorError: no Chromium)."""
    config = _config(root)
    extra = config.browser.args if config is not None else ()
    return {"executable_path": discover_browser(config), "args": launch_args(extra)}


def context_options(root: Path | None = None) -> dict[str, Any]:
    """Scale factor 1, reduced motion, and the project's locale and timezone."""
    config = _config(root)
    options: dict[str, Any] = {"device_scale_factor": 1, "reduced_motion": "reduce"}
    if config is not None:
        options["locale"] = config.browser.locale
        options["timezone_id"] = config.browser.timezone
    return options
