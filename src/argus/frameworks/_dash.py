"""Dash (Plotly): a React client that fetches its layout and runs callbacks over HTTP.

Settled: the layout is mounted in ``#react-entry-point`` and none of dash-renderer's loading
markers is on the page (the ``_dash-loading`` placeholder before the layout arrives, the
``_dash-loading-callback`` element while callbacks run, a component's
``data-dash-is-loading="true"``). Fixtures: the sensor's query parameters, read from
``dcc.Location``'s ``search`` in a callback.
"""

from __future__ import annotations

from argus.frameworks._model import Framework, ServerPreset, SettleRule

READY_JS = """() => {
  const root = document.getElementById("react-entry-point");
  return !!root && root.childElementCount > 0
    && !root.querySelector("._dash-loading")
    && !document.querySelector('._dash-loading-callback, [data-dash-is-loading="true"]');
}"""

DASH = Framework(
    name="dash",
    title="Dash",
    # app.run() takes its port from the PORT environment variable.
    server=ServerPreset(command="PORT={port} python app.py", port=8050, health_path="/"),
    settle=SettleRule(
        ready=READY_JS,
        websocket=False,
        markers="#react-entry-point mounted, no _dash-loading, _dash-loading-callback or "
        'data-dash-is-loading="true"',
    ),
    fixture_input="dcc.Location(id='url') and a callback on its 'search' "
    "(urllib.parse.parse_qs(search)['argus_fixture'])",
    # dash-renderer's dev tools, shown with debug=True (dash-renderer's DebugMenu): the bar
    # fixed at the bottom right (its server status changes as the hot reloader polls), the
    # errors and callback-graph popup above it (absolutely positioned, outside the bar's box),
    # and the menu pill of older dash-renderers (Dash 2), whose style Dash 4 still ships.
    # Classes only: none of them has an id or test id.
    masks=(".dash-debug-menu__outer", ".dash-debug-menu__popup", ".dash-debug-menu"),
)
