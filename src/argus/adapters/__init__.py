"""Sensors for UIs that are not web pages, each written to the adapter contract
(docs/sense.md, "Adapter contract (non-web platforms)"): a project's
``argus/adapters/NAME/sense.sh`` runs one and Argus checks what it wrote.

    python -m argus.adapters.textual --app app.py:MyApp --route R --state S --appearance A
        --fixture F --out DIR          # argus.adapters.textual: a Textual app, by its pilot
    adapter_scaffold("textual", "app.py:MyApp")  # what argus init --adapter writes
"""

from __future__ import annotations

from collections.abc import Callable

from argus.adapters.textual import textual_scaffold
from argus.errors import InputError
from argus.spec.scaffold import AdapterScaffold

__all__ = ["SCAFFOLDS", "adapter_scaffold"]

SCAFFOLDS: dict[str, Callable[[str], AdapterScaffold]] = {"textual": textual_scaffold}


def adapter_scaffold(name: str, app: str | None) -> AdapterScaffold:
    """The spec and sense.sh ``argus init --adapter NAME --app APP`` writes."""
    make = SCAFFOLDS.get(name)
    if make is None:
        known = ", ".join(sorted(SCAFFOLDS))
        raise InputError(
            f"--adapter {name!r}: Argus ships no adapter of that name (it ships: {known}); for "
            "another platform write argus/adapters/NAME/sense.sh yourself (docs/sense.md)"
        )
    if not app:
        raise InputError(f"--adapter {name} needs --app FILE.py:CLASS, the app to sense")
    return make(app)
