"""Start the project's web server before sensing and stop it afterwards (Playwright's webServer).

``reuse_existing`` keeps a server that already answers at the URL (a developer's dev server)
once it proved to be the project's app (argus.sense._app_proof); otherwise the command is
started confined like every program the builder can edit (argus.confine: it may write in the
workspace but its protected set, its processes die with it and with Argus), the URL is polled
until it answers within ``timeout`` seconds, and all of it is stopped on exit.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import ExitStack, contextmanager
from pathlib import Path

from argus.config import ProjectConfig, WebServerConfig
from argus.confine import start_confined, workspace
from argus.confine.contain import end_orphans
from argus.errors import ConfigError, SensorError
from argus.proc import one_line, read_tail
from argus.sense._app_proof import prove_app
from argus.spec.model import Spec

POLL_SECONDS = 0.1

# Local servers must never be reached through a proxy from the environment.
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def with_own_scripts(environ: Mapping[str, str]) -> dict[str, str]:
    """``environ`` with the directory of Argus's own interpreter (its virtualenv's scripts:
    ``streamlit``, ``python``, ``flask`` ...) last on PATH, so a server command written the way
    docs/frameworks.md shows starts when Argus runs from a virtualenv that was never activated.
    Last, not first: whatever the user's PATH already finds is what runs."""
    scripts = str(Path(sys.executable).parent)
    path = environ.get("PATH", "")
    parts = path.split(os.pathsep) if path else []
    if scripts in parts:
        return dict(environ)
    return {**environ, "PATH": os.pathsep.join([*parts, scripts])}


def url_answers(url: str, timeout: float = 1.0) -> bool:
    """True when an HTTP server answers at ``url`` with a status below 404 (Playwright's rule)."""
    try:
        with _OPENER.open(url, timeout=timeout) as response:
            return int(response.status) < 404
    except urllib.error.HTTPError as exc:
        return exc.code < 404
    except (OSError, ValueError):
        return False


def server_url(config: ProjectConfig, server: WebServerConfig) -> str:
    url = server.url or config.base_url
    if not url:
        where = config.source or "argus.toml"
        raise ConfigError(f"{where}: web_server.url: no url to wait on; set it or base_url")
    return url


@contextmanager
def web_server(
    config: ProjectConfig, root: Path | None = None, spec: Spec | None = None
) -> Iterator[str | None]:
    """Run the configured web server for the duration of the block; yields its URL (or None).

    ``cwd`` is relative to ``root`` (default: the config's root); ``spec`` names the ids a
    reused server must show (argus.sense._app_proof).
    """
    server = config.web_server
    if server is None:
        yield None
        return
    url = server_url(config, server)
    workdir = (root or config.root).resolve()
    cwd = (workdir / server.cwd).resolve()
    if not cwd.is_dir():
        # Checked even when a running server is reused: a wrong path is wrong either way.
        raise ConfigError(
            f"{config.source or 'argus.toml'}: [web_server] cwd = {server.cwd!r}: no such "
            f"directory ({cwd}); fix the path (it is relative to {workdir})"
        )
    end_orphans()  # a server an Argus killed with kill -9 started is never reused
    if url_answers(url):
        if server.reuse_existing:
            prove_app(url, config, spec)
            yield url
            return
        raise SensorError(
            f"web server: {url} already answers and reuse_existing is false; "
            "stop the running server or set web_server.reuse_existing = true"
        )
    with tempfile.TemporaryDirectory(prefix="argus-server-") as tmp, ExitStack() as running:
        log_path = Path(tmp) / "server.log"
        with log_path.open("wb") as log:
            try:
                process = running.enter_context(
                    start_confined(
                        server.command,
                        workspace("web server", workdir),
                        cwd=cwd,
                        log=log,
                        env=with_own_scripts(os.environ),
                    )
                )
            except OSError as exc:
                raise SensorError(
                    f"web server: cannot start {server.command!r} in {cwd}: {exc}"
                ) from exc
        _wait_until_up(process, url, server, log_path)
        yield url  # on leaving: SIGTERM, SIGKILL after a grace, then nothing it started lives


def _wait_until_up(
    process: subprocess.Popen[bytes], url: str, server: WebServerConfig, log_path: Path
) -> None:
    deadline = time.monotonic() + server.timeout
    while True:
        if url_answers(url, timeout=min(1.0, server.timeout)):
            return
        code = process.poll()
        if code is not None:
            raise SensorError(
                f"web server: {server.command!r} exited with code {code} before {url} answered; "
                f"output: {one_line(read_tail(log_path))}"
            )
        if time.monotonic() >= deadline:
            raise SensorError(
                f"web server: {url} did not answer within {server.timeout:g}s of starting "
                f"{server.command!r}; output: {one_line(read_tail(log_path))}"
            )
        time.sleep(POLL_SECONDS)
