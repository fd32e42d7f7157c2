"""A PBIR page written to disk for the layout tests: a clean 1280x720 page and its variants."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

PAGE_SCHEMA = "https://developer.microsoft.com/json-schemas/fabric/item/report/definition/page/2.1.0/schema.json"
VISUAL_SCHEMA = "https://developer.microsoft.com/json-schemas/fabric/item/report/definition/visualContainer/2.13.0/schema.json"


def field(role: str) -> dict[str, Any]:
    return {
        "projections": [
            {
                "field": {
                    "Measure": {"Expression": {"SourceRef": {"Entity": "Sales"}}, "Property": role}
                },
                "queryRef": f"Sales.{role}",
            }
        ]
    }


def visual(
    name: str, kind: str, x: float, y: float, w: float, h: float, *roles: str
) -> dict[str, Any]:
    body: dict[str, Any] = {"visualType": kind}
    if roles:
        body["query"] = {"queryState": {role: field(role) for role in roles}}
    return {
        "$schema": VISUAL_SCHEMA,
        "name": name,
        "position": {"x": x, "y": y, "z": 0, "width": w, "height": h},
        "visual": body,
    }


def good_page() -> dict[str, Any]:
    """Three cards 16 px apart, a chart and a table under them, a textbox under the chart."""
    return {
        "page": {
            "$schema": PAGE_SCHEMA,
            "name": "overview",
            "displayName": "Overview",
            "displayOption": "FitToPage",
            "width": 1280,
            "height": 720,
        },
        "visuals": [
            visual("card1", "card", 24, 24, 400, 120, "Values"),
            visual("card2", "card", 440, 24, 400, 120, "Values"),
            visual("card3", "card", 856, 24, 400, 120, "Values"),
            visual("chart", "clusteredColumnChart", 24, 160, 816, 536, "Category", "Y"),
            visual("table", "tableEx", 856, 160, 400, 536, "Values"),
            visual("title", "textbox", 24, 700, 400, 12),
        ],
    }


def variant(**changes: Any) -> dict[str, Any]:
    """The good page with visuals' fields replaced: variant(chart={"position.height": 545})."""
    page = copy.deepcopy(good_page())
    for name, fields in changes.items():
        target = (
            page["page"]
            if name == "page"
            else next(v for v in page["visuals"] if v["name"] == name)
        )
        for dotted, value in fields.items():
            *parents, leaf = dotted.split(".")
            node = target
            for part in parents:
                node = node[part]
            node[leaf] = value
    return page


def write_page(directory: Path, page: dict[str, Any]) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "page.json").write_text(json.dumps(page["page"]))
    for item in page["visuals"]:
        target = directory / "visuals" / item["name"] / "visual.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(item))
    return directory


def inline_page(page: dict[str, Any]) -> dict[str, Any]:
    """The same page in the linter's own one-file format: each visual's ``visualType``,
    ``queryState``, ``objects`` and ``visualContainerObjects`` on the item itself."""
    doc: dict[str, Any] = copy.deepcopy(page["page"])
    doc["visuals"] = []
    for item in copy.deepcopy(page["visuals"]):
        body = item.pop("visual")
        item.pop("$schema", None)
        query = body.pop("query", None)
        if query is not None:
            item["queryState"] = query["queryState"]
        doc["visuals"].append({**item, **body})
    return doc


def write_inline(path: Path, page: dict[str, Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(inline_page(page)))
    return path
