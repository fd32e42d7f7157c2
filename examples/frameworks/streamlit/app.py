"""The Streamlit example: a shop's week at a glance (docs/frameworks.md).

Run it as Argus does: streamlit run app.py --server.port 8791. The fixture arrives as the
sensor's query parameter ``argus_fixture`` and names a file in fixtures/.
"""

from __future__ import annotations

import json
from pathlib import Path

import streamlit as st

HERE = Path(__file__).resolve().parent
FIXTURES = ("populated", "empty")

st.set_page_config(page_title="Shop overview", layout="centered")

name = st.query_params.get("argus_fixture", "populated")
fixture = name if name in FIXTURES else "populated"
data = json.loads((HERE / "fixtures" / f"{fixture}.json").read_text())

st.title("Shop overview")
st.caption(f"Week {data['week']} · {data['orders']} orders")
revenue, orders, average = st.columns(3)
revenue.metric("Revenue", f"€{data['revenue']:,}")
orders.metric("Orders", f"{data['orders']}")
average.metric("Average order", f"€{data['revenue'] // max(data['orders'], 1)}")
st.button("Export report", type="primary")
