"""Gradio: a Svelte client that loads the app's config and runs events through its queue.

Settled: the ``.gradio-container`` is mounted and no status tracker
(``data-testid="status-tracker"``) is showing: Gradio hides it (class ``hide``) once an event
is no longer ``pending`` or ``generating``; no element carries the ``generating`` class.
Fixtures: the sensor's query parameters, read from ``gr.Request.query_params`` in a
``demo.load`` event.
"""

from __future__ import annotations

from argus.frameworks._model import Framework, ServerPreset, SettleRule

READY_JS = """() => {
  const app = document.querySelector("gradio-app");
  const root = app && app.shadowRoot ? app.shadowRoot : document;
  return !!root.querySelector(".gradio-container")
    && !root.querySelector('[data-testid="status-tracker"]:not(.hide), .generating');
}"""

GRADIO = Framework(
    name="gradio",
    title="Gradio",
    # launch() takes its address and port from these environment variables.
    server=ServerPreset(
        command="GRADIO_SERVER_NAME=127.0.0.1 GRADIO_SERVER_PORT={port} "
        "GRADIO_ANALYTICS_ENABLED=False python app.py",
        port=7860,
        health_path="/",
    ),
    settle=SettleRule(
        ready=READY_JS,
        websocket=False,
        markers=".gradio-container mounted, every status-tracker hidden, no .generating",
    ),
    fixture_input="a demo.load(fn) whose fn takes request: gr.Request and reads "
    "request.query_params['argus_fixture']",
    masks=("footer", "[data-testid=status-tracker]", "[data-testid=toast-body]"),
)
