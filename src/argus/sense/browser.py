"""Find a Chromium to drive, and the flags it needs inside a CI container.

Order of preference (first hit wins):

1. ``ARGUS_BROWSER`` (an executable path, or a name on PATH);
2. the project config's ``[browser] executable``;
3. Playwright's own Chromium, when ``playwright install chromium`` has put one on disk;
4. Debian's ``/usr/lib/chromium/chromium`` and ``/usr/bin/chromium``;
5. ``google-chrome`` on PATH.

A browser the user named (1 or 2) that is not there is a ConfigError, never a quiet fall back
to another Chromium: renders and baselines depend on which browser drew them. Nothing found
among 3-5 is one SensorError line naming every place tried and how to install one.

A remote browser replaces all of this: ``ARGUS_BROWSER_CONNECT`` or ``[browser] connect``
(see remote_endpoint and docs/sense.md, "Remote browsers").
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import sys
import urllib.parse
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from argus.errors import ConfigError, SensorError
from argus.sense._playwright_registry import UNSURE, registry_chromium

if TYPE_CHECKING:
    from playwright.async_api import Playwright

    from argus.config import ProjectConfig

DEBIAN_PATHS = (Path("/usr/lib/chromium/chromium"), Path("/usr/bin/chromium"))
CHROME_NAMES = ("google-chrome", "google-chrome-stable")

# Without these a closed network makes Chromium stall on update and sync requests.
QUIET_FLAGS = (
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-default-apps",
    "--hide-scrollbars",
    "--font-render-hinting=none",
)
# Byte-identical renders: partial raster repaints tiles in an order that changes anti-aliased
# edges (rounded corners) from run to run; a fixed colour profile and no CPU-specific Skia
# paths keep pixels the same across machines.
DETERMINISM_FLAGS = (
    "--disable-partial-raster",
    "--force-color-profile=srgb",
    "--disable-skia-runtime-opts",
)

# Chromium reads only the last --disable-features switch (and the last --enable-features), and
# Playwright puts its own before a launch's args: a list of Argus's alone would switch
# Playwright's back on (PaintHolding among them, which it turns off for screenshots). So Argus
# passes one list of each kind: Playwright's (as of 1.65; tests/sense/test_browser_features.py
# checks the installed driver's), its own and the project's ([browser] args).
PLAYWRIGHT_DISABLED_FEATURES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync",
    "DestroyProfileOnBrowserClose",
    "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable",
    "LensOverlay",
    "MediaRouter",
    "PaintHolding",
    "ThirdPartyStoragePartitioning",
    "AvoidCorsURLLoaderRestartOnRedirect",
    "TcpPortRandomizationWin",
    "OptimizationHints",
    "NetworkTimeServiceQuerying",
    "AimEnabled",
    "PreconnectToSearch",
    "msForceBrowserSignIn",
    "msEdgeUpdateLaunchServicesPreferredVersion",
)
PLAYWRIGHT_ENABLED_FEATURES = ("CDPScreenshotNewSurface", "SkipListAccountsWithoutGaiaCookies")
ARGUS_DISABLED_FEATURES = (
    "Translate",
    # Chromium keeps a spare renderer process started for the next navigation that needs one,
    # and a spare serves one browser context only: each navigation in another context threw it
    # away and started one more. The dead-control probe's copies (a context each) navigate in
    # turn, so a probed sense started 9 to 13 renderers it never used, about 14 % of its CPU.
    "SpareRendererForSitePerProcess",
)
# A page must not tell the sensor from a person's browser (the tell_tales gate, docs/gates.md):
# without this Chromium sets navigator.webdriver to true under automation.
UNWATCHED_BLINK_FEATURES = ("AutomationControlled",)
_UA_PLATFORMS = {
    "darwin": "Macintosh; Intel Mac OS X 10_15_7",
    "win32": "Windows NT 10.0; Win64; x64",
}


def neutral_user_agent(version: str) -> str:
    """The user agent of an ordinary Chrome of ``version`` on this platform, in Chrome's own
    reduced form: headless Chromium says "HeadlessChrome", which a page can test."""
    major = version.split(".", 1)[0] or "0"
    platform = _UA_PLATFORMS.get(sys.platform, "X11; Linux x86_64")
    return (
        f"Mozilla/5.0 ({platform}) AppleWebKit/537.36 (KHTML, like Gecko) "
        f"Chrome/{major}.0.0.0 Safari/537.36"
    )


def _executable(candidate: str) -> str | None:
    """An existing executable file, or a name resolved on PATH."""
    path = Path(candidate).expanduser()
    if path.is_file() and os.access(path, os.X_OK):
        return str(path)
    if os.sep not in candidate:
        return shutil.which(candidate)
    return None


def _named_browser(candidate: str, where: str, otherwise: str) -> str:
    """The browser a user named, or a ConfigError saying it is not there."""
    found = _executable(candidate)
    if found:
        return found
    if Path(candidate).expanduser().is_file():
        what = "is not executable"
    elif os.sep in candidate:
        what = "does not exist"
    else:
        what = "is not on PATH"
    raise ConfigError(
        f"{where} = {candidate!r}: {what}; point it at a Chromium or Chrome, or {otherwise}"
    )


@cache
def playwright_chromium_path() -> str | None:
    """Where Playwright keeps its own Chromium, once a process: read from its registry when
    that settles it (_playwright_registry), else asked of its driver without launching a
    browser. The sync driver refuses to start inside a running asyncio loop, so it is asked
    from a fresh thread.
    """
    known = registry_chromium()
    if known != UNSURE:
        return known

    def ask() -> str:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as pw:
            return str(pw.chromium.executable_path)

    pool = ThreadPoolExecutor(max_workers=1)
    try:
        return pool.submit(ask).result(timeout=60)
    except Exception:  # the driver itself is broken: treat as "no Playwright Chromium"
        return None
    finally:
        pool.shutdown(wait=False)  # a Ctrl-C ends the command now, not when the driver has


async def start_playwright() -> Playwright:
    """Playwright's driver, started so that a cancel half-way (a Ctrl-C) stops it once it is
    up instead of leaving its process and pipes to be torn down noisily at exit."""
    from playwright.async_api import async_playwright

    starting = asyncio.ensure_future(async_playwright().start())
    try:
        return await asyncio.shield(starting)
    except asyncio.CancelledError:
        with suppress(Exception):  # it failed to start: nothing to stop
            await (await starting).stop()
        raise


def discover_browser(
    config: ProjectConfig | None = None,
    *,
    playwright_path: Callable[[], str | None] = playwright_chromium_path,
) -> str:
    """The path of the Chromium to launch: ConfigError when the one the user named is not
    there, SensorError listing what was tried when none is found."""
    env = os.environ.get("ARGUS_BROWSER", "").strip()
    if env:
        return _named_browser(env, "ARGUS_BROWSER", "unset it to let Argus find a Chromium")
    configured = config.browser.executable.strip() if config is not None else ""
    if configured and config is not None:
        where = f"{config.source or 'config'}: [browser] executable"
        return _named_browser(configured, where, "remove the key to let Argus find a Chromium")
    tried: list[str] = []
    bundled = playwright_path()
    if bundled and _executable(bundled):
        return bundled
    tried.append(f"Playwright's Chromium ({bundled or 'not installed'})")
    for path in DEBIAN_PATHS:
        found = _executable(str(path))
        if found:
            return found
        tried.append(str(path))
    for name in CHROME_NAMES:
        found = shutil.which(name)
        if found:
            return found
    tried.append("google-chrome on PATH")
    raise SensorError(
        "no Chromium found (tried " + ", ".join(tried) + "); install one with "
        "`python -m playwright install chromium` or `apt-get install chromium`, "
        "or set ARGUS_BROWSER to its path"
    )


def launch_args(extra: tuple[str, ...] | list[str] = ()) -> list[str]:
    """Command-line flags for a headless Chromium in a container, then ``extra`` (the
    project's), each feature list (``FEATURE_SWITCHES``) merged into one switch."""
    args = [*QUIET_FLAGS, *DETERMINISM_FLAGS]
    # Chromium's sandbox cannot start as root; elsewhere keep it on.
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        args.append("--no-sandbox")
    features: dict[str, list[str]] = {
        "--disable-features": [*PLAYWRIGHT_DISABLED_FEATURES, *ARGUS_DISABLED_FEATURES],
        "--enable-features": [],
        "--disable-blink-features": list(UNWATCHED_BLINK_FEATURES),
        "--enable-blink-features": [],
    }
    for arg in extra:
        switch, _, names = arg.partition("=")
        if switch in features:
            features[switch] += names.split(",")
        else:
            args.append(arg)
    if features["--enable-features"]:
        # Only when the project enables some: Playwright's own list then goes with them.
        legacy = bool(os.environ.get("PLAYWRIGHT_LEGACY_SCREENSHOT"))
        own = [f for f in PLAYWRIGHT_ENABLED_FEATURES if not (legacy and f.startswith("CDP"))]
        features["--enable-features"][:0] = own
    for switch, listed in features.items():
        merged = ",".join(dict.fromkeys(n.strip() for n in listed if n.strip()))
        if merged:
            args.append(f"{switch}={merged}")
    return args


_ENDPOINT = re.compile(r"(?i)^(wss?|https?)://[^\s/]+")


def remote_endpoint(config: ProjectConfig | None) -> tuple[str, str]:
    """``(endpoint, protocol)`` of the remote browser to connect to, or ``("", "")``.

    ``ARGUS_BROWSER_CONNECT`` wins over ``[browser] connect``; an http(s) endpoint is always
    spoken to over CDP, a ws(s) one as the config's ``connect_protocol`` says."""
    env = os.environ.get("ARGUS_BROWSER_CONNECT", "").strip()
    if env:
        if not _ENDPOINT.match(env):
            raise SensorError(
                f"ARGUS_BROWSER_CONNECT={env!r}: not a ws://, wss://, http:// or https:// endpoint"
            )
        endpoint = env
    else:
        endpoint = config.browser.connect if config is not None else ""
    if not endpoint:
        return "", ""
    if endpoint.lower().startswith("http"):
        return endpoint, "cdp"
    return endpoint, config.browser.connect_protocol if config is not None else "playwright"


def public_endpoint(endpoint: str) -> str:
    """The endpoint as it may be written to meta.json: no user, password, query or fragment,
    where browser farms put their access tokens."""
    parts = urllib.parse.urlsplit(endpoint)
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urllib.parse.urlunsplit((parts.scheme, netloc, parts.path, "", ""))
