"""The Gradio example: a shop's week at a glance (docs/frameworks.md).

Run it as Argus does: GRADIO_SERVER_NAME=127.0.0.1 GRADIO_SERVER_PORT=8793 python app.py. The
fixture arrives as the sensor's query parameter ``argus_fixture``, read from the request in
the page's load event, and names a file in fixtures/.
"""

from __future__ import annotations

import json
from pathlib import Path

import gradio as gr

HERE = Path(__file__).resolve().parent
FIXTURES = ("populated", "empty")


def show(request: gr.Request) -> tuple[str, str, str, str]:
    name = request.query_params.get("argus_fixture", "populated")
    fixture = name if name in FIXTURES else "populated"
    data = json.loads((HERE / "fixtures" / f"{fixture}.json").read_text())
    average = data["revenue"] // max(data["orders"], 1)
    return (
        f"Week {data['week']} · {data['orders']} orders",
        f"Revenue\n\n**€{data['revenue']:,}**",
        f"Orders\n\n**{data['orders']}**",
        f"Average order\n\n**€{average}**",
    )


def export() -> str:
    return "Report exported"


with gr.Blocks(title="Shop overview") as demo:
    gr.Markdown("# Shop overview", elem_id="shop-title")
    caption = gr.Markdown(elem_id="caption")
    with gr.Row():
        revenue = gr.Markdown(elem_id="kpi-revenue")
        orders = gr.Markdown(elem_id="kpi-orders")
        average = gr.Markdown(elem_id="kpi-average")
    button = gr.Button("Export report", variant="primary", elem_id="export")
    status = gr.Markdown(elem_id="export-status")
    demo.load(show, inputs=None, outputs=[caption, revenue, orders, average])
    button.click(export, inputs=None, outputs=status)

if __name__ == "__main__":
    # Gradio's default theme in blue, its primary button dark enough for white text (WCAG AA).
    theme = gr.themes.Default(primary_hue="blue").set(
        button_primary_background_fill="*primary_700",
        button_primary_background_fill_hover="*primary_800",
    )
    demo.launch(footer_links=[], theme=theme)
