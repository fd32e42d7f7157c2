"""The NiceGUI example: a shop's week at a glance (docs/frameworks.md).

Run it as Argus does: PORT=8794 python app.py. The fixture arrives as the sensor's query
parameter ``argus_fixture``, a keyword argument of the page function, and names a file in
fixtures/.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from nicegui import ui

HERE = Path(__file__).resolve().parent
FIXTURES = ("populated", "empty")
CSS = (HERE / "tokens.css").read_text() + (HERE / "app.css").read_text()


def kpi(key: str, label: str, value: str) -> None:
    with ui.element("div").classes("kpi").props(f"data-testid=kpi-{key}"):
        ui.label(label).classes("kpi-label")
        ui.label(value).classes("kpi-value")


@ui.page("/")
def index(argus_fixture: str = "populated") -> None:
    ui.add_css(CSS)
    ui.colors(primary="#1d4ed8")  # the accent token: Quasar's default blue is below WCAG AA
    fixture = argus_fixture if argus_fixture in FIXTURES else "populated"
    data = json.loads((HERE / "fixtures" / f"{fixture}.json").read_text())
    average = data["revenue"] // max(data["orders"], 1)
    with ui.element("div").classes("page"):
        with ui.element("h1").props("data-testid=shop-title"):
            ui.label("Shop overview")
        ui.label(f"Week {data['week']} · {data['orders']} orders").classes("caption")
        with ui.element("div").classes("kpis"):
            kpi("revenue", "Revenue", f"€{data['revenue']:,}")
            kpi("orders", "Orders", f"{data['orders']}")
            kpi("average", "Average order", f"€{average}")
        status = ui.label("").classes("status")
        ui.button("Export report", on_click=lambda: status.set_text("Report exported")).props(
            "data-testid=export unelevated no-caps"
        ).classes("primary")


if __name__ in {"__main__", "__mp_main__"}:
    ui.run(
        host="127.0.0.1",
        port=int(os.environ.get("PORT", "8080")),
        title="Shop overview",
        reload=False,
        show=False,
        language="en-US",
    )
