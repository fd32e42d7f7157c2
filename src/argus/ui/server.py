"""Serve the review page: bind 127.0.0.1, print the address and the launch token, run uvicorn."""

from __future__ import annotations

import os
import signal
import socket
import sys
import webbrowser
from pathlib import Path
from types import FrameType

from argus.errors import InputError
from argus.store.ui_marker import RunningMarker
from argus.ui._security import Origin, new_token

HOST = "127.0.0.1"


def _bind(host: str, port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise InputError(
            f"{host}:{port}: cannot listen there ({exc.strerror or exc}); "
            "pick another --port, or 0 for any free one"
        ) from exc
    sock.listen(64)
    sock.set_inheritable(True)
    return sock


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def serve(root: Path, port: int, *, open_browser: bool = False) -> int:
    try:
        import uvicorn

        from argus.ui._app import Settings, create_app
    except ImportError as exc:
        raise InputError(
            f"argus ui needs the [ui] extra ({exc.name} is missing): pip install 'argus-ui[ui]'"
        ) from exc
    sock = _bind(HOST, port)
    bound = int(sock.getsockname()[1])
    url = f"http://{HOST}:{bound}/"
    token = new_token()
    app = create_app(Settings(root, token, Origin(HOST, bound)))
    config = uvicorn.Config(app, log_level="warning", lifespan="off", access_log=False)
    server = uvicorn.Server(config)

    def stop(signum: int, frame: FrameType | None) -> None:
        server.should_exit = True  # before uvicorn runs, or its own re-raise after shutdown

    # SIGTERM (before uvicorn serves too) and Ctrl-C are a normal stop: the marker released,
    # "stopped", exit 0. uvicorn re-raises the signal after its graceful shutdown; for SIGTERM
    # that reaches ``stop``, for SIGINT Python's KeyboardInterrupt.
    previous = signal.signal(signal.SIGTERM, stop)
    try:
        with sock, RunningMarker(root, url):
            print(f"argus ui: serving {root} at {url} (Ctrl-C stops it)")
            print(f"launch token (needed for every decision; keep it to this terminal): {token}")
            print(f"open with the token: {url}#token={token}", flush=True)
            if open_browser and not _in_ci():
                webbrowser.open(url)  # without the token: a browser's command line is visible
            server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
    print("argus ui: stopped", file=sys.stderr)
    return 0
