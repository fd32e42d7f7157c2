"""Streamlit (``streamlit run``): a React client fed over a websocket by the script's reruns.

Settled: the app root (``data-testid="stApp"``) says the connection is ``CONNECTED`` and the
script ``notRunning`` (its ``data-test-connection-state`` and ``data-test-script-state``, set
by Streamlit's own client), and no skeleton or spinner is on the page. Fixtures: the sensor's
query parameters, read with ``st.query_params``.
"""

from __future__ import annotations

from argus.frameworks._model import Framework, ServerPreset, SettleRule

READY_JS = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  return !!app
    && app.getAttribute("data-test-connection-state") === "CONNECTED"
    && app.getAttribute("data-test-script-state") === "notRunning"
    && !document.querySelector('[data-testid="stSkeleton"], [data-testid="stSpinner"]');
}"""

STREAMLIT = Framework(
    name="streamlit",
    title="Streamlit",
    server=ServerPreset(
        command=(
            "streamlit run app.py --server.port {port} --server.address 127.0.0.1 "
            "--server.headless true --browser.gatherUsageStats false "
            "--server.fileWatcherType none"
        ),
        port=8501,
        health_path="/_stcore/health",
    ),
    settle=SettleRule(
        ready=READY_JS,
        websocket=True,
        markers="stApp's data-test-connection-state CONNECTED and data-test-script-state "
        "notRunning, no stSkeleton or stSpinner",
    ),
    fixture_input="st.query_params.get('argus_fixture', 'populated')",
    masks=(
        "[data-testid=stToolbar]",
        "[data-testid=stStatusWidget]",
        "[data-testid=stDecoration]",
        "[data-testid=stAppDeployButton]",
        "[data-testid=stMainMenu]",
    ),
)
