"""The Panel example: a shop's week at a glance (docs/frameworks.md).

Run it as Argus does: panel serve app.py --port 8795 --index app (see argus.toml). The fixture
arrives as the sensor's query parameter ``argus_fixture``, read from the session's arguments,
and names a file in fixtures/.
"""

from __future__ import annotations

import json
from pathlib import Path

import panel as pn
import param
from panel.custom import JSComponent

HERE = Path(__file__).resolve().parent
FIXTURES = ("populated", "empty")

pn.extension(raw_css=[(HERE / "tokens.css").read_text() + (HERE / "app.css").read_text()])

name = pn.state.session_args.get("argus_fixture", [b"populated"])[0].decode()
fixture = name if name in FIXTURES else "populated"
data = json.loads((HERE / "fixtures" / f"{fixture}.json").read_text())
average = data["revenue"] // max(data["orders"], 1)


def kpi(key: str, label: str, value: str) -> pn.pane.HTML:
    return pn.pane.HTML(
        f'<div class="kpi" data-testid="kpi-{key}"><p class="kpi-label">{label}</p>'
        f'<p class="kpi-value">{value}</p></div>',
        sizing_mode="stretch_width",
    )


class ExportButton(JSComponent):
    """The primary button, drawn with a test id (Panel's own widgets carry no id to name)."""

    clicks = param.Integer(default=0)

    _esm = """
    export function render({ model }) {
      const button = document.createElement("button")
      button.dataset.testid = "export"
      button.className = "primary"
      button.textContent = "Export report"
      button.addEventListener("click", () => { model.clicks += 1 })
      return button
    }
    """


status = pn.pane.HTML("")
export = ExportButton()
export.param.watch(lambda _event: setattr(status, "object", "Report exported"), "clicks")

pn.Column(
    pn.pane.HTML('<h1 data-testid="shop-title">Shop overview</h1>'),
    pn.pane.HTML(f'<p class="caption">Week {data["week"]} · {data["orders"]} orders</p>'),
    pn.Row(
        kpi("revenue", "Revenue", f"€{data['revenue']:,}"),
        kpi("orders", "Orders", f"{data['orders']}"),
        kpi("average", "Average order", f"€{average}"),
        sizing_mode="stretch_width",
    ),
    export,
    status,
    sizing_mode="stretch_width",
).servable(title="Shop overview")
