"""The Dash example: a shop's week at a glance (docs/frameworks.md).

Run it as Argus does: PORT=8792 python app.py. The fixture arrives as the sensor's query
parameter ``argus_fixture`` (read from dcc.Location's search in a callback) and names a file
in fixtures/.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from urllib.parse import parse_qs

from dash import Dash, Input, Output, dcc, html

HERE = Path(__file__).resolve().parent
FIXTURES = ("populated", "empty")

app = Dash(__name__, title="Shop overview")
# Dash's own page shell has no language (axe: html-has-lang); this is it with one.
app.index_string = """<!DOCTYPE html>
<html lang="en">
<head>{%metas%}<title>{%title%}</title>{%favicon%}{%css%}</head>
<body>{%app_entry%}<footer>{%config%}{%scripts%}{%renderer%}</footer></body>
</html>"""


def kpi(key: str, label: str, value: str) -> html.Div:
    return html.Div(
        [html.P(label, className="kpi-label"), html.P(value, className="kpi-value")],
        id=f"kpi-{key}",
        className="kpi",
    )


app.layout = html.Main(
    [
        dcc.Location(id="url"),
        html.H1("Shop overview", id="shop-title"),
        html.Div(id="content"),
        html.Button("Export report", id="export", className="primary", n_clicks=0),
        html.P(id="export-status", className="status"),
    ],
    className="page",
)


@app.callback(Output("content", "children"), Input("url", "search"))
def show(search: str | None) -> list[html.Component]:
    name = parse_qs((search or "").lstrip("?")).get("argus_fixture", ["populated"])[0]
    fixture = name if name in FIXTURES else "populated"
    data = json.loads((HERE / "fixtures" / f"{fixture}.json").read_text())
    average = data["revenue"] // max(data["orders"], 1)
    return [
        html.P(f"Week {data['week']} · {data['orders']} orders", className="caption"),
        html.Div(
            [
                kpi("revenue", "Revenue", f"€{data['revenue']:,}"),
                kpi("orders", "Orders", f"{data['orders']}"),
                kpi("average", "Average order", f"€{average}"),
            ],
            className="kpis",
        ),
    ]


@app.callback(Output("export-status", "children"), Input("export", "n_clicks"))
def export(clicks: int) -> str:
    return "Report exported" if clicks else ""


if __name__ == "__main__":
    app.run(host="127.0.0.1", port=int(os.environ.get("PORT", "8050")), debug=False)
