"""Panel (HoloViz): Bokeh documents rendered in the browser and synced over a websocket.

Settled: BokehJS has its documents (``window.Bokeh.documents``) and each says it is idle (every
root view rendered: Bokeh's own ``Document.is_idle``), and no component shows Panel's loading
spinner (class ``pn-loading``). Fixtures: the sensor's query parameters, read from
``pn.state.session_args``.
"""

from __future__ import annotations

from argus.frameworks._model import Framework, ServerPreset, SettleRule

READY_JS = """() => {
  const bokeh = window.Bokeh;
  return !!bokeh && Array.isArray(bokeh.documents) && bokeh.documents.length > 0
    && bokeh.documents.every((doc) => doc.is_idle)
    && !document.querySelector(".pn-loading");
}"""

PANEL = Framework(
    name="panel",
    title="Panel",
    server=ServerPreset(
        command="panel serve app.py --address 127.0.0.1 --port {port} "
        "--allow-websocket-origin 127.0.0.1:{port} --index app --liveness",
        port=5006,
        health_path="/liveness",
    ),
    settle=SettleRule(
        ready=READY_JS,
        websocket=True,
        markers="Bokeh.documents all is_idle, no .pn-loading",
    ),
    fixture_input="pn.state.session_args.get('argus_fixture') (a list of bytes)",
    # The templates' busy indicator (a spinner while a callback runs): every template puts it
    # in <div class="pn-busy-container">, with no id.
    masks=(".pn-busy-container",),
)
