"""What Argus knows of one Python UI framework: a small frozen record per framework.

A framework module (``streamlit.py``, ``dash.py``, ...) holds one ``Framework`` constant; the
registry (``_registry.py``) names them. Nothing here imports the framework itself: these are
the facts Argus needs to start, settle, feed and mask an app built with it.
"""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_HOST = "127.0.0.1"


@dataclass(frozen=True)
class ServerPreset:
    """The ``[web_server]`` settings ``argus init --framework`` writes.

    ``command`` has a ``{port}`` placeholder (and names the app file the framework's own docs
    use); ``health_path`` is what Argus polls until the server is up (the framework's own health
    route where it has one); ``reuse_existing`` is false where the served HTML carries nothing
    of the app (a client-rendered shell), so a server Argus did not start could not prove it is
    the project's app (argus.sense._app_proof)."""

    command: str
    port: int
    health_path: str = "/"
    timeout: float = 60.0
    reuse_existing: bool = False

    def command_for(self, port: int) -> str:
        return self.command.format(port=port)


@dataclass(frozen=True)
class SettleRule:
    """When the framework's page is at rest, beyond a quiet network (argus.sense.framework_settle).

    ``ready`` is a JavaScript function of no arguments that returns true once the framework's
    own indicators say it is idle (connected, its script or callbacks finished, no loading or
    running marker in the DOM); ``websocket``: its updates arrive over a websocket, so the
    sensor also waits for the socket's frames to stop. ``markers`` names, for messages and
    docs, what ``ready`` reads."""

    ready: str
    websocket: bool
    markers: str


@dataclass(frozen=True)
class Framework:
    """One framework: how it is started, when its page is settled, how a fixture reaches the
    app, and the volatile parts of its chrome that a snapshot masks."""

    name: str
    title: str
    server: ServerPreset
    settle: SettleRule
    # How the sensor's fixture reaches the app (the default url_template's query parameters,
    # read the framework's way), in one line for argus init and the docs.
    fixture_input: str
    # CSS selectors of the framework's volatile chrome, masked in every snapshot comparison of
    # the project (resolved in the page by the sensor, argus.diff.masks). Keep to #id,
    # [data-testid=x] or a tag where the chrome has one: a probe sensed before masks were
    # resolved in the page still answers those.
    masks: tuple[str, ...] = ()
