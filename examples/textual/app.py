"""A small Textual app for Argus's Textual adapter (docs/sense.md, "Textual"): a shopping
list with a title, its items and an Add button. The fixture comes from ARGUS_FIXTURE (a JSON
file with an ``items`` list); the appearance is the theme Argus picks (``shop-light`` or
``shop-dark``, registered below from the design tokens)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from textual.app import App, ComposeResult
from textual.theme import Theme
from textual.widgets import Button, Label, ListItem, ListView, Static

HERE = Path(__file__).resolve().parent
THEMES = (
    Theme(
        name="shop-light",
        primary="#1d4ed8",
        foreground="#16181d",
        background="#ffffff",
        surface="#f1f5f9",
        panel="#f1f5f9",
        dark=False,
    ),
    Theme(
        name="shop-dark",
        primary="#93c5fd",
        foreground="#f1f5f9",
        background="#0f172a",
        surface="#1e293b",
        panel="#1e293b",
        dark=True,
    ),
)


def load_items() -> list[dict[str, Any]]:
    """The fixture's items: ARGUS_FIXTURE names a file under fixtures/ (default populated)."""
    name = os.environ.get("ARGUS_FIXTURE") or "populated"
    data = json.loads((HERE / "fixtures" / f"{Path(name).stem}.json").read_text())
    return list(data["items"])


class ShoppingList(App[None]):
    CSS_PATH = "app.tcss"

    def __init__(self) -> None:
        super().__init__()
        for theme in THEMES:
            self.register_theme(theme)
        self.theme = "shop-light"
        self.items = load_items()

    def compose(self) -> ComposeResult:
        yield Label("Shopping list", id="list-title", classes="role-heading-1")
        if self.items:
            items = ListView(
                *(
                    ListItem(Label(item["label"]), id=f"row-item-{item['id']}")
                    for item in self.items
                ),
                id="list-items",
            )
            items.tooltip = "Items to buy"  # its accessible name (argus.adapters.textual)
            yield items
        else:
            yield Static("Nothing to buy yet.", id="list-empty")
        yield Button("Add item", id="list-add")


if __name__ == "__main__":
    ShoppingList().run()
