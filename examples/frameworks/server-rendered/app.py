"""The server-rendered example: a shop's week at a glance in Flask templates with HTMX
(docs/frameworks.md).

Run it as Argus does: flask --app app run --host 127.0.0.1 --port 8796. The page reads the
sensor's query parameter ``argus_fixture`` (a file in fixtures/) and HTMX loads the key figures
from /kpis once the page is in.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from flask import Flask, render_template, request

HERE = Path(__file__).resolve().parent
FIXTURES = ("populated", "empty")

app = Flask(__name__)


def fixture() -> tuple[str, dict[str, Any]]:
    name = request.args.get("argus_fixture", "populated")
    chosen = name if name in FIXTURES else "populated"
    data: dict[str, Any] = json.loads((HERE / "fixtures" / f"{chosen}.json").read_text())
    return chosen, data


@app.get("/")
def index() -> str:
    name, data = fixture()
    return render_template("index.html", fixture=name, data=data)


@app.get("/kpis")
def kpis() -> str:
    _, data = fixture()
    average = data["revenue"] // max(data["orders"], 1)
    return render_template("kpis.html", data=data, average=average)


@app.post("/export")
def export() -> str:
    return "Report exported"
