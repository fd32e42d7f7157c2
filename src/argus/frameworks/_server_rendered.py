"""Server-rendered apps (Flask, Django, FastAPI with Jinja2 templates), with or without HTMX.

The page arrives as HTML, so a quiet network is nearly all of settling; HTMX adds requests
whose swaps land after a short delay. Settled: the document is loaded and no element carries
one of HTMX's in-flight classes (``htmx-request`` while a request runs, ``htmx-swapping``
and ``htmx-settling`` around the swap, ``htmx-added`` on new content until it settles).
Fixtures: the sensor's query parameters, read by the view (``request.args`` in Flask,
``request.GET`` in Django, a ``Query`` parameter in FastAPI). The HTML carries the app, so a
server Argus did not start can prove it is the project's (reuse_existing stays on).
"""

from __future__ import annotations

from argus.frameworks._model import Framework, ServerPreset, SettleRule

READY_JS = """() => document.readyState === "complete"
  && !document.querySelector(".htmx-request, .htmx-swapping, .htmx-settling, .htmx-added")"""

SERVER_RENDERED = Framework(
    name="server-rendered",
    title="Server-rendered (Flask, Django, FastAPI + HTMX)",
    server=ServerPreset(
        command="flask --app app run --host 127.0.0.1 --port {port}",
        port=5000,
        health_path="/",
        timeout=30.0,
        reuse_existing=True,
    ),
    settle=SettleRule(
        ready=READY_JS,
        websocket=False,
        markers="document complete, no htmx-request, htmx-swapping, htmx-settling or htmx-added",
    ),
    fixture_input="the view reads request.args['argus_fixture'] (Flask), request.GET "
    "(Django) or a Query parameter (FastAPI)",
    # The debug toolbars of Django and Flask, when a developer left one on.
    masks=("#djDebug", "#flDebug"),
)
