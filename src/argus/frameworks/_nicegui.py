"""NiceGUI: a Vue/Quasar client kept in step with the Python side over socket.io.

Settled: the client finished its handshake with the server (``window.did_handshake``, set by
NiceGUI's own script), the page is mounted in ``#app``, and the connection-lost popup
(``#popup``) is hidden. Fixtures: the sensor's query parameters, taken as the ``@ui.page``
function's keyword arguments.
"""

from __future__ import annotations

from argus.frameworks._model import Framework, ServerPreset, SettleRule

READY_JS = """() => {
  const app = document.getElementById("app");
  const popup = document.getElementById("popup");
  return window.did_handshake === true && !!app && app.childElementCount > 0
    && (!popup || popup.getAttribute("aria-hidden") !== "false");
}"""

NICEGUI = Framework(
    name="nicegui",
    title="NiceGUI",
    # The example's ui.run(port=int(os.environ["PORT"])) reads the port the command sets.
    server=ServerPreset(command="PORT={port} python app.py", port=8080, health_path="/"),
    settle=SettleRule(
        ready=READY_JS,
        websocket=True,
        markers="window.did_handshake, #app mounted, #popup hidden",
    ),
    fixture_input="@ui.page('/') def page(argus_fixture: str = 'populated'): query "
    "parameters arrive as keyword arguments",
    masks=("#popup", "#too_long_message_popup"),
)
